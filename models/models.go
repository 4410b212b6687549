package models

import (
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/states"
)

// User is a member of the community; admins and moderators are users with roles.
//
// PostCount is denormalised, so lists can sort and filter on it with an
// index: it is the number of posts whose author is the user, whatever their
// status (drafts and hidden posts included).
type User struct {
	bun.BaseModel `bun:"table:users,alias:u"`

	ID            int64      `bun:",pk,autoincrement"`
	Username      string     `bun:",notnull"`
	Email         string     `bun:",notnull"`
	Name          *string    `bun:""`
	Image         *string    `bun:""`
	Bio           string     `bun:",notnull"`
	Location      string     `bun:",notnull"`
	ProfilePublic bool       `bun:",notnull"`
	EmailVerified *time.Time `bun:""`
	IsVerified    bool       `bun:",notnull"`
	Status        string     `bun:",notnull"`
	IsActive      bool       `bun:",notnull"`
	AdminNotes    *string    `bun:""`
	PasswordHash  *string    `bun:""`
	PostCount     int        `bun:",notnull"`
	// PostsSubmitted counts the posts the account ever put up for
	// publication, deleted ones included (Posts.SubmitPost): the hold of
	// new accounts' first posts counts them.
	PostsSubmitted int        `bun:",notnull"`
	LoginCount     int        `bun:",notnull"`
	CreatedAt      time.Time  `bun:",notnull"`
	UpdatedAt      time.Time  `bun:",notnull"`
	LastLoginAt    *time.Time `bun:""`
	// SilencedUntil is when a silence ends (read-only until then), nil
	// when none was ever set; one in the past holds nothing (Silenced).
	SilencedUntil *time.Time `bun:""`
	SilenceReason string     `bun:",notnull"`
	// EmailCanonical is the mailbox Email reaches (emailcanon.Canonical),
	// and SignupIP and SignupNet the address the account signed up from
	// and its range (clientnet.Range), "" for accounts no one signed up
	// for from an address (made by staff, the CLI or a seed, or older than
	// the columns). Related accounts are found by them; derive keeps them
	// in step with Email and SignupIP.
	EmailCanonical string `bun:",notnull"`
	SignupIP       string `bun:",notnull"`
	SignupNet      string `bun:",notnull"`
}

// Silenced reports whether the user is silenced at now: a silence ends
// by time alone, so no job lifts it.
func (u *User) Silenced(now time.Time) bool {
	return u.SilencedUntil != nil && u.SilencedUntil.After(now)
}

// User statuses (internal/states). IsActive is false exactly when the
// status is inactive; a CHECK constraint holds the two together.
const (
	UserActive   = states.UserActive
	UserInactive = states.UserInactive
	UserBanned   = states.UserBanned
)

// Role is one of user, moderator, admin, super_admin; Rank orders them.
type Role struct {
	bun.BaseModel `bun:"table:roles,alias:r"`

	ID          int64  `bun:",pk,autoincrement"`
	Name        string `bun:",notnull"`
	Rank        int    `bun:",notnull"`
	Description string `bun:",notnull"`
}

// Role names, lowest to highest: internal/auth's.
const (
	RoleUser       = access.RoleUser
	RoleModerator  = access.RoleModerator
	RoleAdmin      = access.RoleAdmin
	RoleSuperAdmin = access.RoleSuperAdmin
)

// UserRole grants a role to a user.
type UserRole struct {
	bun.BaseModel `bun:"table:user_roles,alias:ur"`

	UserID    int64     `bun:",pk"`
	RoleID    int64     `bun:",pk"`
	GrantedAt time.Time `bun:",notnull"`
	GrantedBy *int64    `bun:""`
}

