package api

// V1FeatureFlag is a feature flag.
type V1FeatureFlag struct {
	Name              string  `json:"name"`
	Description       string  `json:"description"`
	Enabled           bool    `json:"enabled"`
	RolloutPercentage int     `json:"rolloutPercentage" minimum:"0" maximum:"100"`
	CreatedAt         string  `json:"createdAt" format:"date-time"`
	UpdatedAt         string  `json:"updatedAt" format:"date-time"`
	UpdatedBy         *string `json:"updatedBy" description:"The admin's id; null once that account is deleted."`
}

// V1FlagUpdate is the body of PUT /api/v1/admin/feature-flags/{name}: every
// field optional (a new flag starts disabled at 0%); an unknown field is
// refused.
type V1FlagUpdate struct {
	Enabled           *bool   `json:"enabled,omitempty"`
	RolloutPercentage *int    `json:"rolloutPercentage,omitempty" minimum:"0" maximum:"100"`
	Description       *string `json:"description,omitempty" maxLength:"500"`
}

// FlagsForUser answers GET /api/feature-flags: each flag's answer for the
// signed-in user.
type FlagsForUser map[string]bool

// DeletedFlag answers a flag's deletion.
type DeletedFlag struct {
	Deleted bool   `json:"deleted"`
	Name    string `json:"name"`
}
