package api

import (
	"fmt"
	"math"
	"net/url"
	"strconv"
	"unicode/utf8"
)

// AdminUser is a user as GET /api/admin/users lists it:
// the numeric id, snake_case names, and null where a value is absent.
type AdminUser struct {
	ID                    int64   `json:"id"`
	Name                  *string `json:"name"`
	Email                 string  `json:"email"`
	Image                 *string `json:"image"`
	CreatedAt             string  `json:"created_at"`
	ProfilePublic         bool    `json:"profile_public"`
	Bio                   string  `json:"bio"`
	Location              string  `json:"location"`
	LastLogin             *string `json:"last_login"`
	LoginCount            int     `json:"login_count"`
	IsActive              bool    `json:"is_active"`
	AdminNotes            *string `json:"admin_notes"`
	ProviderName          *string `json:"provider_name"`
	ProviderEmail         *string `json:"provider_email"`
	ProviderVerified      bool    `json:"provider_verified"`
	ProviderLastUsed      *string `json:"provider_last_used"`
	RoleCount             int     `json:"role_count"`
	RoleNames             *string `json:"role_names"`
	HasAdmin              bool    `json:"has_admin"`
	HasModerator          bool    `json:"has_moderator"`
	SubscriptionCount     int     `json:"subscription_count"`
	ActiveSubscriptions   int     `json:"active_subscriptions"`
	SubscriptionNames     *string `json:"subscription_names"`
	HasActiveSubscription bool    `json:"has_active_subscription"`
	IsTimedOut            bool    `json:"is_timed_out"`
	TimeoutCount          int     `json:"timeout_count"`
	ActiveTimeoutReason   *string `json:"active_timeout_reason"`
	TimeoutExpires        *string `json:"timeout_expires"`
	ActiveTimeoutID       *int64  `json:"active_timeout_id"`
	// Status is Plaza's addition: active, inactive or banned, as the
	// versioned family says it.
	Status string `json:"status"`
	// Username is Plaza's addition too.
	Username string `json:"username"`
}

// AdminUserList is the envelope of GET /api/admin/users.
type AdminUserList struct {
	Users       []AdminUser     `json:"users"`
	CurrentPage int             `json:"currentPage"`
	TotalPages  int             `json:"totalPages"`
	Pagination  AdminPagination `json:"pagination"`
}

// AdminPagination is the pagination object of the unversioned admin list.
type AdminPagination struct {
	Page       int  `json:"page"`
	Limit      int  `json:"limit"`
	Total      int  `json:"total"`
	TotalPages int  `json:"totalPages"`
	HasNext    bool `json:"hasNext"`
	HasPrev    bool `json:"hasPrev"`
	// TotalCapped, Plaza's addition, said that a search matched more
	// users than Plaza counted. The count is now exact, so it is always
	// false; it stays for clients written against earlier versions.
	TotalCapped bool `json:"totalCapped"`
}

// AdminUsersQuery documents the query of GET /api/admin/users.
type AdminUsersQuery struct {
	Page   int    `query:"page" minimum:"1" default:"1" description:"Page number, from 1."`
	Limit  int    `query:"limit" minimum:"1" maximum:"100" default:"20" description:"Users per page."`
	Search string `query:"search" minLength:"1" maxLength:"100" description:"Case-insensitive substring of the name, username, email, or a linked provider's name or email."`
}

// AdminBanRequest is the body of POST /api/admin/users/{id}/ban.
type AdminBanRequest struct {
	Reason   string `json:"reason" required:"true" minLength:"1" maxLength:"500"`
	Duration string `json:"duration,omitempty" pattern:"^[1-9][0-9]*[mhdw]$" description:"<n>m, <n>h, <n>d or <n>w; absent means permanent."`
	Notes    string `json:"notes,omitempty" maxLength:"2000"`
}

// AdminSilenceResult answers the unversioned silence and unsilence: the
// user, and when the silence in force ends (null when none holds).
type AdminSilenceResult struct {
	Success       bool      `json:"success"`
	User          AdminUser `json:"user"`
	SilencedUntil *string   `json:"silencedUntil" format:"date-time"`
}

