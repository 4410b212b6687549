package access

import "slices"

// Roles, lowest to highest.
const (
	RoleUser       = "user"
	RoleModerator  = "moderator"
	RoleAdmin      = "admin"
	RoleSuperAdmin = "super_admin"
)

// Permissions; RolePermissions says which role grants which.
const (
	PermAdminRead     = "admin:read"
	PermAdminWrite    = "admin:write"
	PermAdminDelete   = "admin:delete"
	PermAdminSuper    = "admin:super"
	PermUsersManage   = "users:manage"
	PermPostsModerate = "posts:moderate"
)

// Account scopes bound what a bearer token does as its own user on the
// general API. A session (and the operator) acts as its user without
// them; a token only within those it was minted with. Every active user
// holds both, whatever its roles, and admin:super implies neither: an
// admin token reads and writes admin data, never its maker's own account.
const (
	// ScopeAccountRead reads the user's own private data: its profile's
	// email and sign-in activity, its drafts and taken-down posts, its
	// notifications and its sessions with their addresses.
	ScopeAccountRead = "account:read"
	// ScopeAccountWrite acts as the user: writing, editing and deleting
	// its posts, filing reports, changing or deleting its profile, and
	// marking or dismissing its notifications.
	ScopeAccountWrite = "account:write"
)

// AllPermissions lists every permission Plaza knows, the account scopes
// last.
func AllPermissions() []string {
	return []string{PermAdminRead, PermAdminWrite, PermAdminDelete, PermAdminSuper, PermUsersManage, PermPostsModerate,
		ScopeAccountRead, ScopeAccountWrite}
}

// IsAccountScope reports whether name is one of the account scopes.
func IsAccountScope(name string) bool { return name == ScopeAccountRead || name == ScopeAccountWrite }

// Roles are the role names, lowest to highest.
var Roles = []string{RoleUser, RoleModerator, RoleAdmin, RoleSuperAdmin}

// roleRank orders the roles; unknown roles rank below user.
func roleRank(role string) int { return slices.Index(Roles, role) }

// RoleRank is role's place in the order user < moderator < admin <
// super_admin (0 to 3); an unknown role ranks below user.
func RoleRank(role string) int { return roleRank(role) }

// ImpliedRoles lists the roles a user is given when made role: a super
// admin also holds admin, so that "holds the admin role" is true of it.
func ImpliedRoles(role string) []string {
	if role == RoleSuperAdmin {
		return []string{RoleAdmin, RoleSuperAdmin}
	}
	return []string{role}
}

// HighestRole is the highest of roles ("user" when none is known).
func HighestRole(roles []string) string {
	best := RoleUser
	for _, r := range roles {
		if roleRank(r) > roleRank(best) {
			best = r
		}
	}
	return best
}

// IsValidRole reports whether role is one of the four roles.
func IsValidRole(role string) bool { return roleRank(role) >= 0 }

// RolePermissions is what the roles grant together.
func RolePermissions(roles []string) Permissions {
	var p Permissions
	for _, r := range roles {
		switch r {
		case RoleModerator:
			p = p.add(PermPostsModerate)
		case RoleAdmin:
			p = p.add(PermAdminRead, PermAdminWrite, PermAdminDelete, PermUsersManage, PermPostsModerate)
		case RoleSuperAdmin:
			p = p.add(PermAdminRead, PermAdminWrite, PermAdminDelete, PermUsersManage, PermPostsModerate, PermAdminSuper)
		}
	}
	return p
}

// Permissions is a small sorted set of permission names.
type Permissions []string

func (p Permissions) add(names ...string) Permissions {
	for _, n := range names {
		if !slices.Contains(p, n) {
			p = append(p, n)
		}
	}
	slices.Sort(p)
	return p
}

// Has reports whether p grants perm. admin:super satisfies every admin
// permission.
func (p Permissions) Has(perm string) bool {
	if slices.Contains(p, perm) {
		return true
	}
	return slices.Contains(p, PermAdminSuper) && isAdminPermission(perm)
}

func isAdminPermission(perm string) bool {
	switch perm {
	case PermAdminRead, PermAdminWrite, PermAdminDelete, PermAdminSuper, PermUsersManage, PermPostsModerate:
		return true
	}
	return false
}

// Intersect keeps the permissions of p that grant allows now, so a token
// never outranks its user's current roles.
func (p Permissions) Intersect(grant Permissions) Permissions {
	var out Permissions
	for _, perm := range p {
		if grant.Has(perm) {
			out = out.add(perm)
		}
	}
	return out
}

// TokenGrant is what a token's permissions allow now: its admin
// permissions within what the user's roles grant today, and its account
// scopes, which every active user holds.
func TokenGrant(token Permissions, roles []string) Permissions {
	grant := RolePermissions(roles).add(ScopeAccountRead, ScopeAccountWrite)
	return token.Intersect(grant)
}

// ParsePermissions reads a comma-separated list, refusing unknown names.
func ParsePermissions(list []string) (Permissions, error) {
	var p Permissions
	for _, n := range list {
		if !isAdminPermission(n) && !IsAccountScope(n) {
			return nil, &UnknownPermissionError{Name: n}
		}
		p = p.add(n)
	}
	return p, nil
}

// UnknownPermissionError names a permission Plaza does not know.
type UnknownPermissionError struct{ Name string }

func (e *UnknownPermissionError) Error() string { return "unknown permission " + e.Name }
