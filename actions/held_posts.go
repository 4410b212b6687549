package actions

import (
	"context"
	"strconv"
	"time"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/models"
)

// The limits of the hold of new accounts' posts (docs/api.md, "New
// accounts' posts").
const (
	MaxHoldFirst = 50 // posts
	MaxHoldDays  = 90 // days
)

// The settings that keep the hold, read from the database on every post so
// that a change holds at once on every instance.
const (
	holdFirstKey      = "posts.hold_first"
	holdDaysKey       = "posts.hold_days"
	holdTellAuthorKey = "posts.hold_tell_author"
)

// NewAccountPosts is the hold of new accounts' posts: an account's first
// HoldFirst posts put up for publication, and every post of an account
// younger than HoldDays days, wait for a moderator's approval (0 turns
// either off; both are off until an admin sets them). TellAuthor says
// whether the author is told, in the inbox, that the rule held the post;
// otherwise the post is only "awaiting approval", like any post under
// review.
type NewAccountPosts struct {
	HoldFirst  int
	HoldDays   int
	TellAuthor bool
}

// holds reports whether a post is held: the account's submitted-th post
// put up for publication, the account age old.
func (r NewAccountPosts) holds(submitted int, age time.Duration) bool {
	return (r.HoldFirst > 0 && submitted <= r.HoldFirst) ||
		(r.HoldDays > 0 && age < time.Duration(r.HoldDays)*24*time.Hour)
}

// NewAccountPostsSetting reads the hold as stored: off until set.
func NewAccountPostsSetting(ctx context.Context, s SettingReader) (NewAccountPosts, error) {
	var r NewAccountPosts
	for key, into := range map[string]*int{holdFirstKey: &r.HoldFirst, holdDaysKey: &r.HoldDays} {
		value, ok, err := s.Setting(ctx, key)
		if err != nil {
			return NewAccountPosts{}, err
		}
		if ok {
			*into, _ = strconv.Atoi(value) // written by SetNewAccountPosts alone
		}
	}
	tell, ok, err := s.Setting(ctx, holdTellAuthorKey)
	if err != nil {
		return NewAccountPosts{}, err
	}
	r.TellAuthor = ok && tell == "true"
	return r, nil
}

// NewAccountPostsChange changes the hold: each field optional, at least
// one given.
type NewAccountPostsChange struct {
	HoldFirst  *int
	HoldDays   *int
	TellAuthor *bool
}

// check says what is wrong with the change, on its field.
func (c NewAccountPostsChange) check() error {
	switch {
	case c.HoldFirst == nil && c.HoldDays == nil && c.TellAuthor == nil:
		return &InvalidError{Field: "body", Reason: "give holdFirst, holdDays or tellAuthor"}
	case c.HoldFirst != nil && (*c.HoldFirst < 0 || *c.HoldFirst > MaxHoldFirst):
		return &InvalidError{Field: "holdFirst", Reason: "holdFirst must be 0 (off) to " + strconv.Itoa(MaxHoldFirst) + " posts"}
	case c.HoldDays != nil && (*c.HoldDays < 0 || *c.HoldDays > MaxHoldDays):
		return &InvalidError{Field: "holdDays", Reason: "holdDays must be 0 (off) to " + strconv.Itoa(MaxHoldDays) + " days"}
	}
	return nil
}

// SetNewAccountPosts changes the hold of new accounts' posts (admins with
// admin:write), with the setting before and after in the audit entry, and
// returns it as stored.
func (a *Actions) SetNewAccountPosts(ctx context.Context, who *access.Principal, c NewAccountPostsChange) (NewAccountPosts, error) {
	var after NewAccountPosts
	err := a.Store.Change(ctx, func(ctx context.Context) error {
		if err := a.Policy.Check(who, policy.UpdateNewAccountPosts, policy.Platform); err != nil {
			return err
		}
		if err := c.check(); err != nil {
			return err
		}
		before, err := NewAccountPostsSetting(ctx, a.Store.Settings)
		if err != nil {
			return err
		}
		after = before
		if c.HoldFirst != nil {
			after.HoldFirst = *c.HoldFirst
		}
		if c.HoldDays != nil {
			after.HoldDays = *c.HoldDays
		}
		if c.TellAuthor != nil {
			after.TellAuthor = *c.TellAuthor
		}
		audit.Target(ctx, "settings", "posts.hold", map[string]any{"before": holdDetails(before), "after": holdDetails(after)})
		for key, value := range map[string]string{holdFirstKey: strconv.Itoa(after.HoldFirst), holdDaysKey: strconv.Itoa(after.HoldDays),
			holdTellAuthorKey: strconv.FormatBool(after.TellAuthor)} {
			if err := a.Store.Settings.PutSetting(ctx, key, value); err != nil {
				return err
			}
		}
		return nil
	})
	return after, err
}

// announceHeld tells every moderator's queue that post id came to it,
// held for approval, as a report's news does.
func (a *Actions) announceHeld(ctx context.Context, id int64) error {
	return a.Store.Desk.Announce(ctx, models.ModerationNews{Kind: models.NewsReport, PostID: id})
}

func holdDetails(r NewAccountPosts) map[string]any {
	return map[string]any{"holdFirst": r.HoldFirst, "holdDays": r.HoldDays, "tellAuthor": r.TellAuthor}
}

// submit counts a post who puts up for publication (created published, or
// its draft published for the first time) and answers whether the hold of
// new accounts' posts keeps it back for approval. Staff's posts are never
// held: the account's roles decide, not the scopes of the token it posts
// with. When the hold says so, the author's inbox is told why. Call it
// inside the change that writes the post.
func (a *Actions) submit(ctx context.Context, who *access.Principal, title string) (bool, error) {
	n, since, err := a.Store.Posts.SubmitPost(ctx, who.UserID)
	if err != nil {
		return false, err
	}
	if access.RolePermissions(who.Roles).Has(access.PermPostsModerate) {
		return false, nil
	}
	rule, err := NewAccountPostsSetting(ctx, a.Store.Settings)
	if err != nil || !rule.holds(n, a.Now().Sub(since)) {
		return false, err
	}
	if rule.TellAuthor {
		note := models.Notification{UserID: who.UserID, Title: "Your post awaits approval", Type: "info",
			Message: strconv.Quote(title) + ": a new account's first posts are reviewed by a moderator before they appear."}
		if err := a.Store.Notices.Notify(ctx, []models.Notification{note}); err != nil {
			return false, err
		}
	}
	return true, nil
}