// ProviderAccount links a user to an external sign-in provider's account.
type ProviderAccount struct {
	bun.BaseModel `bun:"table:provider_accounts,alias:pa"`

	ID             int64      `bun:",pk,autoincrement"`
	UserID         int64      `bun:",notnull"`
	Provider       string     `bun:",notnull"`
	ProviderUserID string     `bun:",notnull"`
	Email          *string    `bun:""`
	EmailVerified  bool       `bun:",notnull"`
	CreatedAt      time.Time  `bun:",notnull"`
	LastUsedAt     *time.Time `bun:""`
}

// SubscriptionType is a kind of subscription a user can hold.
type SubscriptionType struct {
	bun.BaseModel `bun:"table:subscription_types,alias:st"`

	ID          int64     `bun:",pk,autoincrement"`
	Name        string    `bun:",notnull"`
	Description string    `bun:",notnull"`
	CreatedAt   time.Time `bun:",notnull"`
}

// UserSubscription is a user's subscription, active or not.
type UserSubscription struct {
	bun.BaseModel `bun:"table:user_subscriptions,alias:us"`

	ID                 int64      `bun:",pk,autoincrement"`
	UserID             int64      `bun:",notnull"`
	SubscriptionTypeID int64      `bun:",notnull"`
	Status             string     `bun:",notnull"`
	StartedAt          time.Time  `bun:",notnull"`
	EndsAt             *time.Time `bun:""`
}

// Ban is a timeout: permanent when ExpiresAt is nil, over when EndedAt is set
// or ExpiresAt has passed.
type Ban struct {
	bun.BaseModel `bun:"table:bans,alias:b"`

	ID        int64      `bun:",pk,autoincrement"`
	UserID    int64      `bun:",notnull"`
	Reason    string     `bun:",notnull"`
	Notes     string     `bun:",notnull"`
	CreatedBy *int64     `bun:""`
	CreatedAt time.Time  `bun:",notnull"`
	ExpiresAt *time.Time `bun:""`
	EndedAt   *time.Time `bun:""`
	EndedBy   *int64     `bun:""`
}

// Login is one successful sign-in, for activity reports.
type Login struct {
	bun.BaseModel `bun:"table:logins,alias:l"`

	ID        int64  `bun:",pk,autoincrement"`
	UserID    int64  `bun:",notnull"`
	Method    string `bun:",notnull"`
	IPAddress string `bun:",notnull"`
	// IPNet is IPAddress's range (clientnet.Range), "" for text that is
	// no address.
	IPNet     string    `bun:",notnull"`
	UserAgent string    `bun:",notnull"`
	CreatedAt time.Time `bun:",notnull"`
}

// Post is a user's publication.
//
// ReportCount is denormalised, so lists can sort and filter on it with an
// index: it is the number of post_reports rows of the post, whatever their
// status. Resolving a report leaves it unchanged; only filing (or deleting)
// a report moves it. The open reports of a post are counted from
// post_reports when needed.
type Post struct {
	bun.BaseModel `bun:"table:posts,alias:p"`

	ID          int64  `bun:",pk,autoincrement"`
	AuthorID    int64  `bun:",notnull"`
	Title       string `bun:",notnull"`
	Content     string `bun:",notnull"`
	Status      string `bun:",notnull"`
	ReportCount int    `bun:",notnull"`
	// OpenReports counts the reports not yet resolved or dismissed; triggers
	// on post_reports keep it.
	OpenReports int        `bun:",notnull"`
	CreatedAt   time.Time  `bun:",notnull"`
	UpdatedAt   time.Time  `bun:",notnull"`
	PublishedAt *time.Time `bun:""`
}

// Post statuses (internal/states).
const (
	PostPublished = states.PostPublished
	PostDraft     = states.PostDraft
	PostHidden    = states.PostHidden
	PostFlagged   = states.PostFlagged
	PostPending   = states.PostPending
)

// PostTag tags a post.
type PostTag struct {
	bun.BaseModel `bun:"table:post_tags,alias:pt"`

	PostID int64  `bun:",pk"`
	Tag    string `bun:",pk"`
}

