package api

import (
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// V1User is a user as the versioned admin family shows it:
// role is the highest role held, with super_admin shown as admin.
type V1User struct {
	ID          string  `json:"id"`
	Username    string  `json:"username"`
	Email       string  `json:"email"`
	Status      string  `json:"status" enum:"active,inactive,banned"`
	Role        string  `json:"role" enum:"user,moderator,admin"`
	CreatedAt   string  `json:"createdAt" format:"date-time"`
	LastLoginAt *string `json:"lastLoginAt" format:"date-time"`
	PostCount   int     `json:"postCount"`
	IsVerified  bool    `json:"isVerified"`
}

// V1UsersQuery documents the query of GET /api/v1/admin/users.
type V1UsersQuery struct {
	Limit  int    `query:"limit" minimum:"1" maximum:"100" default:"50" description:"Users per page."`
	Offset int    `query:"offset" minimum:"0" default:"0" description:"Users to skip."`
	Status string `query:"status" enum:"all,active,inactive,banned" default:"all" description:"Only users in this status (a ban that ran out counts as active); all, like leaving it out, keeps every status."`
	Role   string `query:"role" enum:"all,user,moderator,admin" default:"all" description:"Only users whose highest role is this one (admin includes super admins); all, like leaving it out, keeps every role."`
	Search string `query:"search" minLength:"1" maxLength:"100" description:"A case-insensitive substring of the username or email."`
	// Address, SignedUpFrom and SignedUpTo pick a spam wave's accounts
	// for a purge (docs/api.md, "Purges").
	Address      string `query:"address" maxLength:"64" description:"Only users who signed up or signed in from this address, or from an address of this range: an IP address, an IPv4 /24 or an IPv6 /64 (203.0.113.7, 203.0.113.0/24, 2001:db8:1:2::/64)."`
	SignedUpFrom string `query:"signedUpFrom" maxLength:"40" description:"Only users who signed up at or after this time: RFC 3339, or a date (YYYY-MM-DD, from its start, UTC)."`
	SignedUpTo   string `query:"signedUpTo" maxLength:"40" description:"Only users who signed up before this time: RFC 3339, or a date (YYYY-MM-DD, to its end, UTC)."`
	Sort         string `query:"sort" enum:"created_at,last_login_at,username,email,post_count,createdAt,lastLoginAt,postCount" default:"created_at" description:"By last sign-in, a user who never signed in counts as the longest ago."`
	Order        string `query:"order" enum:"asc,desc" default:"desc"`
}

// V1UserSorts maps each accepted sort spelling to its field.
var V1UserSorts = map[string]string{
	"created_at": "created_at", "createdAt": "created_at",
	"last_login_at": "last_login_at", "lastLoginAt": "last_login_at",
	"username": "username", "email": "email",
	"post_count": "post_count", "postCount": "post_count",
}

// V1UserParams are the checked parameters of GET /api/v1/admin/users.
type V1UserParams struct {
	Page   PageParams
	Status string // "" for all
	Role   string // "" for all
	Search string
	Sort   string // a value of V1UserSorts
	Desc   bool
	// Address is an address (Range false) or a range (Range true), in
	// netip's spelling; "" for any.
	Address string
	Range   bool
	// SignedUpFrom and SignedUpTo bound the sign-up time, [from, to);
	// nil leaves that end open.
	SignedUpFrom, SignedUpTo *time.Time
}

// MaxSearchTerm is the longest search term of the admin lists, in characters.
const MaxSearchTerm = 100

// ParseV1Users reads limit, offset, status, role, search, sort and order
// strictly: anything out of range is an issue, never
// clamped or ignored.
func ParseV1Users(q url.Values) (V1UserParams, error) {
	page, issues := ParsePage(q)
	out := V1UserParams{Page: page, Sort: "created_at", Desc: true}
	var is []Issue
	out.Status, is = parseFilter(q, "status", UserActive, UserInactive, UserBanned)
	issues = append(issues, is...)
	out.Role, is = parseFilter(q, "role", RoleUser, RoleModerator, RoleAdmin)
	issues = append(issues, is...)
	order, is := ParseChoice(q, "order", "desc", "asc", "desc")
	issues = append(issues, is...)
	out.Desc = order == "desc"
	out.Sort, is = parseSort(q, out.Sort, V1UserSorts, "created_at, last_login_at, username, email, post_count")
	issues = append(issues, is...)
	out.Search, is = parseSearchTerm(q)
	issues = append(issues, is...)
	out.Address, out.Range, is = parseAddressFilter(q)
	issues = append(issues, is...)
	out.SignedUpFrom, is = parseDayOrTime(q, "signedUpFrom", false)
	issues = append(issues, is...)
	out.SignedUpTo, is = parseDayOrTime(q, "signedUpTo", true)
	issues = append(issues, is...)
	if len(issues) > 0 {
		return out, Invalid(issues...)
	}
	return out, nil
}

// parseAddressFilter reads address: an IP address, or an IPv4 /24 or
// IPv6 /64, the ranges related accounts are compared by.
func parseAddressFilter(q url.Values) (string, bool, []Issue) {
	v, ok := param(q, "address")
	v = strings.TrimSpace(v)
	if !ok || v == "" {
		return "", false, nil
	}
	if a, err := netip.ParseAddr(v); err == nil {
		return a.Unmap().WithZone("").String(), false, nil
	}
	if p, err := netip.ParsePrefix(v); err == nil {
		a := p.Addr().Unmap()
		if a.Is4() && (p.Bits() == 24 || p.Addr().Is4In6() && p.Bits() == 120) || !a.Is4() && p.Bits() == 64 {
			bits := 64
			if a.Is4() {
				bits = 24
			}
			r, _ := a.Prefix(bits)
			return r.String(), true, nil
		}
	}
	return "", false, []Issue{FieldIssue("address", "invalid_string", "address must be an IP address, an IPv4 /24 or an IPv6 /64")}
}

// parseDayOrTime reads name, an RFC 3339 time or a date (YYYY-MM-DD, UTC):
// its start, or with end the start of the next day, so that a window
// "to" a day takes that day whole.
func parseDayOrTime(q url.Values, name string, end bool) (*time.Time, []Issue) {
	v, ok := param(q, name)
	if !ok || strings.TrimSpace(v) == "" {
		return nil, nil
	}
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		t = t.UTC()
		return &t, nil
	}
	if t, err := time.Parse(time.DateOnly, v); err == nil {
		if end {
			t = t.AddDate(0, 0, 1)
		}
		return &t, nil
	}
	return nil, []Issue{FieldIssue(name, "invalid_string", name+" must be an RFC 3339 time or a date (YYYY-MM-DD)")}
}