// AdminBanResult answers the unversioned ban and unban.
type AdminBanResult struct {
	Success bool      `json:"success"`
	User    AdminUser `json:"user"`
}

// AdminStats answers GET /api/admin/stats.
type AdminStats struct {
	Users             UserTotals     `json:"users"`
	Posts             map[string]int `json:"posts"` // by status, and total
	OpenReports       int            `json:"openReports"`
	EventsToday       int            `json:"eventsToday"`
	DatabaseSizeBytes int64          `json:"databaseSizeBytes"`
	Database          string         `json:"database"` // postgres or sqlite
	Uptime            string         `json:"uptime"`
	Timestamp         string         `json:"timestamp"`
}

// UserTotals counts users for GET /api/admin/stats.
type UserTotals struct {
	Total    int `json:"total"`
	Active   int `json:"active"`
	Banned   int `json:"banned"`
	NewToday int `json:"newToday"`
}

// Bounds of GET /api/admin/users.
const (
	AdminUsersDefaultLimit = 20
	AdminUsersMaxLimit     = 100
	AdminUsersMaxSearch    = 100
)

// ParseAdminUsersQuery reads page, limit and search as a zod schema would:
// every problem is an issue in zod's shape, and the
// error is 400 with all of them.
func ParseAdminUsersQuery(q url.Values) (AdminUsersQuery, error) {
	out := AdminUsersQuery{Page: 1, Limit: AdminUsersDefaultLimit}
	var issues []Issue
	if v, ok := param(q, "page"); ok {
		n, is := zodInt("page", v, 1, 0)
		out.Page, issues = n, append(issues, is...)
	}
	if v, ok := param(q, "limit"); ok {
		n, is := zodInt("limit", v, 1, AdminUsersMaxLimit)
		out.Limit, issues = n, append(issues, is...)
	}
	if v, ok := param(q, "search"); ok {
		out.Search = v
		switch n := utf8.RuneCountInString(v); {
		case n == 0:
			issues = append(issues, Issue{Path: []string{"search"}, Code: "too_small", Message: "String must contain at least 1 character(s)"})
		case n > AdminUsersMaxSearch:
			issues = append(issues, Issue{Path: []string{"search"}, Code: "too_big", Message: "String must contain at most 100 character(s)"})
		}
	}
	if len(issues) > 0 {
		return out, &ValidationError{Message: "Invalid query parameters", Issues: issues}
	}
	return out, nil
}

// zodInt reads a query integer with zod's coerce-number messages; max 0
// means unbounded.
func zodInt(name, v string, lo, hi int) (int, []Issue) {
	issue := func(code, expected, received, msg string) []Issue {
		return []Issue{{Path: []string{name}, Code: code, Expected: expected, Received: received, Message: msg}}
	}
	f, err := strconv.ParseFloat(v, 64)
	switch {
	case err != nil || math.IsNaN(f) || math.IsInf(f, 0):
		return 0, issue("invalid_type", "number", "nan", "Expected number, received nan")
	case f != math.Trunc(f):
		return 0, issue("invalid_type", "integer", "float", "Expected integer, received float")
	case f < float64(lo):
		return 0, issue("too_small", "", "", fmt.Sprintf("Number must be greater than or equal to %d", lo))
	case hi > 0 && f > float64(hi):
		return 0, issue("too_big", "", "", fmt.Sprintf("Number must be less than or equal to %d", hi))
	case f > math.MaxInt32:
		return 0, issue("too_big", "", "", fmt.Sprintf("Number must be less than or equal to %d", math.MaxInt32))
	}
	return int(f), nil
}

// NewAdminUserList wraps a page of users in the list's envelope.
func NewAdminUserList(users []AdminUser, page, limit, total int) AdminUserList {
	pages := (total + limit - 1) / limit
	return AdminUserList{Users: users, CurrentPage: page, TotalPages: pages, Pagination: AdminPagination{
		Page: page, Limit: limit, Total: total, TotalPages: pages, HasNext: page < pages, HasPrev: page > 1,
	}}
}