// PostReport is a user's report of a post; a user has at most one open
// report per post.
type PostReport struct {
	bun.BaseModel `bun:"table:post_reports,alias:pr"`

	ID         int64      `bun:",pk,autoincrement"`
	PostID     int64      `bun:",notnull"`
	ReporterID int64      `bun:",notnull"`
	Reason     string     `bun:",notnull"`
	Comment    string     `bun:",notnull"`
	Status     string     `bun:",notnull"`
	CreatedAt  time.Time  `bun:",notnull"`
	ResolvedAt *time.Time `bun:""`
	ResolvedBy *int64     `bun:""`
	ActionID   *int64     `bun:""` // the moderation decision that settled it
}

// Report statuses.
const (
	ReportOpen      = "open"
	ReportResolved  = "resolved"
	ReportDismissed = "dismissed"
)

// ModerationAction records one moderation decision; it outlives its post.
type ModerationAction struct {
	bun.BaseModel `bun:"table:moderation_actions,alias:ma"`

	ID         int64     `bun:",pk,autoincrement"`
	PostID     int64     `bun:",notnull"`
	PostTitle  string    `bun:",notnull"`
	AdminID    *int64    `bun:""`
	Action     string    `bun:",notnull"`
	Reason     string    `bun:",notnull"`
	Notes      string    `bun:",notnull"`
	FromStatus string    `bun:",notnull"`
	ToStatus   string    `bun:",notnull"`
	CreatedAt  time.Time `bun:",notnull"`
	Undoes     *int64    `bun:""` // an undo's undone decision
	// ReportsSettled is how many open reports the decision resolved or
	// dismissed.
	ReportsSettled int `bun:",notnull"`
	// AuthorID is the post's author, kept for their standing once the
	// post is gone.
	AuthorID *int64 `bun:""`
	// PurgeID names the purge whose hide this is (its undo removes it).
	PurgeID *int64 `bun:""`
}

// Upload is a file under UPLOADS_DIR that belongs to a user or post.
type Upload struct {
	bun.BaseModel `bun:"table:uploads,alias:up"`

	ID        int64     `bun:",pk,autoincrement"`
	Kind      string    `bun:",notnull"`
	Path      string    `bun:",notnull"`
	SizeBytes int64     `bun:",notnull"`
	UserID    *int64    `bun:""`
	PostID    *int64    `bun:""`
	CreatedAt time.Time `bun:",notnull"`
}

// Broadcast is a notification to many users, kept once: inboxes read it
// (see Inbox).
type Broadcast struct {
	bun.BaseModel `bun:"table:broadcasts,alias:bc"`

	ID          int64      `bun:",pk,autoincrement"`
	Title       string     `bun:",notnull"`
	Message     string     `bun:",notnull"`
	Type        string     `bun:",notnull"`
	Targets     []string   `bun:",notnull,type:jsonb"`
	Status      string     `bun:",notnull"`
	ScheduledAt *time.Time `bun:""`
	// SentAt is when it goes out, fixed when it is stored: then, or its
	// scheduled time. Inboxes show it from that moment on.
	SentAt time.Time `bun:",notnull"`
	// Recipients is how many accounts its targets named when it went out.
	Recipients int       `bun:",notnull"`
	CreatedBy  *int64    `bun:""`
	CreatedAt  time.Time `bun:",notnull"`
}

// BroadcastTarget is one target of a broadcast ("all", "users",
// "moderators", "admins" or "user:<id>") with the broadcast's time, so an
// inbox finds the broadcasts that name its reader by index.
type BroadcastTarget struct {
	bun.BaseModel `bun:"table:broadcast_targets,alias:bt"`

	BroadcastID int64     `bun:",pk"`
	Target      string    `bun:",pk"`
	SentAt      time.Time `bun:",notnull"`
}

