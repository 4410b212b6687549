package api

import (
	"strconv"
	"strings"
	"time"
)

// Broadcast limits, Plaza's own choice.
const (
	MaxBroadcastTitle   = 200
	MaxBroadcastMessage = 5000
	MaxBroadcastTargets = 100
	// MaxBroadcastAhead is how far ahead a broadcast may be scheduled.
	MaxBroadcastAhead = 365 * 24 * time.Hour
)

// BroadcastTypes are a notification's types, mildest first.
var BroadcastTypes = []string{"info", "success", "warning", "critical"}

// V1BroadcastRequest is the body of POST /api/v1/admin/notifications/broadcast.
type V1BroadcastRequest struct {
	Title    string   `json:"title" required:"true" minLength:"1" maxLength:"200"`
	Message  string   `json:"message" required:"true" minLength:"1" maxLength:"5000"`
	Type     string   `json:"type,omitempty" enum:"info,success,warning,critical" default:"info"`
	Targets  []string `json:"targets" required:"true" minItems:"1" maxItems:"100" description:"\"all\", or any of \"users\", \"moderators\", \"admins\" and \"user:<id>\"."`
	Schedule string   `json:"schedule,omitempty" default:"immediate" description:"\"immediate\" or a future RFC 3339 time (at most a year ahead)."`
}

// BroadcastTargets is a broadcast's audience: everyone, or the union of
// roles and single users.
type BroadcastTargets struct {
	Given []string // as given, each once
	All   bool
	Roles []string // user, moderator, admin: the users whose highest role it is
	Users []int64
}

// targetRoles maps the role targets to the roles they reach.
var targetRoles = map[string]string{"users": RoleUser, "moderators": RoleModerator, "admins": RoleAdmin}

// Check fills the defaults and reads the request: its audience and its
// time (nil: immediate), or what is wrong with it.
func (r *V1BroadcastRequest) Check(now time.Time) (BroadcastTargets, *time.Time, error) {
	r.Title, r.Message = strings.TrimSpace(r.Title), strings.TrimSpace(r.Message)
	issues := append(textIssue("title", r.Title, MaxBroadcastTitle), textIssue("message", r.Message, MaxBroadcastMessage)...)
	if r.Type == "" {
		r.Type = "info"
	}
	if !oneOf(r.Type, BroadcastTypes) {
		issues = append(issues, FieldIssue("type", "invalid_enum_value", "type must be info, success, warning or critical"))
	}
	targets, more := parseTargets(r.Targets)
	issues = append(issues, more...)
	at, more := parseSchedule(r.Schedule, now)
	issues = append(issues, more...)
	if r.Schedule == "" {
		r.Schedule = "immediate"
	}
	if len(issues) > 0 {
		return targets, nil, Invalid(issues...)
	}
	return targets, at, nil
}

func textIssue(field, v string, most int) []Issue {
	switch n := len([]rune(v)); {
	case n == 0:
		return []Issue{FieldIssue(field, "too_small", field+" is required")}
	case n > most:
		return []Issue{FieldIssue(field, "too_big", field+" must be at most "+strconv.Itoa(most)+" characters")}
	}
	return nil
}

func oneOf(v string, allowed []string) bool {
	for _, a := range allowed {
		if v == a {
			return true
		}
	}
	return false
}

func parseTargets(given []string) (BroadcastTargets, []Issue) {
	var t BroadcastTargets
	switch n := len(given); {
	case n == 0:
		return t, []Issue{FieldIssue("targets", "too_small", `name at least one target, or "all"`)}
	case n > MaxBroadcastTargets:
		return t, []Issue{FieldIssue("targets", "too_big", "name at most 100 targets")}
	}
	var issues []Issue
	seen := map[string]bool{}
	for i, s := range given {
		if seen[s] {
			continue
		}
		seen[s] = true
		t.Given = append(t.Given, s)
		id, isUser := strings.CutPrefix(s, "user:")
		n, err := strconv.ParseInt(id, 10, 64)
		switch role, isRole := targetRoles[s]; {
		case s == "all":
			t.All = true
		case isRole:
			t.Roles = append(t.Roles, role)
		case isUser && err == nil && n > 0:
			t.Users = append(t.Users, n)
		default:
			issues = append(issues, Issue{Path: []string{"targets", strconv.Itoa(i)}, Code: "invalid_string",
				Message: `a target is "all", "users", "moderators", "admins" or "user:<id>"`})
		}
	}
	return t, issues
}

func parseSchedule(s string, now time.Time) (*time.Time, []Issue) {
	if s == "" || s == "immediate" {
		return nil, nil
	}
	at, err := time.Parse(time.RFC3339, s)
	switch {
	case err != nil:
		return nil, []Issue{FieldIssue("schedule", "invalid_string", `schedule is "immediate" or an RFC 3339 time`)}
	case !at.After(now):
		return nil, []Issue{FieldIssue("schedule", "too_small", "a scheduled time must be in the future")}
	case at.Sub(now) > MaxBroadcastAhead:
		return nil, []Issue{FieldIssue("schedule", "too_big", "a broadcast may be scheduled at most a year ahead")}
	}
	at = at.UTC()
	return &at, nil
}

// V1Broadcast is a broadcast as its creation and the history answer it.
type V1Broadcast struct {
	ID       string   `json:"id"`
	Title    string   `json:"title"`
	Message  string   `json:"message"`
	Type     string   `json:"type" enum:"info,success,warning,critical"`
	Targets  []string `json:"targets"`
	Schedule string   `json:"schedule" description:"\"immediate\", or the time it was scheduled for."`
	Status   string   `json:"status" enum:"scheduled,sent,failed"`
	// Recipients is counted when the broadcast is sent: the users its
	// targets named then.
	Recipients int     `json:"recipients" description:"How many users the targets named when it was sent (0 while scheduled)."`
	Delivered  int     `json:"delivered" description:"How many inboxes hold it: all its recipients from the moment it is sent, 0 while scheduled (Plaza's addition)."`
	Read       int     `json:"read" description:"How many recipients have read it (Plaza's addition)."`
	CreatedAt  string  `json:"createdAt" format:"date-time"`
	CreatedBy  *string `json:"createdBy" description:"The admin's id; null once that account is deleted."`
	SentAt     *string `json:"sentAt" format:"date-time"`
	// DeliveredAt is when every inbox held it: when it was sent.
	DeliveredAt *string `json:"deliveredAt" format:"date-time" description:"When every inbox held it, which is when it was sent; null until then."`
}
