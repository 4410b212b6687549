package views

import "github.com/plazahq/plaza/api"

// RegistrationForm is the "Registration" page: how new accounts open, and
// what a plain form's post came to.
type RegistrationForm struct {
	Rules api.RegistrationRules
	// QuestionMax is the longest question the action takes.
	QuestionMax int
	// Saved says a plain form's post was stored; Errors are what it was
	// refused, by field ("" for the form as a whole).
	Saved  bool
	Errors map[string]string
}

// registrationModes are the modes in the order the form offers them.
var registrationModes = []string{"open", "approval", "invite", "closed"}

// RegistrationModeLabel names a registration mode.
func RegistrationModeLabel(mode string) string {
	switch mode {
	case "approval":
		return "Approval"
	case "invite":
		return "Invite only"
	case "closed":
		return "Closed"
	}
	return "Open"
}

// registrationModeHint says what a mode does to someone signing up.
func registrationModeHint(mode string) string {
	switch mode {
	case "approval":
		return "A sign-up opens an inactive account and an application; it can sign in once staff approve it."
	case "invite":
		return "Only someone with an invitation link can sign up."
	case "closed":
		return "Nobody can sign up; sign-up answers that the community is not accepting new accounts."
	}
	return "Anyone can sign up and sign in at once."
}

// pauseChoices are the pause lengths the form offers, in hours.
var pauseChoices = []struct {
	Hours int
	Label string
}{{1, "1 hour"}, {6, "6 hours"}, {24, "24 hours"}, {72, "3 days"}, {168, "7 days"}}

// FormatTime is an API timestamp as the console writes it in full.
func FormatTime(s string) string { return exactTime(parseTime(s)) }