// BroadcastRead marks a broadcast read by one person: the only per-person
// row a broadcast gets.
type BroadcastRead struct {
	bun.BaseModel `bun:"table:broadcast_reads,alias:br"`

	UserID      int64      `bun:",pk"`
	BroadcastID int64      `bun:",pk"`
	ReadAt      time.Time  `bun:",notnull"`
	DismissedAt *time.Time `bun:""` // taken out of the reader's inbox
}

// Notification is one message for one user: moderation news, a job's
// outcome, a broadcast's note to its sender.
type Notification struct {
	bun.BaseModel `bun:"table:notifications,alias:n"`

	ID          int64      `bun:",pk,autoincrement"`
	UserID      int64      `bun:",notnull"`
	Title       string     `bun:",notnull"`
	Message     string     `bun:",notnull"`
	Type        string     `bun:",notnull"`
	CreatedAt   time.Time  `bun:",notnull"`
	ReadAt      *time.Time `bun:""`
	DismissedAt *time.Time `bun:""` // taken out of the inbox
}

// FeatureFlag is a named switch with a percentage rollout.
type FeatureFlag struct {
	bun.BaseModel `bun:"table:feature_flags,alias:ff"`

	Name              string    `bun:",pk"`
	Description       string    `bun:",notnull"`
	Enabled           bool      `bun:",notnull"`
	RolloutPercentage int       `bun:",notnull"`
	CreatedAt         time.Time `bun:",notnull"`
	UpdatedAt         time.Time `bun:",notnull"`
	UpdatedBy         *int64    `bun:""`
}

// AuditEntry is one hash-chained, append-only record of an admin request.
type AuditEntry struct {
	bun.BaseModel `bun:"table:audit_log,alias:al"`

	ID            int64          `bun:",pk,autoincrement"`
	CreatedAt     time.Time      `bun:",notnull"`
	AdminID       *int64         `bun:""`
	AdminUsername string         `bun:",notnull"`
	Action        string         `bun:",notnull"`
	TargetType    string         `bun:",notnull"`
	TargetID      string         `bun:",notnull"`
	IPAddress     string         `bun:",notnull"`
	UserAgent     string         `bun:",notnull"`
	Status        int            `bun:",notnull"`
	Details       map[string]any `bun:",notnull,type:jsonb"`
	PrevHash      string         `bun:",notnull"`
	Hash          string         `bun:",notnull"`
}

// Lock is an admin's lease on a resource while editing it.
type Lock struct {
	bun.BaseModel `bun:"table:locks,alias:lk"`

	ResourceType string    `bun:",pk"`
	ResourceID   string    `bun:",pk"`
	LockedBy     int64     `bun:",notnull"`
	LockedAt     time.Time `bun:",notnull"`
	ExpiresAt    time.Time `bun:",notnull"`
}

// Session is an scs session row.
type Session struct {
	bun.BaseModel `bun:"table:sessions,alias:s"`

	Token  string    `bun:",pk"`
	Data   []byte    `bun:",notnull"`
	Expiry time.Time `bun:",notnull"`
	// What a list of sessions shows; null on sessions not written back
	// since these columns came.
	UserID     *int64
	IP         *string `bun:"ip"`
	UserAgent  *string
	CreatedAt  *time.Time
	LastSeenAt *time.Time
}

// APIToken records an admin JWT by its jti so that it can be listed and revoked.
type APIToken struct {
	bun.BaseModel `bun:"table:api_tokens,alias:at"`

	JTI         string     `bun:"jti,pk"`
	UserID      int64      `bun:",notnull"`
	Name        string     `bun:",notnull"`
	Permissions string     `bun:",notnull"`
	CreatedBy   *int64     `bun:""`
	CreatedAt   time.Time  `bun:",notnull"`
	ExpiresAt   time.Time  `bun:",notnull"`
	RevokedAt   *time.Time `bun:""`
	LastUsedAt  *time.Time `bun:""`
}

