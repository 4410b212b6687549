package api

import "testing"

// TestPermissionAndRoleNames pins the wire values: tokens, error bodies,
// users and posts carry these strings, so a rename is a breaking change,
// not a refactor.
func TestPermissionAndRoleNames(t *testing.T) {
	tests := []struct{ got, want string }{
		{PermAdminRead, "admin:read"},
		{PermAdminWrite, "admin:write"},
		{PermAdminDelete, "admin:delete"},
		{PermAdminSuper, "admin:super"},
		{PermUsersManage, "users:manage"},
		{PermPostsModerate, "posts:moderate"},
		{RoleUser, "user"},
		{RoleModerator, "moderator"},
		{RoleAdmin, "admin"},
		{RoleSuperAdmin, "super_admin"},
		{UserActive, "active"},
		{UserInactive, "inactive"},
		{UserBanned, "banned"},
		{PostPublished, "published"},
		{PostDraft, "draft"},
		{PostHidden, "hidden"},
		{PostFlagged, "flagged"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}
