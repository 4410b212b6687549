package api

// AuditEntry is an audit log entry (docs/api.md, "Audit log").
type AuditEntry struct {
	ID            string         `json:"id"`
	Timestamp     string         `json:"timestamp" format:"date-time"`
	AdminID       *string        `json:"adminId"`
	AdminUsername string         `json:"adminUsername"`
	Action        string         `json:"action"`
	TargetType    string         `json:"targetType"`
	TargetID      string         `json:"targetId"`
	IPAddress     string         `json:"ipAddress"`
	UserAgent     string         `json:"userAgent"`
	Status        int            `json:"status" description:"The HTTP status the request was answered with."`
	Details       map[string]any `json:"details" description:"What the request changed: before and after, or its input."`
	PrevHash      string         `json:"prevHash"`
	Hash          string         `json:"hash"`
}

// AuditCSVHeader is the header row of the audit log's CSV export; details
// is the entry's details object as JSON.
var AuditCSVHeader = []string{"id", "timestamp", "adminId", "adminUsername", "action", "targetType", "targetId",
	"ipAddress", "userAgent", "status", "details", "prevHash", "hash"}

// AuditExportQuery documents the query of GET /api/v1/admin/audit-logs/export.
type AuditExportQuery struct {
	Format     string `query:"format" enum:"jsonl,csv" default:"jsonl" description:"jsonl: one entry as the list shows it a line; csv: one a row, details as JSON."`
	AdminID    string `query:"adminId" description:"Only entries of this admin (a user id)."`
	Action     string `query:"action" description:"Only entries of this action, e.g. user.ban."`
	TargetType string `query:"targetType" description:"Only entries about this kind of resource, e.g. user (Plaza's addition)."`
	TargetID   string `query:"targetId" description:"Only entries about the resource with this id; with targetType, that one resource (Plaza's addition)."`
	Kind       string `query:"kind" enum:"all,changes,reads" description:"changes, reads or all (the default for API clients), as the list takes it (Plaza's addition)."`
	StartDate  string `query:"startDate" description:"An ISO date (midnight UTC) or RFC 3339 time."`
	EndDate    string `query:"endDate" description:"An ISO date (its whole day) or RFC 3339 time."`
	Limit      int    `query:"limit" minimum:"1" maximum:"100" description:"Without limit and offset, every entry."`
	Offset     int    `query:"offset" minimum:"0"`
}

// AuditVerification is the body of GET /api/v1/admin/audit-logs/verify.
type AuditVerification struct {
	Valid         bool    `json:"valid"`
	Checked       int     `json:"checked"`
	FirstBrokenID *string `json:"firstBrokenId"`
}

// LockRequest is the body of POST /api/v1/admin/locks.
type LockRequest struct {
	Type string `json:"type" required:"true" enum:"user,post,feature_flag"`
	ID   string `json:"id" required:"true" minLength:"1" maxLength:"128"`
}

// Lock is an admin's lease on a resource.
type Lock struct {
	Type      string `json:"type" enum:"user,post,feature_flag"`
	ID        string `json:"id"`
	LockedBy  string `json:"lockedBy" description:"The holder's username."`
	LockedAt  string `json:"lockedAt" format:"date-time"`
	ExpiresAt string `json:"expiresAt" format:"date-time"`
}

// TokenRequest is the body of POST /api/v1/admin/tokens.
type TokenRequest struct {
	Permissions []string `json:"permissions" required:"true" minItems:"1" description:"What the token may do: admin permissions (admin:read, admin:write, admin:delete, admin:super, users:manage, posts:moderate), never more than its maker holds, and the account scopes account:read (one's own private data) and account:write (acting as oneself on the general API). A token does only what these name."`
	TTL         string   `json:"ttl" description:"Its lifetime, 1m to 365d: a Go duration (24h) or <n>m|h|d|w (30d). Default 24h."`
	Name        string   `json:"name" description:"A label to recognise it by."`
}

// NewToken is the answer to a minted token: the JWT is shown this once.
type NewToken struct {
	ID        string `json:"id"`
	Token     string `json:"token" description:"The JWT, shown this once."`
	ExpiresAt string `json:"expiresAt" format:"date-time"`
}

// Token is a minted token as listed (never the JWT itself).
type Token struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	UserID      string   `json:"userId"`
	Permissions []string `json:"permissions"`
	CreatedAt   string   `json:"createdAt" format:"date-time"`
	ExpiresAt   string   `json:"expiresAt" format:"date-time"`
	RevokedAt   *string  `json:"revokedAt" format:"date-time"`
	LastUsedAt  *string  `json:"lastUsedAt" format:"date-time"`
}

// RevokedToken answers DELETE /api/v1/admin/tokens/{jti}.
type RevokedToken struct {
	Revoked bool   `json:"revoked"`
	ID      string `json:"id"`
}

// ReleasedLock answers DELETE /api/v1/admin/locks/{type}/{id}.
type ReleasedLock struct {
	Released bool   `json:"released"`
	Type     string `json:"type"`
	ID       string `json:"id"`
}