// parseFilter reads a list filter that keeps one of choices; all (the
// contract's default) and leaving it out both keep everything, as "".
func parseFilter(q url.Values, name string, choices ...string) (string, []Issue) {
	v, is := ParseChoice(q, name, "", append([]string{"all"}, choices...)...)
	if v == "all" {
		v = ""
	}
	return v, is
}

// parseSort reads sort, one of the spellings in sorts, as its field; absent
// gives def. names lists the fields for the message.
func parseSort(q url.Values, def string, sorts map[string]string, names string) (string, []Issue) {
	v, ok := param(q, "sort")
	if !ok {
		return def, nil
	}
	if field, known := sorts[v]; known {
		return field, nil
	}
	return def, []Issue{FieldIssue("sort", "invalid_enum_value", "sort must be one of "+names)}
}

// parseSearchTerm reads search, 1..MaxSearchTerm characters, trimmed.
func parseSearchTerm(q url.Values) (string, []Issue) {
	v, ok := param(q, "search")
	switch n := len([]rune(v)); {
	case !ok:
		return "", nil
	case n == 0:
		return "", []Issue{FieldIssue("search", "too_small", "search must not be empty")}
	case n > MaxSearchTerm:
		return "", []Issue{FieldIssue("search", "too_big", "search must be at most 100 characters")}
	}
	return strings.TrimSpace(v), nil
}

// V1UserDetail is one user in full: the V1User record
// with the profile, every role held (highest first), the ban history and
// the latest posts and audit entries about the user, newest first.
type V1UserDetail struct {
	V1User
	Notes              *string       `json:"notes" description:"The admin-only notes."`
	Profile            V1Profile     `json:"profile"`
	Roles              []string      `json:"roles"`
	Bans               []V1BanRecord `json:"bans"`
	Strikes            []V1Strike    `json:"strikes" description:"Bans, warnings and the hides and deletes of the user's posts that still stand (not undone, not overturned), newest first."`
	RecentPosts        []V1PostBrief `json:"recentPosts" maxItems:"10"`
	RecentAuditEntries []AuditEntry  `json:"recentAuditEntries" maxItems:"20"`
	SilencedUntil      *string       `json:"silencedUntil" format:"date-time" description:"When the silence in force ends (the user is read-only until then); null when none holds."`
	SilenceReason      *string       `json:"silenceReason" description:"The reason of the silence in force; null when none holds."`
}

