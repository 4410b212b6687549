package api

import (
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/states"
)

// Permissions as they travel on the wire: in a token's permission list and
// in an error's requiredPermission: internal/auth's names, given here for
// the clients of the wire contract and its tests. Pages never name them:
// they read the policy's answers (views.Abilities).
const (
	PermAdminRead     = access.PermAdminRead
	PermAdminWrite    = access.PermAdminWrite
	PermAdminDelete   = access.PermAdminDelete
	PermAdminSuper    = access.PermAdminSuper
	PermUsersManage   = access.PermUsersManage
	PermPostsModerate = access.PermPostsModerate
	// The account scopes: what a token does as its own user on the
	// general API (docs/api.md, "Token scopes").
	ScopeAccountRead  = access.ScopeAccountRead
	ScopeAccountWrite = access.ScopeAccountWrite
)

// Roles, lowest to highest, as they travel on the wire (a user's role, a
// role filter or choice), re-exported from internal/auth like the
// permissions.
const (
	RoleUser       = access.RoleUser
	RoleModerator  = access.RoleModerator
	RoleAdmin      = access.RoleAdmin
	RoleSuperAdmin = access.RoleSuperAdmin
)

// User and post statuses as they travel on the wire (a user's or a post's
// status, a status filter or change): internal/states' names.
const (
	UserActive    = states.UserActive
	UserInactive  = states.UserInactive
	UserBanned    = states.UserBanned
	PostPublished = states.PostPublished
	PostDraft     = states.PostDraft
	PostHidden    = states.PostHidden
	PostFlagged   = states.PostFlagged
	PostPending   = states.PostPending
)