// Setting is an instance-wide value, such as a generated secret.
type Setting struct {
	bun.BaseModel `bun:"table:settings,alias:set"`

	Key       string    `bun:",pk"`
	Value     string    `bun:",notnull"`
	CreatedAt time.Time `bun:",notnull"`
}

// AnalyticsEvent is one collected interaction event.
type AnalyticsEvent struct {
	bun.BaseModel `bun:"table:analytics_events,alias:ae"`

	ID         string         `bun:",pk"`
	EventType  string         `bun:",notnull"`
	EventData  map[string]any `bun:",notnull,type:jsonb"`
	UserID     *int64         `bun:""`
	SessionID  string         `bun:",notnull"`
	IPHash     string         `bun:"ip_hash,notnull"`
	UserAgent  string         `bun:",notnull"`
	PagePath   string         `bun:",notnull"`
	OccurredAt time.Time      `bun:",notnull"`
	ReceivedAt time.Time      `bun:",notnull"`
}

// AnalyticsDailyEvents counts one day's events of one type.
type AnalyticsDailyEvents struct {
	bun.BaseModel `bun:"table:analytics_daily_events,alias:ade"`

	Day       time.Time `bun:",pk,type:date"`
	EventType string    `bun:",pk"`
	Events    int64     `bun:",notnull"`
}

// AnalyticsHourlyEvents counts one hour's events, for hourly series.
type AnalyticsHourlyEvents struct {
	bun.BaseModel `bun:"table:analytics_hourly_events,alias:ahe"`

	Hour   time.Time `bun:",pk"`
	Events int64     `bun:",notnull"`
}

// AnalyticsDailyStats holds one day's active users and sessions.
type AnalyticsDailyStats struct {
	bun.BaseModel `bun:"table:analytics_daily_stats,alias:ads"`

	Day                 time.Time `bun:",pk,type:date"`
	ActiveUsers         int       `bun:",notnull"`
	Sessions            int       `bun:",notnull"`
	TotalSessionSeconds int64     `bun:",notnull"`
}

// AnalyticsIPKey is the secret that hashes one day's IP addresses; it is
// deleted with the events of that day.
type AnalyticsIPKey struct {
	bun.BaseModel `bun:"table:analytics_ip_keys,alias:aik"`

	Day       time.Time `bun:",pk,type:date"`
	Secret    string    `bun:",notnull"`
	CreatedAt time.Time `bun:",notnull"`
}

// UserNote is a staff member's note on a user; a warning is one the user
// was warned with.
type UserNote struct {
	bun.BaseModel `bun:"table:user_notes,alias:un"`

	ID        int64     `bun:",pk,autoincrement"`
	UserID    int64     `bun:",notnull"`
	AuthorID  *int64    `bun:""`
	Kind      string    `bun:",notnull"`
	Body      string    `bun:",notnull"`
	CreatedAt time.Time `bun:",notnull"`
}

// All lists every model, for schema checks.
func All() []any {
	return []any{
		(*User)(nil), (*Role)(nil), (*UserRole)(nil), (*ProviderAccount)(nil),
		(*SubscriptionType)(nil), (*UserSubscription)(nil), (*Ban)(nil), (*Login)(nil),
		(*Post)(nil), (*PostTag)(nil), (*PostReport)(nil), (*ModerationAction)(nil), (*Upload)(nil),
		(*Broadcast)(nil), (*BroadcastTarget)(nil), (*BroadcastRead)(nil), (*Notification)(nil), (*MaintenanceJob)(nil), (*FeatureFlag)(nil), (*AuditEntry)(nil),
		(*Lock)(nil), (*Session)(nil), (*APIToken)(nil), (*Setting)(nil),
		(*AnalyticsEvent)(nil), (*AnalyticsDailyEvents)(nil), (*AnalyticsHourlyEvents)(nil), (*AnalyticsDailyStats)(nil), (*AnalyticsIPKey)(nil),
		(*UserNote)(nil), (*AlertPreference)(nil),
	}
}