// V1Profile is what the user shows of themselves.
type V1Profile struct {
	Name     *string `json:"name"`
	Bio      string  `json:"bio"`
	Location string  `json:"location"`
	Image    *string `json:"image"`
}

// V1BanRecord is one ban (a timeout) of a user's history. Active says it
// is in force now; a temporary ban that ran out, or one an admin ended, is
// not.
type V1BanRecord struct {
	ID        string  `json:"id"`
	Reason    string  `json:"reason"`
	Notes     string  `json:"notes"`
	CreatedAt string  `json:"createdAt" format:"date-time"`
	CreatedBy *string `json:"createdBy" description:"The issuing admin's id; null once that account is deleted."`
	ExpiresAt *string `json:"expiresAt" format:"date-time" description:"Null for a permanent ban."`
	EndedAt   *string `json:"endedAt" format:"date-time" description:"When an admin ended it (unban, or a later ban)."`
	Active    bool    `json:"active"`
}

// V1PostBrief is a post in a user's detail.
type V1PostBrief struct {
	ID          string `json:"id"`
	Title       string `json:"title"`
	Status      string `json:"status" enum:"published,draft,hidden,flagged,pending"`
	ReportCount int    `json:"reportCount"`
	CreatedAt   string `json:"createdAt" format:"date-time"`
}

// V1UserUpdate is the body of PUT /api/v1/admin/users/{id}: every field
// optional, at least one; an unknown field is refused.
type V1UserUpdate struct {
	Status     *string  `json:"status,omitempty" enum:"active,inactive,banned" description:"banned bans the user as POST …/ban does, permanently, with reason as its reason (a user already banned keeps the ban in force); active or inactive ends a ban in force, as POST …/ban with action unban does. Banning and unbanning need users:manage."`
	Role       *string  `json:"role,omitempty" enum:"user,moderator,admin" description:"The user's roles become this one and user."`
	IsVerified *bool    `json:"isVerified,omitempty"`
	Notes      *string  `json:"notes,omitempty" maxLength:"2000" description:"The admin-only notes; empty clears them."`
	Reason     *string  `json:"reason,omitempty" minLength:"1" maxLength:"500" description:"Only with status banned: the ban's reason, \"Status set to banned\" when absent (Plaza's addition)."`
	_          struct{} `minProperties:"1"`
}

// MaxAdminNotes is the longest admin note, in characters.
const MaxAdminNotes = 2000

// Check reports what is wrong with the update.
func (u *V1UserUpdate) Check() error {
	issues := u.issues("body", "status, role, isVerified, notes", true)
	if u.Reason != nil {
		r := strings.TrimSpace(*u.Reason)
		u.Reason = &r
		// Its length is the ban action's to check.
		switch {
		case u.Status == nil || *u.Status != UserBanned:
			issues = append(issues, FieldIssue("reason", "invalid_union", "reason goes with status banned only"))
		case r == "":
			issues = append(issues, FieldIssue("reason", "too_small", "reason must not be empty"))
		}
	}
	if len(issues) > 0 {
		return Invalid(issues...)
	}
	return nil
}

// BanReason is the reason a ban by status records, "" when none is given.
func (u *V1UserUpdate) BanReason() string {
	if u.Reason == nil {
		return ""
	}
	return *u.Reason
}

// issues lists what is wrong with the update; empty is reported on the
// field named none, offering the fields its body takes. A ban by status is
// for one user at a time (banned allows it), where the reason and the ban
// are recorded.
func (u *V1UserUpdate) issues(none, fields string, banned bool) []Issue {
	var issues []Issue
	if u.Status == nil && u.Role == nil && u.IsVerified == nil && u.Notes == nil {
		issues = append(issues, FieldIssue(none, "too_small", "give at least one of "+fields))
	}
	if u.Status != nil && *u.Status != UserActive && *u.Status != UserInactive && (*u.Status != UserBanned || !banned) {
		msg := "status must be active, inactive or banned"
		switch {
		case !banned && *u.Status == UserBanned:
			msg = "ban users one at a time, with POST /api/v1/admin/users/{id}/ban or PUT /api/v1/admin/users/{id}"
		case !banned:
			msg = "status must be active or inactive"
		}
		issues = append(issues, FieldIssue("status", "invalid_enum_value", msg))
	}
	if u.Role != nil && *u.Role != RoleUser && *u.Role != RoleModerator && *u.Role != RoleAdmin {
		issues = append(issues, FieldIssue("role", "invalid_enum_value", "role must be user, moderator or admin"))
	}
	if u.Notes != nil && len([]rune(*u.Notes)) > MaxAdminNotes {
		issues = append(issues, FieldIssue("notes", "too_big", atMost("notes", MaxAdminNotes)))
	}
	return issues
}

