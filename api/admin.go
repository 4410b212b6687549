package api

// AuditEntry is an audit log entry (DECISIONS.md section 4).
type AuditEntry struct {
	ID            string         `json:"id"`
	Timestamp     string         `json:"timestamp"`
	AdminID       *string        `json:"adminId"`
	AdminUsername string         `json:"adminUsername"`
	Action        string         `json:"action"`
	TargetType    string         `json:"targetType"`
	TargetID      string         `json:"targetId"`
	IPAddress     string         `json:"ipAddress"`
	UserAgent     string         `json:"userAgent"`
	Status        int            `json:"status"`
	Details       map[string]any `json:"details"`
	PrevHash      string         `json:"prevHash"`
	Hash          string         `json:"hash"`
}

// AuditVerification is the body of GET /api/v1/admin/audit-logs/verify.
type AuditVerification struct {
	Valid         bool    `json:"valid"`
	Checked       int     `json:"checked"`
	FirstBrokenID *string `json:"firstBrokenId"`
}

// LockRequest is the body of POST /api/v1/admin/locks.
type LockRequest struct {
	Type string `json:"type"`
	ID   string `json:"id"`
}

// Lock is an admin's lease on a resource.
type Lock struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	LockedBy  string `json:"lockedBy"`
	LockedAt  string `json:"lockedAt"`
	ExpiresAt string `json:"expiresAt"`
}

// TokenRequest is the body of POST /api/v1/admin/tokens.
type TokenRequest struct {
	Permissions []string `json:"permissions"`
	TTL         string   `json:"ttl"`
	Name        string   `json:"name"`
}

// NewToken is the answer to a minted token: the JWT is shown this once.
type NewToken struct {
	ID        string `json:"id"`
	Token     string `json:"token"`
	ExpiresAt string `json:"expiresAt"`
}

// Token is a minted token as listed (never the JWT itself).
type Token struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	UserID      string   `json:"userId"`
	Permissions []string `json:"permissions"`
	CreatedAt   string   `json:"createdAt"`
	ExpiresAt   string   `json:"expiresAt"`
	RevokedAt   *string  `json:"revokedAt"`
	LastUsedAt  *string  `json:"lastUsedAt"`
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
