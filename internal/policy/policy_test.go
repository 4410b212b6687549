package policy

import (
	"errors"
	"testing"
	"time"

	"github.com/plazahq/plaza/internal/auth"
)

var now = time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)

func session(id int64, role string, twoFactor bool, confirmed time.Time) *auth.Principal {
	roles := auth.ImpliedRoles(role)
	return &auth.Principal{UserID: id, Roles: roles, Permissions: auth.RolePermissions(roles), Via: auth.ViaSession,
		TwoFactor: twoFactor, ConfirmedAt: confirmed}
}

func token(id int64, role string, scope ...string) *auth.Principal {
	roles := auth.ImpliedRoles(role)
	return &auth.Principal{UserID: id, Roles: roles, Via: auth.ViaToken,
		Permissions: auth.TokenGrant(auth.Permissions(scope), roles)}
}

func TestCheck(t *testing.T) {
	fresh, stale := now.Add(-time.Minute), now.Add(-ConfirmWindow-time.Second)
	plain, super := Person(10, []string{auth.RoleUser}), Person(11, []string{auth.RoleAdmin, auth.RoleSuperAdmin})
	moderator, admin := Person(12, []string{auth.RoleModerator}), Person(13, []string{auth.RoleAdmin})
	tests := []struct {
		name   string
		strict bool
		who    *auth.Principal
		action Action
		target Target
		want   error
	}{
		{"anonymous registers", false, nil, Register, Platform, nil},
		{"anonymous bans", false, nil, BanUser, plain, ErrSignInRequired},
		{"user bans", false, session(1, auth.RoleUser, false, fresh), BanUser, plain, &ForbiddenError{}},
		{"admin bans a user", false, session(2, auth.RoleAdmin, false, stale), BanUser, plain, nil},
		{"admin bans a super admin", false, session(2, auth.RoleAdmin, false, fresh), BanUser, super, ErrOutranked},
		{"admin bans a peer admin", false, session(2, auth.RoleAdmin, false, fresh), BanUser, admin, ErrOutranked},
		{"admin bans a moderator", false, session(2, auth.RoleAdmin, false, fresh), BanUser, moderator, nil},
		{"admin:write token through the v1 gate bans a peer admin", false, token(2, auth.RoleAdmin, auth.PermAdminWrite).Through(auth.PermAdminWrite), BanUser, admin, ErrOutranked},
		{"admin:write token through the v1 gate bans a user", false, token(2, auth.RoleAdmin, auth.PermAdminRead, auth.PermAdminWrite).Through(auth.PermAdminWrite), BanUser, plain, nil},
		{"admin:write token without the v1 gate bans a user", false, token(2, auth.RoleAdmin, auth.PermAdminWrite), BanUser, plain, &ForbiddenError{Need: auth.PermUsersManage}},
		{"admin:read token through the v1 gate deletes a post", false, token(2, auth.RoleAdmin, auth.PermAdminRead).Through(auth.PermAdminRead), DeletePost, Owned(10), &ForbiddenError{Need: auth.PermAdminDelete}},
		{"moderator moderates a peer moderator's post", false, session(4, auth.RoleModerator, true, fresh), ModeratePost, moderator, ErrOutranked},
		{"moderator moderates a member's post", false, session(4, auth.RoleModerator, true, fresh), ModeratePost, plain, nil},
		{"admin notes a peer admin", false, session(2, auth.RoleAdmin, false, fresh), AddUserNote, admin, ErrOutranked},
		{"admin locks a peer admin's record", false, session(2, auth.RoleAdmin, false, fresh), TakeLock, admin, ErrOutranked},
		{"admin changes a peer admin's webhook", false, session(2, auth.RoleAdmin, false, fresh), UpdateWebhook, admin, ErrOutranked},
		{"admin blocks a peer admin's address", false, session(2, auth.RoleAdmin, false, fresh), CreateBlock, admin, ErrOutranked},
		{"super admin bans an admin", false, session(3, auth.RoleSuperAdmin, false, fresh), BanUser, admin, nil},
		{"admin bans themself", false, session(10, auth.RoleAdmin, false, fresh), BanUser, plain, ErrSelf},
		{"super admin bans a super admin", false, session(3, auth.RoleSuperAdmin, false, fresh), BanUser, super, nil},
		{"scoped super token bans a super admin", false, token(3, auth.RoleSuperAdmin, auth.PermUsersManage), BanUser, super, ErrOutranked},
		{"moderator without 2FA bans, strict", true, session(4, auth.RoleModerator, false, fresh), BanUser, plain, &ForbiddenError{}},
		{"admin without 2FA bans, strict", true, session(2, auth.RoleAdmin, false, fresh), BanUser, plain, ErrNeedsSecondFactor},
		{"admin with 2FA bans, strict", true, session(2, auth.RoleAdmin, true, stale), BanUser, plain, nil},
		{"token of an admin without 2FA, strict", true, token(2, auth.RoleAdmin, auth.PermUsersManage), BanUser, plain, nil},
		{"author deletes own post", true, session(10, auth.RoleModerator, false, stale), DeletePost, Owned(10), nil},
		{"moderator deletes another's post", false, session(4, auth.RoleModerator, true, fresh), DeletePost, Owned(10), &ForbiddenError{}},
		{"admin deletes another's post", false, session(2, auth.RoleAdmin, false, stale), DeletePost, Owned(10), nil},
		{"admin edits another's post", false, session(2, auth.RoleAdmin, true, fresh), EditPost, Owned(10), ErrNotOwner},
		{"deleting another account, stale", false, session(2, auth.RoleAdmin, false, stale), DeleteAccount, plain, ErrNeedsConfirmation},
		{"deleting one's own account, stale", false, session(10, auth.RoleUser, false, stale), DeleteAccount, plain, nil},
		{"linking a provider to one's own account, fresh", false, session(10, auth.RoleUser, false, fresh), LinkProvider, Owned(10), nil},
		{"linking a provider to one's own account, stale", false, session(10, auth.RoleUser, false, stale), LinkProvider, Owned(10), ErrNeedsConfirmation},
		{"linking a provider to someone else's account", false, session(3, auth.RoleSuperAdmin, false, fresh), LinkProvider, Owned(10), ErrNotOwner},
		{"a token links a provider", false, token(10, auth.RoleUser, auth.PermAdminRead), LinkProvider, Owned(10), ErrSessionOnly},
		{"unlinking one's own provider, stale", false, session(10, auth.RoleUser, false, stale), UnlinkProvider, Owned(10), nil},
		{"role change, stale", false, session(2, auth.RoleAdmin, false, stale), ChangeRole, plain, ErrNeedsConfirmation},
		{"token mints a token", false, token(3, auth.RoleSuperAdmin, auth.PermAdminSuper), MintToken, Platform, ErrSessionOnly},
		{"session mints a token, fresh", false, session(3, auth.RoleSuperAdmin, false, fresh), MintToken, Platform, nil},
		{"backup download, stale", false, session(3, auth.RoleSuperAdmin, false, stale), DownloadBackup, Platform, ErrNeedsConfirmation},
		{"moderator moderates their own post", false, session(10, auth.RoleModerator, true, fresh), ModeratePost, Owned(10), ErrOwn},
		{"admin locks their own record", false, session(10, auth.RoleAdmin, false, fresh), TakeLock, plain, ErrOwn},
		{"admin locks a super admin's record", false, session(2, auth.RoleAdmin, false, fresh), TakeLock, super, ErrOutranked},
		{"admin locks a feature flag", false, session(2, auth.RoleAdmin, false, fresh), TakeFlagLock, Platform, &ForbiddenError{}},
		{"moderator reverses a peer's decision", false, session(4, auth.RoleModerator, false, fresh), ReverseModeration, moderator, ErrNeedsHigherRole},
		{"moderator reverses their own decision", false, session(12, auth.RoleModerator, false, fresh), ReverseModeration, moderator, nil},
		{"admin reverses a moderator's decision", false, session(2, auth.RoleAdmin, false, fresh), ReverseModeration, moderator, nil},
		{"admin reverses a super admin's decision", false, session(2, auth.RoleAdmin, false, fresh), ReverseModeration, super, ErrNeedsHigherRole},
		{"scoped super token reverses a super admin's decision", false, token(3, auth.RoleSuperAdmin, auth.PermPostsModerate), ReverseModeration, super, ErrNeedsHigherRole},
		{"super admin reverses a super admin's decision", false, session(3, auth.RoleSuperAdmin, false, fresh), ReverseModeration, super, nil},
		{"admin breaks a peer's lock", false, session(2, auth.RoleAdmin, false, fresh), ReleaseLock, admin, ErrNeedsHigherRole},
		{"super admin breaks an admin's lock", false, session(3, auth.RoleSuperAdmin, false, fresh), ReleaseLock, admin, nil},
		{"holder lets go of its own lock", false, token(13, auth.RoleAdmin, auth.PermAdminDelete), ReleaseLock, admin, nil},
		{"read-only token of the holder lets go", false, token(13, auth.RoleAdmin, auth.PermAdminRead), ReleaseLock, admin, &ForbiddenError{}},
		{"admin without 2FA sees private profiles, strict", true, session(2, auth.RoleAdmin, false, fresh), SeePrivateProfiles, Platform, ErrNeedsSecondFactor},
		{"moderator without 2FA sees unpublished posts, strict", true, session(4, auth.RoleModerator, false, fresh), SeeUnpublishedPosts, Platform, ErrNeedsSecondFactor},
		{"moderator with 2FA sees unpublished posts, strict", true, session(4, auth.RoleModerator, true, stale), SeeUnpublishedPosts, Platform, nil},
		{"user sees private profiles", false, session(1, auth.RoleUser, false, fresh), SeePrivateProfiles, Platform, &ForbiddenError{}},
		{"users:manage token sees private profiles, strict", true, token(2, auth.RoleAdmin, auth.PermUsersManage), SeePrivateProfiles, Platform, nil},
		{"session reads its own account", false, session(10, auth.RoleUser, false, stale), SeeOwnAccount, Owned(10), nil},
		{"admin reads another's account", false, session(2, auth.RoleAdmin, true, fresh), SeeOwnAccount, Owned(10), ErrNotOwner},
		{"admin:read token reads its own account", false, token(2, auth.RoleAdmin, auth.PermAdminRead), SeeOwnAccount, Owned(2), &ForbiddenError{Need: auth.ScopeAccountRead}},
		{"account:read token reads its own account", false, token(10, auth.RoleUser, auth.ScopeAccountRead), SeeOwnAccount, Owned(10), nil},
		{"admin:read token writes a post", false, token(2, auth.RoleAdmin, auth.PermAdminRead), CreatePost, Owned(2), &ForbiddenError{}},
		{"account:read token writes a post", false, token(10, auth.RoleUser, auth.ScopeAccountRead), CreatePost, Owned(10), &ForbiddenError{}},
		{"account:write token writes a post", false, token(10, auth.RoleUser, auth.ScopeAccountWrite), CreatePost, Owned(10), nil},
		{"admin:read token edits its own post", false, token(2, auth.RoleAdmin, auth.PermAdminRead), EditPost, Owned(2), &ForbiddenError{}},
		{"admin:read token deletes its own post", false, token(2, auth.RoleAdmin, auth.PermAdminRead), DeletePost, Owned(2), &ForbiddenError{}},
		{"admin:delete token deletes its own post as staff", false, token(2, auth.RoleAdmin, auth.PermAdminDelete), DeletePost, Owned(2), nil},
		{"admin:super token rewrites its own profile", false, token(3, auth.RoleSuperAdmin, auth.PermAdminSuper), EditProfile, Person(3, []string{auth.RoleSuperAdmin}), nil},
		{"admin:write token rewrites its own profile", false, token(2, auth.RoleAdmin, auth.PermAdminWrite), EditProfile, Person(2, []string{auth.RoleAdmin}), &ForbiddenError{Need: auth.ScopeAccountWrite}},
		{"account:write token on another's post", false, token(10, auth.RoleUser, auth.ScopeAccountWrite), EditPost, Owned(11), ErrNotOwner},
		{"admin changes a feature flag", false, session(2, auth.RoleAdmin, true, fresh), UpdateFeatureFlag, Platform, &ForbiddenError{Need: auth.PermAdminSuper}},
		{"admin queues maintenance", false, session(2, auth.RoleAdmin, true, fresh), QueueMaintenance, Platform, &ForbiddenError{Need: auth.PermAdminSuper}},
		{"admin sends a broadcast", false, session(2, auth.RoleAdmin, false, stale), SendBroadcast, Platform, nil},
		{"admin rotates a super admin's webhook secret", false, session(2, auth.RoleAdmin, true, fresh), RotateWebhookSecret, super, ErrOutranked},
		{"admin:write token deletes a webhook", false, token(2, auth.RoleAdmin, auth.PermAdminWrite), DeleteWebhook, plain, &ForbiddenError{Need: auth.PermAdminDelete}},
		{"operator restores", true, &auth.Principal{Via: auth.ViaOperator, Permissions: auth.RolePermissions([]string{auth.RoleSuperAdmin})}, Restore, Platform, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := Policy{RequireStaff2FA: tt.strict, Now: func() time.Time { return now }}
			got := p.Check(tt.who, tt.action, tt.target)
			var fe *ForbiddenError
			if want, ok := tt.want.(*ForbiddenError); ok {
				if !errors.As(got, &fe) || want.Need != "" && fe.Need != want.Need {
					t.Fatalf("got %v, want a missing permission %s", got, want.Need)
				}
				return
			}
			if !errors.Is(got, tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// Every action has a rule, and every rule that uses staff power, to read
// as much as to write, asks for the staff second factor; a token acting as
// the owner always needs an account scope.
func TestTableIsWhole(t *testing.T) {
	for a, r := range Table {
		if r.Permission != "" && !r.SecondFactor {
			t.Errorf("%s uses %s without asking for the staff second factor", a, r.Permission)
		}
		if r.Owner && !r.SessionOnly && !auth.IsAccountScope(r.Scope) {
			t.Errorf("%s lets a token act as the owner without an account scope", a)
		}
		if r.Anonymous && (r.Permission != "" || r.Confirm != ConfirmNever) {
			t.Errorf("%s is open to anonymous callers yet asks for more", a)
		}
	}
	p := Policy{Now: func() time.Time { return now }}
	var unknown *UnknownActionError
	if err := p.Check(nil, Action("no.such"), Platform); !errors.As(err, &unknown) {
		t.Fatalf("unknown action: %v", err)
	}
}

// MayOnceConfirmed offers what a confirmation would allow, and nothing
// the confirmation would not: a page shows Delete to an admin whose
// confirmation went stale, not to a moderator nor on a super admin.
func TestMayOnceConfirmed(t *testing.T) {
	p := Policy{Now: func() time.Time { return now }}
	stale := now.Add(-ConfirmWindow - time.Second)
	plain, super := Person(10, []string{auth.RoleUser}), Person(11, []string{auth.RoleAdmin, auth.RoleSuperAdmin})
	admin := session(2, auth.RoleAdmin, false, stale)
	if p.May(admin, DeleteAccount, plain) || !p.MayOnceConfirmed(admin, DeleteAccount, plain) {
		t.Error("a stale admin session is not offered the deletion it may take once confirmed")
	}
	if p.MayOnceConfirmed(admin, DeleteAccount, super) {
		t.Error("an admin is offered to delete a super admin")
	}
	if p.MayOnceConfirmed(session(4, auth.RoleModerator, false, stale), DeleteAccount, plain) {
		t.Error("a moderator is offered to delete an account")
	}
}
