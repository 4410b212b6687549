package api

import (
	"regexp"
	"strings"
)

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

// FlagNames are the names a feature flag may have.
var FlagNames = regexp.MustCompile(`^[a-z][a-z0-9_.-]{1,63}$`)

// CheckFlag reports what is wrong with a flag's name and update.
func CheckFlag(name string, u *V1FlagUpdate) error {
	var issues []Issue
	if !FlagNames.MatchString(name) {
		issues = append(issues, FieldIssue("name", "invalid_string",
			"a flag's name is 2 to 64 lowercase letters, digits, _ . or -, starting with a letter"))
	}
	if u != nil && u.RolloutPercentage != nil && (*u.RolloutPercentage < 0 || *u.RolloutPercentage > 100) {
		issues = append(issues, FieldIssue("rolloutPercentage", "too_big", "rolloutPercentage must be from 0 to 100"))
	}
	if u != nil && u.Description != nil {
		d := strings.TrimSpace(*u.Description)
		u.Description = &d
		if len([]rune(d)) > MaxFlagDescription {
			issues = append(issues, FieldIssue("description", "too_big", atMost("description", MaxFlagDescription)))
		}
	}
	if len(issues) > 0 {
		return Invalid(issues...)
	}
	return nil
}

// FlagsForUser answers GET /api/feature-flags: each flag's answer for the
// signed-in user.
type FlagsForUser map[string]bool

// DeletedFlag answers a flag's deletion.
type DeletedFlag struct {
	Deleted bool   `json:"deleted"`
	Name    string `json:"name"`
}

// MaxFlagDescription is the longest description of a feature flag, in
// characters; the console's description fields take it as their maxlength.
const MaxFlagDescription = 500
