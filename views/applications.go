package views

import (
	"strconv"

	"github.com/plazahq/plaza/api"
)

// ApplicationQueue is a page of the desk's Applications tab: the
// applications of one status with their signals, the reason presets its
// forms offer, and which ones the viewer may decide.
type ApplicationQueue struct {
	Applications []api.V1Application
	Pagination   api.Pagination
	Query        Query
	Status       string
	Reasons      []string
	// May is, by application id, whether the viewer may decide it (the
	// policy's answer); a missing one shows no decision.
	May map[string]bool
}

// whyLabel says what made a sign-up an application.
func whyLabel(why string) string {
	switch why {
	case "network":
		return "Its network needs approval"
	case "email_domain":
		return "Its email domain needs approval"
	}
	return "Sign-ups need approval"
}

// relatedLabel is the related-accounts signal in words.
func relatedLabel(n int) string {
	if n == 0 {
		return "No related accounts"
	}
	return plural(n, "related account")
}

// burstLabel is the same-range signal in words.
func burstLabel(n int) string {
	if n == 0 {
		return "No other sign-up from its range in the hour before"
	}
	return plural(n, "other sign-up") + " from its range in the hour before"
}

// emptyApplications says that no application has the status shown.
func emptyApplications(status string) string {
	if status == "pending" {
		return "No application awaits a decision."
	}
	return "No application is " + status + "."
}

// applicationPath is where the desk decides (approve, reject) on
// application id.
func applicationPath(id, what string) string { return api.ConsoleApplicationPath(id, what) }

// maxApplicationReason is the reason field's length, as the action
// checks it.
var maxApplicationReason = strconv.Itoa(api.MaxModerationReason)