// V1BanRequest is the body of POST /api/v1/admin/users/{id}/ban.
type V1BanRequest struct {
	Action   string `json:"action" required:"true" enum:"ban,unban"`
	Reason   string `json:"reason,omitempty" requiredWhen:"action=ban" maxLength:"500" description:"Required to ban."`
	Duration string `json:"duration,omitempty" pattern:"^[1-9][0-9]*[mhdw]$" description:"<n>m, <n>h, <n>d or <n>w; absent means permanent."`
	Notes    string `json:"notes,omitempty" maxLength:"2000"`
	// RemoveContent, beyond the contract, hides the user's published and
	// flagged posts in the same transaction as the ban.
	RemoveContent bool `json:"removeContent,omitempty" description:"Hide the user's published and flagged posts with the ban (Plaza's addition)."`
}

// Check reads the request: the duration it asks for (zero: permanent), or
// what is wrong with its form. The reason and notes are the ban action's
// to check, the same at every door.
func (r *V1BanRequest) Check() (time.Duration, error) {
	var issues []Issue
	switch {
	case r.Action != "ban" && r.Action != "unban":
		issues = append(issues, FieldIssue("action", "invalid_enum_value", "action must be ban or unban"))
	case r.Action == "unban" && (r.Duration != "" || r.RemoveContent):
		issues = append(issues, FieldIssue("action", "invalid_union", "duration and removeContent go with ban only"))
	}
	var d time.Duration
	if r.Duration != "" {
		var err error
		if d, err = ParseDuration(r.Duration); err != nil {
			issues = append(issues, FieldIssue("duration", "invalid_string", "duration: "+err.Error()))
		}
	}
	if len(issues) > 0 {
		return 0, Invalid(issues...)
	}
	return d, nil
}

// V1BanResult answers the versioned ban and unban: the user as it now is
// and the ban made, or the one ended (null when none was in force).
type V1BanResult struct {
	User V1User `json:"user"`
	Ban  *V1Ban `json:"ban" nullable:"true"`
	// HiddenPosts counts the posts hidden with the ban (removeContent).
	HiddenPosts int `json:"hiddenPosts"`
}

// V1Ban is a ban as the ban route answers it.
type V1Ban struct {
	ID        string  `json:"id"`
	Reason    string  `json:"reason"`
	ExpiresAt *string `json:"expiresAt" format:"date-time"`
	CreatedAt string  `json:"createdAt" format:"date-time"`
	CreatedBy *string `json:"createdBy"`
}

// MaxBulkUsers is how many users one bulk update may name.
const MaxBulkUsers = 500

// V1BulkUpdate is the body of POST /api/v1/admin/users/bulk-update.
type V1BulkUpdate struct {
	UserIDs []string          `json:"userIds" required:"true" minItems:"1" maxItems:"500" description:"User ids (strings of digits); a repeated id changes once."`
	Changes V1BulkUserChanges `json:"changes" required:"true"`
}

// V1BulkUserChanges is what a bulk update changes: at least one field.
type V1BulkUserChanges struct {
	Status     *string  `json:"status,omitempty" enum:"active,inactive"`
	Role       *string  `json:"role,omitempty" enum:"user,moderator,admin"`
	IsVerified *bool    `json:"isVerified,omitempty"`
	_          struct{} `minProperties:"1"`
}

// Check reads the ids (distinct, in the order given), or says what is
// wrong with the request.
func (b *V1BulkUpdate) Check() ([]int64, error) {
	ids, issues := idList("userIds", "user", b.UserIDs, MaxBulkUsers)
	ch := V1UserUpdate{Status: b.Changes.Status, Role: b.Changes.Role, IsVerified: b.Changes.IsVerified}
	for _, is := range ch.issues("changes", "status, role, isVerified", false) {
		if is.Path[0] != "changes" {
			is.Path = append([]string{"changes"}, is.Path...)
		}
		issues = append(issues, is)
	}
	if len(issues) > 0 {
		return nil, Invalid(issues...)
	}
	return ids, nil
}

