package web

import (
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/internal/ratelimit"
)

// Scope names a rate-limit bucket (interface.md part 8, DECISIONS.md 6, 7, 9).
type Scope string

// Rate-limit scopes.
const (
	ScopeExempt      Scope = "exempt"       // /api/version, /api/health, console pages, static files
	ScopeAdminV1     Scope = "admin_v1"     // /api/v1/admin: general or super tier per hour
	ScopeAdminSystem Scope = "admin_system" // POST /api/v1/admin/system/maintenance per hour
	ScopeAdminUsers  Scope = "admin_users"  // GET /api/admin/users per hour
	ScopeAPIAdmin    Scope = "api_admin"    // other /api/admin/* per hour
	ScopeGeneral     Scope = "general"      // the rest of /api: per user or per IP per hour
	ScopeLinkPreview Scope = "link_preview" // per IP per minute
	ScopeOGImage     Scope = "og_image"     // per IP per minute
	ScopeAvatar      Scope = "avatar"       // per IP per minute
)

// perIP reports whether the scope counts per client IP even for signed-in
// callers (the public utilities).
func (s Scope) perIP() bool {
	return s == ScopeLinkPreview || s == ScopeOGImage || s == ScopeAvatar
}

// rateOf gives the bucket name and rate of a scope for a caller.
func (p *pipeline) rateOf(s Scope, pr *auth.Principal) (string, ratelimit.Rate) {
	l := p.cfg.RateLimit
	switch s {
	case ScopeAdminV1:
		if pr.Tier() == auth.TierSuper {
			return "admin_v1_super", ratelimit.PerHour(l.AdminSuper)
		}
		return "admin_v1_general", ratelimit.PerHour(l.AdminGeneral)
	case ScopeAdminSystem:
		return string(s), ratelimit.PerHour(l.AdminSystem)
	case ScopeAdminUsers:
		return string(s), ratelimit.PerHour(l.AdminUsers)
	case ScopeAPIAdmin:
		return string(s), ratelimit.PerHour(l.APIAdmin)
	case ScopeLinkPreview:
		return string(s), ratelimit.PerMinute(l.LinkPreview)
	case ScopeOGImage:
		return string(s), ratelimit.PerMinute(l.OGImage)
	case ScopeAvatar:
		return string(s), ratelimit.PerMinute(l.Avatar)
	}
	if pr != nil {
		return "general_user", ratelimit.PerHour(l.APIAuthed)
	}
	return "general_anon", ratelimit.PerHour(l.APIAnonymous)
}
