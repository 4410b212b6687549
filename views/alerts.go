package views

import "github.com/plazahq/plaza/api"

// AlertsForm is the "Mail alerts" page: one's staff alerts, and what the
// page offers and has to say about them.
type AlertsForm struct {
	Alerts api.AlertPreferences
	// OfferOperations offers the alerts of failed jobs and backups
	// (admins).
	OfferOperations bool
	// Sending says a mail server is set (SMTP_URL); without one the page
	// says the mail is kept on the mail page.
	Sending bool
	// Saved says a plain form's post was stored; Errors are what it was
	// refused, by field ("" for the form as a whole).
	Saved  bool
	Errors map[string]string
}

// alertModeLabel says what each report alert setting mails.
func alertModeLabel(mode string) string {
	switch mode {
	case "now":
		return "At once: a mail for each new report"
	case "hourly":
		return "Hourly: one mail of the hour's new reports"
	case "daily":
		return "Daily: one mail of the day's new reports"
	}
	return "Never"
}
