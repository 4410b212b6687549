package api

import "github.com/plazahq/plaza/internal/auth"

// Permissions as they travel on the wire: in a token's permission list and
// in an error's requiredPermission. They are internal/auth's names, given
// here so that the views, which import only this package, name them
// instead of spelling them out.
const (
	PermAdminRead     = auth.PermAdminRead
	PermAdminWrite    = auth.PermAdminWrite
	PermAdminDelete   = auth.PermAdminDelete
	PermAdminSuper    = auth.PermAdminSuper
	PermUsersManage   = auth.PermUsersManage
	PermPostsModerate = auth.PermPostsModerate
	// The account scopes: what a token does as its own user on the
	// general API (docs/api.md, "Token scopes").
	ScopeAccountRead  = auth.ScopeAccountRead
	ScopeAccountWrite = auth.ScopeAccountWrite
)

// Roles, lowest to highest, as they travel on the wire (a user's role, a
// role filter or choice), re-exported from internal/auth like the
// permissions.
const (
	RoleUser       = auth.RoleUser
	RoleModerator  = auth.RoleModerator
	RoleAdmin      = auth.RoleAdmin
	RoleSuperAdmin = auth.RoleSuperAdmin
)