// idList reads field, 1 to most ids given as strings of digits, each once
// in the order given (what names them in messages).
func idList(field, what string, given []string, most int) ([]int64, []Issue) {
	var issues []Issue
	switch n := len(given); {
	case n == 0:
		issues = append(issues, FieldIssue(field, "too_small", "name at least one "+what))
	case n > most:
		issues = append(issues, FieldIssue(field, "too_big", "name at most "+strconv.Itoa(most)+" "+what+"s"))
	}
	var ids []int64
	seen := map[int64]bool{}
	for _, s := range given {
		id, err := strconv.ParseInt(s, 10, 64)
		if err != nil || id < 1 {
			return nil, append(issues, FieldIssue(field, "invalid_string", "every "+what+" id must be a string of digits"))
		}
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	return ids, issues
}

// V1BulkResult answers a bulk update: how many users it changed, and each
// as it now is.
type V1BulkResult struct {
	Updated int      `json:"updated"`
	Users   []V1User `json:"users"`
}

// V1Note is a staff note on a user.
type V1Note struct {
	ID        string        `json:"id"`
	Kind      string        `json:"kind" enum:"note,warning"`
	Body      string        `json:"body"`
	Author    *V1NoteAuthor `json:"author" nullable:"true" description:"Null once the author's account is deleted."`
	CreatedAt string        `json:"createdAt" format:"date-time"`
}

// V1NoteAuthor is who wrote a note.
type V1NoteAuthor struct {
	ID       string `json:"id"`
	Username string `json:"username"`
}

// V1NewNote is the body of POST /api/v1/admin/users/{id}/notes.
type V1NewNote struct {
	Body string `json:"body" required:"true" minLength:"1" maxLength:"2000"`
	Kind string `json:"kind,omitempty" enum:"note,warning" default:"note" description:"A warning counts as a strike."`
}

// Check reports what is wrong with the note, and fills the default kind.
func (n *V1NewNote) Check() error {
	var issues []Issue
	n.Body = strings.TrimSpace(n.Body)
	switch l := len([]rune(n.Body)); {
	case l == 0:
		issues = append(issues, FieldIssue("body", "too_small", "a note needs a body"))
	case l > MaxAdminNotes:
		issues = append(issues, FieldIssue("body", "too_big", atMost("body", MaxAdminNotes)))
	}
	if n.Kind == "" {
		n.Kind = "note"
	}
	if n.Kind != "note" && n.Kind != "warning" {
		issues = append(issues, FieldIssue("kind", "invalid_enum_value", "kind must be note or warning"))
	}
	if len(issues) > 0 {
		return Invalid(issues...)
	}
	return nil
}

// V1Strike is one mark in a user's history.
type V1Strike struct {
	Kind   string  `json:"kind" enum:"ban,warning,moderation"`
	Reason string  `json:"reason"`
	At     string  `json:"at" format:"date-time"`
	By     *string `json:"by" description:"The staff member's username; null once that account is deleted."`
}

// SilenceRequest is the body of POST /api/v1/admin/users/{id}/silence
// and of POST /api/admin/users/{id}/silence: the silence action checks it
// (actions.MaxSilence, actions.MaxSilenceReason).
type SilenceRequest struct {
	Duration string `json:"duration" required:"true" pattern:"^[1-9][0-9]*[mhdw]$" description:"<n>m, <n>h, <n>d or <n>w, at most 30d."`
	Reason   string `json:"reason" required:"true" minLength:"1" maxLength:"500"`
}

// V1PasswordReset answers a password reset staff open for someone: the
// reset mail is on its way (sent), or, when the instance sends no mail,
// the link to hand over, shown this once.
type V1PasswordReset struct {
	Sent      bool   `json:"sent" description:"The reset mail was queued to the account's address; no link is answered."`
	URL       string `json:"url,omitempty" format:"uri" description:"Only when no mail can be sent (no SMTP_URL): the reset link to hand over, single use. Plaza keeps no copy it could show again."`
	ExpiresAt string `json:"expiresAt" format:"date-time" description:"When the link stops working, 60 minutes on."`
}

// V1SilenceResult answers the versioned silence and unsilence: the user
// as it now is and the silence in force (nulls when none holds).
type V1SilenceResult struct {
	User          V1User  `json:"user"`
	SilencedUntil *string `json:"silencedUntil" format:"date-time"`
	SilenceReason *string `json:"silenceReason"`
}
