package access

import (
	"context"
	"slices"
	"time"
)

// How a principal authenticated.
const (
	ViaSession = "session"
	ViaToken   = "token"
	// ViaOperator is the CLI: whoever runs the binary against the database
	// already holds everything, so no second factor or confirmation applies.
	ViaOperator = "operator"
)

// Rate-limit tiers of the versioned admin family: super for callers
// holding admin:super, else general.
const (
	TierGeneral = "general"
	TierSuper   = "super"
)

// Principal is the caller of a request: a user, how it authenticated, and
// what it may do now. A nil *Principal is an anonymous caller.
type Principal struct {
	UserID      int64
	Username    string
	Email       string
	Name        string
	Image       string
	Roles       []string
	Permissions Permissions
	Via         string
	TokenID     string // jti, for token callers
	// TwoFactor is whether the user has enrolled in TOTP sign-in (session
	// callers only).
	TwoFactor bool
	// ConfirmedAt is when the session last confirmed its password or code
	// (signing in counts), for actions that need a fresh confirmation.
	ConfirmedAt time.Time
	// Gate is the permission the versioned admin family's gate granted
	// this request (admin:read, admin:write, admin:delete or admin:super,
	// with the admin role): the staff power the policy takes for what the
	// unversioned family calls users:manage or posts:moderate. Empty at
	// every other door.
	Gate string
}

// Staff reports whether the principal holds a staff role: moderator and up.
func (p *Principal) Staff() bool {
	return p.Can(PermPostsModerate)
}

// Can reports whether the principal holds perm; nil holds nothing.
func (p *Principal) Can(perm string) bool {
	return p != nil && p.Permissions.Has(perm)
}

// Acts reports whether the principal may act as its own user within the
// account scope: a session or the operator always, a bearer token only
// when it carries the scope.
func (p *Principal) Acts(scope string) bool {
	if p == nil || !IsAccountScope(scope) {
		return false
	}
	return p.Via != ViaToken || slices.Contains(p.Permissions, scope)
}

// Holds reports whether the principal may hand perm on to a token it
// mints: an admin permission it holds, or an account scope it acts with.
func (p *Principal) Holds(perm string) bool { return p.Can(perm) || p.Acts(perm) }

// Tier is the principal's rate-limit tier: super for admin:super holders.
func (p *Principal) Tier() string {
	if p.Can(PermAdminSuper) {
		return TierSuper
	}
	return TierGeneral
}

// Role is the principal's highest role.
func (p *Principal) Role() string {
	if p == nil {
		return ""
	}
	return HighestRole(p.Roles)
}

// HasAdminRole reports whether the principal holds the admin role (a
// super admin holds it too).
func (p *Principal) HasAdminRole() bool {
	return p != nil && (slices.Contains(p.Roles, RoleAdmin) || slices.Contains(p.Roles, RoleSuperAdmin))
}

// Through is a copy of the principal that came through the versioned
// family's gate, which granted perm.
func (p *Principal) Through(perm string) *Principal {
	gated := *p
	gated.Gate = perm
	return &gated
}

type principalKey struct{}

// WithPrincipal stores the request's principal in its context.
func WithPrincipal(ctx context.Context, p *Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFrom returns the request's principal, nil for anonymous callers.
func PrincipalFrom(ctx context.Context) *Principal {
	p, _ := ctx.Value(principalKey{}).(*Principal)
	return p
}
