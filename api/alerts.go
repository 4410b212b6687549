package api

// Staff alerts (docs/api.md, "Staff alerts"): the mail a moderator or
// admin gets of new reports and, for admins, of failed jobs and backups.
const (
	PathAdminV1AccountAlerts = PathAdminV1 + "/account/alerts"
	PathConsoleAccountAlerts = "/admin/account/alerts"
)

// AlertModes are the report alert settings: a mail for each new report at
// once, one digest an hour or a day, or none.
var AlertModes = []string{"now", "hourly", "daily", "never"}

// AlertPreferences are one's staff alerts.
type AlertPreferences struct {
	Reports    string `json:"reports" enum:"now,hourly,daily,never" description:"New reports: a mail for each at once, one digest mail an hour or a day, or none."`
	Operations bool   `json:"operations" description:"A mail when a maintenance job or a backup fails (admins only)."`
}

// AlertPreferencesChange is the body that changes one's staff alerts, as
// JSON or a form (formData tags). A field left out stays as it is, except
// operations in a form, where a checkbox left unticked sends nothing and
// so turns them off.
type AlertPreferencesChange struct {
	Reports    *string  `json:"reports,omitempty" formData:"reports" enum:"now,hourly,daily,never"`
	Operations *bool    `json:"operations,omitempty" formData:"operations" description:"Only admins may turn them on."`
	_          struct{} `minProperties:"1"`
}

// ForceJSONRequestBody tells the OpenAPI reflector that the body comes as
// JSON too, not only as the form its formData tags describe.
func (AlertPreferencesChange) ForceJSONRequestBody() {}

// AlertsPageQuery documents the query of the console's "Mail alerts" page.
type AlertsPageQuery struct {
	Saved string `query:"saved" enum:"1" description:"The page a plain form's post lands on: it says the alerts are saved."`
}
