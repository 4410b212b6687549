package actions

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/internal/webhook"
	"github.com/plazahq/plaza/internal/wiretime"
	"github.com/plazahq/plaza/models"
)

// BanInput is a ban or an unban of one user.
type BanInput struct {
	UserID int64
	Unban  bool
	Reason string
	Notes  string
	// Duration is how long the ban lasts (0: until lifted); DurationText is
	// how the caller wrote it, for the audit entry.
	Duration      time.Duration
	DurationText  string
	RemoveContent bool
}

// BanResult is what a ban or unban did.
type BanResult struct {
	// Ban is the ban made, or the one an unban ended (nil when none held).
	Ban         *models.Ban
	HiddenPosts int
	// NotBanned is an unban of a user no ban held: nothing changed.
	NotBanned bool
	User      *models.ListedUser // as the user is now
}

// Ban bans or unbans a user: the same rules and record whichever door.
func (a *Actions) Ban(ctx context.Context, who *access.Principal, in BanInput) (*BanResult, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	var out BanResult
	err := a.Store.ChangeLocked(ctx, "user", itoa(in.UserID), callerID(who), func(ctx context.Context) error {
		target, err := a.Store.Users.ListedUserByID(ctx, in.UserID)
		if err != nil {
			return err
		}
		action := policy.BanUser
		if in.Unban {
			action = policy.UnbanUser
		}
		if err := a.Policy.Check(who, action, person(target)); err != nil {
			return err
		}
		if in.Unban {
			err = a.unban(ctx, who, in, &out)
		} else {
			err = a.ban(ctx, who, in, &out)
		}
		if err != nil {
			return err
		}
		if out.User, err = a.Store.Users.ListedUserByID(ctx, in.UserID); err != nil {
			return err
		}
		verb := "ban"
		if in.Unban {
			verb = "unban"
		}
		audit.Target(ctx, "user", itoa(in.UserID), map[string]any{"action": verb,
			"before": map[string]any{"status": target.Status}, "after": map[string]any{"status": out.User.Status}})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

func (a *Actions) ban(ctx context.Context, who *access.Principal, in BanInput, out *BanResult) error {
	b, err := a.Store.Sanctions.BanUser(ctx, models.BanInput{UserID: in.UserID, AdminID: callerID(who), Reason: in.Reason, Notes: in.Notes, Duration: in.Duration})
	if err != nil {
		return err
	}
	out.Ban = b
	err = a.emit(ctx, webhook.EventUserBanned, map[string]any{"userId": itoa(in.UserID), "banId": itoa(b.ID),
		"bannedBy": itoa(callerID(who)), "reason": in.Reason, "expiresAt": stamp(b.ExpiresAt)})
	if err != nil {
		return err
	}
	details := map[string]any{"reason": in.Reason, "duration": in.DurationText, "expiresAt": stamp(b.ExpiresAt), "banId": b.ID}
	if in.RemoveContent {
		if out.HiddenPosts, err = a.Store.Users.HideUserPosts(ctx, in.UserID, callerID(who), in.Reason); err != nil {
			return err
		}
		details["hiddenPosts"] = out.HiddenPosts
	}
	audit.Target(ctx, "user", itoa(in.UserID), details)
	return nil
}

// unban is the one way a ban is lifted by someone, whatever the door (the
// unban routes, a status change, a bulk status change): the ban in force
// ends by who and the user is active again.
func (a *Actions) unban(ctx context.Context, who *access.Principal, in BanInput, out *BanResult) error {
	b, err := a.Store.Sanctions.ActiveBan(ctx, in.UserID)
	if err != nil {
		return err
	}
	err = a.Store.Sanctions.UnbanUser(ctx, in.UserID, callerID(who))
	if errors.Is(err, models.ErrNotBanned) {
		out.NotBanned = true
		return nil
	}
	out.Ban = b
	return err
}

// UserChange is an admin's change to one user's account: each field
// optional. A status that bans or lifts a ban goes through the ban action
// (docs/api.md, "Admin users"); BanReason is the reason a ban by status
// records, DefaultBanReason when empty.
type UserChange struct {
	Status     *string
	Role       *string
	IsVerified *bool
	Notes      *string
	BanReason  string
}

// DefaultBanReason is the reason of a ban made by setting a user's status
// to banned without one.
const DefaultBanReason = "Status set to banned"

func (ch UserChange) model() models.UserAdminChange {
	out := models.UserAdminChange{Status: ch.Status, IsVerified: ch.IsVerified, Notes: ch.Notes}
	if ch.Role != nil {
		out.Roles = access.ImpliedRoles(*ch.Role)
	}
	return out
}

// action is the policy action of the change: a role or status change is
// the stricter one.
func (ch UserChange) action() policy.Action {
	if ch.Role != nil {
		return policy.ChangeRole
	}
	return policy.UpdateUser
}

// UpdateUser applies an admin's change to user id, with the fields before
// and after in the audit entry, and returns the user as it now is. Status
// banned bans the user through the ban action, and status active or
// inactive of a banned user first lifts the ban through the unban action,
// so a ban is made and ended by one action whatever the door.
func (a *Actions) UpdateUser(ctx context.Context, who *access.Principal, id int64, ch UserChange) (*models.ListedUser, error) {
	if err := checkBanReason(ch.BanReason); err != nil {
		return nil, err
	}
	var after *models.ListedUser
	err := a.Store.ChangeLocked(ctx, "user", itoa(id), callerID(who), func(ctx context.Context) error {
		before, err := a.Store.Users.ListedUserByID(ctx, id)
		if err != nil {
			return err
		}
		if err := a.checkUserChange(who, before, ch); err != nil {
			return err
		}
		if ch, err = a.banByStatus(ctx, who, before, ch); err != nil {
			return err
		}
		if ch.Status != nil || ch.Role != nil || ch.IsVerified != nil || ch.Notes != nil {
			if err := a.Store.Users.UpdateUserAsAdmin(ctx, id, callerID(who), ch.model()); err != nil {
				return err
			}
		}
		if after, err = a.Store.Users.ListedUserByID(ctx, id); err != nil {
			return err
		}
		audit.Target(ctx, "user", itoa(id), map[string]any{"before": UserFields(before), "after": UserFields(after)})
		return nil
	})
	return after, err
}

// banByStatus carries out the part of a status change that is a ban or
// an unban, under the ban action's own policy entry, and returns what is
// left of the change. Banned bans a user no ban holds (one already banned
// keeps the ban in force); active lifts a ban in force; inactive lifts it
// and leaves the deactivation to the rest of the change.
func (a *Actions) banByStatus(ctx context.Context, who *access.Principal, u *models.ListedUser, ch UserChange) (UserChange, error) {
	if ch.Status == nil || (*ch.Status != models.UserBanned && u.Status != models.UserBanned) {
		return ch, nil
	}
	action := policy.BanUser
	if *ch.Status != models.UserBanned {
		action = policy.UnbanUser
	}
	if err := a.Policy.Check(who, action, person(u)); err != nil {
		return ch, err
	}
	status := *ch.Status
	if status != models.UserInactive {
		ch.Status = nil
	}
	var res BanResult
	switch {
	case status == models.UserBanned && u.Status == models.UserBanned:
		return ch, nil
	case status == models.UserBanned:
		reason := ch.BanReason
		if reason == "" {
			reason = DefaultBanReason
		}
		audit.Target(ctx, "user", itoa(u.ID), map[string]any{"action": "ban"})
		return ch, a.ban(ctx, who, BanInput{UserID: u.ID, Reason: reason}, &res)
	}
	audit.Target(ctx, "user", itoa(u.ID), map[string]any{"action": "unban"})
	return ch, a.unban(ctx, who, BanInput{UserID: u.ID, Unban: true}, &res)
}

// checkUserChange asks the policy about each part of the change: a status
// change may not be one's own, a role change needs a confirmation too.
func (a *Actions) checkUserChange(who *access.Principal, u *models.ListedUser, ch UserChange) error {
	if err := a.Policy.Check(who, ch.action(), person(u)); err != nil {
		return err
	}
	if ch.Status != nil && who != nil && who.UserID == u.ID {
		return policy.ErrSelf
	}
	return nil
}

// UserFields are the fields an admin's change may touch, as the audit
// entry keeps them before and after.
func UserFields(u *models.ListedUser) map[string]any {
	role := models.RoleUser
	if u.TopRole != nil {
		role = *u.TopRole
	}
	if role == models.RoleSuperAdmin {
		role = models.RoleAdmin
	}
	return map[string]any{"status": u.Status, "role": role, "isVerified": u.IsVerified, "notes": u.AdminNotes}
}

// BulkResult is what a bulk change did: the users after, in id order.
type BulkResult struct {
	Updated int
	Users   []models.ListedUser
}

// BulkUpdateUsers applies one change to every named user in one
// transaction with one audit entry holding each user's before and after,
// or to none: the policy is asked for each user.
func (a *Actions) BulkUpdateUsers(ctx context.Context, who *access.Principal, ids []int64, ch UserChange) (*BulkResult, error) {
	var out BulkResult
	err := a.Store.Change(ctx, func(ctx context.Context) error {
		before, err := a.bulkTargets(ctx, who, ids, ch)
		if err != nil {
			return err
		}
		unbanned, err := a.unbanByStatus(ctx, who, before, ch)
		if err != nil {
			return err
		}
		if out.Updated, err = a.Store.Users.BulkUpdateUsers(ctx, ids, callerID(who), ch.model()); err != nil {
			return err
		}
		if out.Users, err = a.Store.Users.ListedUsersByID(ctx, ids); err != nil {
			return err
		}
		changes := make([]map[string]any, len(out.Users))
		for i := range out.Users {
			changes[i] = map[string]any{"id": itoa(out.Users[i].ID), "before": UserFields(&before[i]), "after": UserFields(&out.Users[i])}
		}
		audit.Target(ctx, "users", "", map[string]any{"count": len(out.Users), "users": changes, "unbanned": unbanned})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// unbanByStatus lifts, through the unban action (its policy entry and its
// one implementation, unban), the ban of each banned user a bulk status
// change (active or inactive) names, and returns their ids.
func (a *Actions) unbanByStatus(ctx context.Context, who *access.Principal, users []models.ListedUser, ch UserChange) ([]string, error) {
	out := []string{}
	if ch.Status == nil {
		return out, nil
	}
	for i := range users {
		if users[i].Status != models.UserBanned {
			continue
		}
		if err := a.Policy.Check(who, policy.BanUser, person(&users[i])); err != nil {
			return nil, err
		}
		var res BanResult
		if err := a.unban(ctx, who, BanInput{UserID: users[i].ID, Unban: true}, &res); err != nil {
			return nil, err
		}
		out = append(out, itoa(users[i].ID))
	}
	return out, nil
}

// bulkTargets reads the users a bulk change names, in id order, after
// checking that all exist, that the policy allows each, and that no other
// admin holds any one's edit lock.
func (a *Actions) bulkTargets(ctx context.Context, who *access.Principal, ids []int64, ch UserChange) ([]models.ListedUser, error) {
	users, err := a.Store.Users.ListedUsersByID(ctx, ids)
	if err != nil {
		return nil, err
	}
	if len(users) < len(ids) {
		return nil, &MissingError{Kind: "user", IDs: missingIDs(ids, users)}
	}
	for i := range users {
		if err := a.Policy.Check(who, policy.BulkUpdateUsers, person(&users[i])); err != nil {
			return nil, err
		}
	}
	if (ch.Status != nil || ch.Role != nil) && who != nil && slices.Contains(ids, who.UserID) {
		return nil, policy.ErrSelf
	}
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = itoa(id)
	}
	return users, a.Store.Desk.CheckLocks(ctx, "user", keys, callerID(who))
}

// MissingError names the ids of a batch that match nothing; nothing changed.
type MissingError struct {
	Kind string
	IDs  []string
}

func (e *MissingError) Error() string { return "no " + e.Kind + " has these ids" }

func (e *MissingError) Unwrap() error { return models.ErrNotFound }

func missingIDs(ids []int64, found []models.ListedUser) []string {
	have := map[int64]bool{}
	for _, u := range found {
		have[u.ID] = true
	}
	var out []string
	for _, id := range ids {
		if !have[id] {
			out = append(out, itoa(id))
		}
	}
	return out
}

// EditProfile changes a user's public profile: the user itself, or staff
// holding users:manage (audited, and waiting for another admin's lock).
func (a *Actions) EditProfile(ctx context.Context, who *access.Principal, id int64, ch models.ProfileChange) (*models.User, error) {
	if err := checkProfile(&ch); err != nil {
		return nil, err
	}
	self := who != nil && who.UserID == id
	if !self && policy.HoldsPower(who, policy.EditProfile) {
		audit.Keep(ctx, nil) // staff changing someone's profile, allowed or not
	}
	var after *models.User
	err := a.change(ctx, who, "user", id, func(ctx context.Context) error {
		target, err := a.Store.Users.ListedUserByID(ctx, id)
		if err != nil {
			return err
		}
		if err := a.Policy.Check(who, policy.EditProfile, person(target)); err != nil {
			return err
		}
		if self {
			if err := a.checkVoice(ctx, who); err != nil {
				return err
			}
		}
		if after, err = a.Store.Users.UpdateProfile(ctx, id, ch); err != nil {
			return err
		}
		if !self {
			audit.Keep(ctx, profileDiff(&target.User, after))
		}
		return nil
	})
	return after, err
}

// change runs fn as one change; staff changing someone else's resource
// first checks that no other admin holds its edit lock.
func (a *Actions) change(ctx context.Context, who *access.Principal, typ string, owner int64, fn func(ctx context.Context) error) error {
	if who != nil && who.UserID == owner {
		return a.Store.Change(ctx, fn)
	}
	return a.Store.ChangeLocked(ctx, typ, itoa(owner), callerID(who), fn)
}

func profileDiff(before, after *models.User) map[string]any {
	b, a := map[string]any{}, map[string]any{}
	diff := func(field string, x, y any) {
		if x != y {
			b[field], a[field] = x, y
		}
	}
	diff("name", deref(before.Name), deref(after.Name))
	diff("bio", before.Bio, after.Bio)
	diff("location", before.Location, after.Location)
	diff("image", deref(before.Image), deref(after.Image))
	diff("profile_public", before.ProfilePublic, after.ProfilePublic)
	return map[string]any{"before": b, "after": a}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// stamp is how an audit entry's details write a time: as the API does, or
// null.
func stamp(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := wiretime.Format(*t)
	return &s
}

// AddNote appends a staff note, or a warning (a strike in the user's
// history), on user id, with its audit entry. A note is an action on the
// person: rank protects a super admin, and nobody notes or warns
// themself.
func (a *Actions) AddNote(ctx context.Context, who *access.Principal, id int64, kind, body string) (*models.UserNote, error) {
	var note *models.UserNote
	err := a.Store.Change(ctx, func(ctx context.Context) error {
		u, err := a.Store.Users.ListedUserByID(ctx, id)
		if err != nil {
			return err
		}
		if err := a.Policy.Check(who, policy.AddUserNote, person(u)); err != nil {
			return err
		}
		if note, err = a.Store.Sanctions.AddUserNote(ctx, id, callerID(who), kind, body); err != nil {
			return err
		}
		audit.Target(ctx, "user", itoa(id), map[string]any{"kind": kind, "noteId": note.ID})
		return nil
	})
	return note, err
}
