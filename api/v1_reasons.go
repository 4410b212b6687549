package api

import "strings"

// V1Reasons are the reason presets the console offers for bans and
// moderation (Plaza's addition): a short list admins edit.
type V1Reasons struct {
	Reasons []string `json:"reasons" required:"true" minItems:"1" maxItems:"50" description:"Each 1 to 100 characters, each once."`
}

// DefaultReasons are the presets until an admin sets them.
var DefaultReasons = []string{"Spam", "Harassment", "Off topic", "Misinformation", "Illegal content"}

// Check trims the reasons and reports what is wrong with the list.
func (r *V1Reasons) Check() error {
	var issues []Issue
	if n := len(r.Reasons); n == 0 || n > 50 {
		issues = append(issues, FieldIssue("reasons", "too_big", "give 1 to 50 reasons"))
	}
	seen := map[string]bool{}
	for i, reason := range r.Reasons {
		reason = strings.TrimSpace(reason)
		r.Reasons[i] = reason
		key := strings.ToLower(reason)
		if n := len([]rune(reason)); n == 0 || n > 100 || seen[key] {
			issues = append(issues, FieldIssue("reasons", "invalid_string", "each reason is 1 to 100 characters and appears once"))
			break
		}
		seen[key] = true
	}
	if len(issues) > 0 {
		return Invalid(issues...)
	}
	return nil
}
