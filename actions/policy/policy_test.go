package policy

import (
	"errors"
	"testing"
	"time"

	"github.com/plazahq/plaza/internal/access"
)

var now = time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)

func session(id int64, role string, twoFactor bool, confirmed time.Time) *access.Principal {
	roles := access.ImpliedRoles(role)
	return &access.Principal{UserID: id, Roles: roles, Permissions: access.RolePermissions(roles), Via: access.ViaSession,
		TwoFactor: twoFactor, ConfirmedAt: confirmed}
}

func token(id int64, role string, scope ...string) *access.Principal {
	roles := access.ImpliedRoles(role)
	return &access.Principal{UserID: id, Roles: roles, Via: access.ViaToken,
		Permissions: access.TokenGrant(access.Permissions(scope), roles)}
}

func TestCheck(t *testing.T) {
	fresh, stale := now.Add(-time.Minute), now.Add(-ConfirmWindow-time.Second)
	plain, super := Person(10, []string{access.RoleUser}), Person(11, []string{access.RoleAdmin, access.RoleSuperAdmin})
	moderator, admin := Person(12, []string{access.RoleModerator}), Person(13, []string{access.RoleAdmin})
	tests := []struct {
		name   string
		strict bool
		who    *access.Principal
		action Action
		target Target
		want   error
	}{
		{"anonymous registers", false, nil, Register, Platform, nil},
		{"anonymous bans", false, nil, BanUser, plain, ErrSignInRequired},
		{"user bans", false, session(1, access.RoleUser, false, fresh), BanUser, plain, &ForbiddenError{}},
		{"admin bans a user", false, session(2, access.RoleAdmin, false, stale), BanUser, plain, nil},
		{"admin bans a super admin", false, session(2, access.RoleAdmin, false, fresh), BanUser, super, ErrOutranked},
		{"admin bans a peer admin", false, session(2, access.RoleAdmin, false, fresh), BanUser, admin, ErrOutranked},
		{"admin bans a moderator", false, session(2, access.RoleAdmin, false, fresh), BanUser, moderator, nil},
		{"admin:write token through the v1 gate bans a peer admin", false, token(2, access.RoleAdmin, access.PermAdminWrite).Through(access.PermAdminWrite), BanUser, admin, ErrOutranked},
		{"admin:write token through the v1 gate bans a user", false, token(2, access.RoleAdmin, access.PermAdminRead, access.PermAdminWrite).Through(access.PermAdminWrite), BanUser, plain, nil},
		{"admin:write token without the v1 gate bans a user", false, token(2, access.RoleAdmin, access.PermAdminWrite), BanUser, plain, &ForbiddenError{Need: access.PermUsersManage}},
		{"admin:read token through the v1 gate deletes a post", false, token(2, access.RoleAdmin, access.PermAdminRead).Through(access.PermAdminRead), DeletePost, Owned(10), &ForbiddenError{Need: access.PermAdminDelete}},
		{"moderator moderates a peer moderator's post", false, session(4, access.RoleModerator, true, fresh), ModeratePost, moderator, ErrOutranked},
		{"moderator moderates a member's post", false, session(4, access.RoleModerator, true, fresh), ModeratePost, plain, nil},
		{"admin notes a peer admin", false, session(2, access.RoleAdmin, false, fresh), AddUserNote, admin, ErrOutranked},
		{"admin locks a peer admin's record", false, session(2, access.RoleAdmin, false, fresh), TakeLock, admin, ErrOutranked},
		{"admin changes a peer admin's webhook", false, session(2, access.RoleAdmin, false, fresh), UpdateWebhook, admin, ErrOutranked},
		{"admin blocks a peer admin's address", false, session(2, access.RoleAdmin, false, fresh), CreateBlock, admin, ErrOutranked},
		{"super admin bans an admin", false, session(3, access.RoleSuperAdmin, false, fresh), BanUser, admin, nil},
		{"admin bans themself", false, session(10, access.RoleAdmin, false, fresh), BanUser, plain, ErrSelf},
		{"super admin bans a super admin", false, session(3, access.RoleSuperAdmin, false, fresh), BanUser, super, nil},
		{"scoped super token bans a super admin", false, token(3, access.RoleSuperAdmin, access.PermUsersManage), BanUser, super, ErrOutranked},
		{"moderator without 2FA bans, strict", true, session(4, access.RoleModerator, false, fresh), BanUser, plain, &ForbiddenError{}},
		{"admin without 2FA bans, strict", true, session(2, access.RoleAdmin, false, fresh), BanUser, plain, ErrNeedsSecondFactor},
		{"admin with 2FA bans, strict", true, session(2, access.RoleAdmin, true, stale), BanUser, plain, nil},
		{"token of an admin without 2FA, strict", true, token(2, access.RoleAdmin, access.PermUsersManage), BanUser, plain, nil},
		{"author deletes own post", true, session(10, access.RoleModerator, false, stale), DeletePost, Owned(10), nil},
		{"moderator deletes another's post", false, session(4, access.RoleModerator, true, fresh), DeletePost, Owned(10), &ForbiddenError{}},
		{"admin deletes another's post", false, session(2, access.RoleAdmin, false, stale), DeletePost, Owned(10), nil},
		{"admin edits another's post", false, session(2, access.RoleAdmin, true, fresh), EditPost, Owned(10), ErrNotOwner},
		{"deleting another account, stale", false, session(2, access.RoleAdmin, false, stale), DeleteAccount, plain, ErrNeedsConfirmation},
		{"deleting one's own account, stale", false, session(10, access.RoleUser, false, stale), DeleteAccount, plain, nil},
		{"linking a provider to one's own account, fresh", false, session(10, access.RoleUser, false, fresh), LinkProvider, Owned(10), nil},
		{"linking a provider to one's own account, stale", false, session(10, access.RoleUser, false, stale), LinkProvider, Owned(10), ErrNeedsConfirmation},
		{"linking a provider to someone else's account", false, session(3, access.RoleSuperAdmin, false, fresh), LinkProvider, Owned(10), ErrNotOwner},
		{"a token links a provider", false, token(10, access.RoleUser, access.PermAdminRead), LinkProvider, Owned(10), ErrSessionOnly},
		{"unlinking one's own provider, stale", false, session(10, access.RoleUser, false, stale), UnlinkProvider, Owned(10), nil},
		{"role change, stale", false, session(2, access.RoleAdmin, false, stale), ChangeRole, plain, ErrNeedsConfirmation},
		{"token mints a token", false, token(3, access.RoleSuperAdmin, access.PermAdminSuper), MintToken, Platform, ErrSessionOnly},
		{"session mints a token, fresh", false, session(3, access.RoleSuperAdmin, false, fresh), MintToken, Platform, nil},
		{"backup download, stale", false, session(3, access.RoleSuperAdmin, false, stale), DownloadBackup, Platform, ErrNeedsConfirmation},
		{"moderator moderates their own post", false, session(10, access.RoleModerator, true, fresh), ModeratePost, Owned(10), ErrOwn},
		{"admin locks their own record", false, session(10, access.RoleAdmin, false, fresh), TakeLock, plain, ErrOwn},
		{"admin locks a super admin's record", false, session(2, access.RoleAdmin, false, fresh), TakeLock, super, ErrOutranked},
		{"admin locks a feature flag", false, session(2, access.RoleAdmin, false, fresh), TakeFlagLock, Platform, &ForbiddenError{}},
		{"moderator reverses a peer's decision", false, session(4, access.RoleModerator, false, fresh), ReverseModeration, moderator, ErrNeedsHigherRole},
		{"moderator reverses their own decision", false, session(12, access.RoleModerator, false, fresh), ReverseModeration, moderator, nil},
		{"admin reverses a moderator's decision", false, session(2, access.RoleAdmin, false, fresh), ReverseModeration, moderator, nil},
		{"admin reverses a super admin's decision", false, session(2, access.RoleAdmin, false, fresh), ReverseModeration, super, ErrNeedsHigherRole},
		{"scoped super token reverses a super admin's decision", false, token(3, access.RoleSuperAdmin, access.PermPostsModerate), ReverseModeration, super, ErrNeedsHigherRole},
		{"super admin reverses a super admin's decision", false, session(3, access.RoleSuperAdmin, false, fresh), ReverseModeration, super, nil},
		{"admin breaks a peer's lock", false, session(2, access.RoleAdmin, false, fresh), ReleaseLock, admin, ErrNeedsHigherRole},
		{"super admin breaks an admin's lock", false, session(3, access.RoleSuperAdmin, false, fresh), ReleaseLock, admin, nil},
		{"holder lets go of its own lock", false, token(13, access.RoleAdmin, access.PermAdminDelete), ReleaseLock, admin, nil},
		{"read-only token of the holder lets go", false, token(13, access.RoleAdmin, access.PermAdminRead), ReleaseLock, admin, &ForbiddenError{}},
		{"admin without 2FA sees private profiles, strict", true, session(2, access.RoleAdmin, false, fresh), SeePrivateProfiles, Platform, ErrNeedsSecondFactor},
		{"moderator without 2FA sees unpublished posts, strict", true, session(4, access.RoleModerator, false, fresh), SeeUnpublishedPosts, Platform, ErrNeedsSecondFactor},
		{"moderator with 2FA sees unpublished posts, strict", true, session(4, access.RoleModerator, true, stale), SeeUnpublishedPosts, Platform, nil},
		{"user sees private profiles", false, session(1, access.RoleUser, false, fresh), SeePrivateProfiles, Platform, &ForbiddenError{}},
		{"users:manage token sees private profiles, strict", true, token(2, access.RoleAdmin, access.PermUsersManage), SeePrivateProfiles, Platform, nil},
		{"session reads its own account", false, session(10, access.RoleUser, false, stale), SeeOwnAccount, Owned(10), nil},
		{"admin reads another's account", false, session(2, access.RoleAdmin, true, fresh), SeeOwnAccount, Owned(10), ErrNotOwner},
		{"admin:read token reads its own account", false, token(2, access.RoleAdmin, access.PermAdminRead), SeeOwnAccount, Owned(2), &ForbiddenError{Need: access.ScopeAccountRead}},
		{"account:read token reads its own account", false, token(10, access.RoleUser, access.ScopeAccountRead), SeeOwnAccount, Owned(10), nil},
		{"admin:read token writes a post", false, token(2, access.RoleAdmin, access.PermAdminRead), CreatePost, Owned(2), &ForbiddenError{}},
		{"account:read token writes a post", false, token(10, access.RoleUser, access.ScopeAccountRead), CreatePost, Owned(10), &ForbiddenError{}},
		{"account:write token writes a post", false, token(10, access.RoleUser, access.ScopeAccountWrite), CreatePost, Owned(10), nil},
		{"admin:read token edits its own post", false, token(2, access.RoleAdmin, access.PermAdminRead), EditPost, Owned(2), &ForbiddenError{}},
		{"admin:read token deletes its own post", false, token(2, access.RoleAdmin, access.PermAdminRead), DeletePost, Owned(2), &ForbiddenError{}},
		{"admin:delete token deletes its own post as staff", false, token(2, access.RoleAdmin, access.PermAdminDelete), DeletePost, Owned(2), nil},
		{"admin:super token rewrites its own profile", false, token(3, access.RoleSuperAdmin, access.PermAdminSuper), EditProfile, Person(3, []string{access.RoleSuperAdmin}), nil},
		{"admin:write token rewrites its own profile", false, token(2, access.RoleAdmin, access.PermAdminWrite), EditProfile, Person(2, []string{access.RoleAdmin}), &ForbiddenError{Need: access.ScopeAccountWrite}},
		{"account:write token on another's post", false, token(10, access.RoleUser, access.ScopeAccountWrite), EditPost, Owned(11), ErrNotOwner},
		{"admin changes a feature flag", false, session(2, access.RoleAdmin, true, fresh), UpdateFeatureFlag, Platform, &ForbiddenError{Need: access.PermAdminSuper}},
		{"admin queues maintenance", false, session(2, access.RoleAdmin, true, fresh), QueueMaintenance, Platform, &ForbiddenError{Need: access.PermAdminSuper}},
		{"admin sends a broadcast", false, session(2, access.RoleAdmin, false, stale), SendBroadcast, Platform, nil},
		{"admin rotates a super admin's webhook secret", false, session(2, access.RoleAdmin, true, fresh), RotateWebhookSecret, super, ErrOutranked},
		{"admin:write token deletes a webhook", false, token(2, access.RoleAdmin, access.PermAdminWrite), DeleteWebhook, plain, &ForbiddenError{Need: access.PermAdminDelete}},
		{"moderator sets their report alerts", false, session(4, access.RoleModerator, false, stale), SetAlerts, Owned(4), nil},
		{"user sets report alerts", false, session(10, access.RoleUser, false, fresh), SetAlerts, Owned(10), &ForbiddenError{Need: access.PermPostsModerate}},
		{"a token sets its owner's alerts", false, token(2, access.RoleAdmin, access.PermAdminWrite).Through(access.PermAdminWrite), SetAlerts, Owned(2), ErrSessionOnly},
		{"moderator turns on operations alerts", false, session(4, access.RoleModerator, true, fresh), SetOperationsAlerts, Owned(4), &ForbiddenError{Need: access.PermAdminRead}},
		{"admin turns on operations alerts", false, session(2, access.RoleAdmin, false, stale), SetOperationsAlerts, Owned(2), nil},
		{"operator restores", true, &access.Principal{Via: access.ViaOperator, Permissions: access.RolePermissions([]string{access.RoleSuperAdmin})}, Restore, Platform, nil},
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
		if r.Owner && !r.SessionOnly && !access.IsAccountScope(r.Scope) {
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
	plain, super := Person(10, []string{access.RoleUser}), Person(11, []string{access.RoleAdmin, access.RoleSuperAdmin})
	admin := session(2, access.RoleAdmin, false, stale)
	if p.May(admin, DeleteAccount, plain) || !p.MayOnceConfirmed(admin, DeleteAccount, plain) {
		t.Error("a stale admin session is not offered the deletion it may take once confirmed")
	}
	if p.MayOnceConfirmed(admin, DeleteAccount, super) {
		t.Error("an admin is offered to delete a super admin")
	}
	if p.MayOnceConfirmed(session(4, access.RoleModerator, false, stale), DeleteAccount, plain) {
		t.Error("a moderator is offered to delete an account")
	}
}
