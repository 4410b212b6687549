package api

// RegistrationRules answer GET /api/auth/registration and the admin's
// registration routes: how new accounts open now (docs/api.md,
// "Registration").
type RegistrationRules struct {
	Mode        string  `json:"mode" enum:"open,approval,invite,closed" description:"open: anyone signs up; approval: a sign-up opens an inactive account with an application staff decide; invite: only with an invitation; closed: no new accounts."`
	Paused      bool    `json:"paused" description:"Sign-ups are paused now, whatever the mode."`
	PausedUntil *string `json:"pausedUntil" format:"date-time" description:"When the pause ends by itself; null: no pause."`
	Question    string  `json:"question" description:"What an applicant answers in approval mode (the sign-up's answer field); empty: no question."`
}

// RegistrationChange is the body of PUT /api/v1/admin/registration: each
// field optional, at least one given.
type RegistrationChange struct {
	_          struct{} `minProperties:"1"`
	Mode       *string  `json:"mode,omitempty" enum:"open,approval,invite,closed"`
	PauseHours *int     `json:"pauseHours,omitempty" minimum:"0" maximum:"168" description:"Pause every sign-up for this many hours from now; 0 ends a pause."`
	Question   *string  `json:"question,omitempty" maxLength:"500"`
}
