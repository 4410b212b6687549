package actions

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/models"
)

// ErrModeratorsRepublish refuses to publish a hidden or flagged post again
// to a caller who may not moderate: moderation took it down, so only
// moderation brings it back, even for its author.
var ErrModeratorsRepublish = errors.New("a hidden or flagged post is published again only by a moderator")

// PostEdit is a change to post PostID: each field optional.
type PostEdit struct {
	PostID    int64
	Title     *string
	Content   *string
	Tags      *[]string
	Published *bool
}

// rewrites reports whether the edit touches what the author wrote, which
// is the author's alone.
func (e PostEdit) rewrites() bool { return e.Title != nil || e.Content != nil || e.Tags != nil }

// SeePost answers whether who may read post: nil for a published one,
// for its author (a bearer token with account:read) and for whom the
// policy lets see unpublished posts; the policy's refusal when only a
// second factor stands between staff and it; else not found, so that a
// post one may not see is one that does not exist.
func (a *Actions) SeePost(who *access.Principal, post *models.PostRecord) error {
	if post.Status == models.PostPublished || a.Policy.May(who, policy.SeeOwnAccount, policy.Owned(post.AuthorID)) {
		return nil
	}
	return a.staffSees(who, post)
}

// staffSees is whether who sees someone else's unpublished post on staff
// power: staff power used to read is staff power, so an unenrolled staff
// session under REQUIRE_STAFF_2FA gets the policy's refusal.
func (a *Actions) staffSees(who *access.Principal, post *models.PostRecord) error {
	err := a.Policy.Check(who, policy.SeeUnpublishedPosts, policy.Platform)
	if err == nil || errors.Is(err, policy.ErrNeedsSecondFactor) {
		return err
	}
	return fmt.Errorf("post %d: %w", post.ID, models.ErrNotFound)
}

// ActAsSelf asks the policy whether who may take act as itself (write a
// post, file a report, change or read its own inbox and sessions): a
// bearer token needs the account scope the rule names.
func (a *Actions) ActAsSelf(who *access.Principal, act policy.Action) error {
	return a.Policy.Check(who, act, policy.AsSelf(who))
}

// EditPost changes a post. Its title, content and tags are its author's
// alone. The published flag is the author's for its own draft or
// published post; anything else it asks is moderation and needs what
// moderating needs (policy.ModeratePost): bringing a hidden or flagged
// post back (even one's own), and taking someone else's published post
// down, which hides it so that its author cannot simply publish it again.
// Either only sets the status: reports stay open and no moderation record
// is kept, which is what the moderation action is for. Staff acting on
// someone else's post are audited, allowed or not, and wait for another
// admin's edit lock.
func (a *Actions) EditPost(ctx context.Context, who *access.Principal, in PostEdit) (*models.PostRecord, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	var after *models.PostRecord
	err := a.Store.Change(ctx, func(ctx context.Context) error {
		post, err := a.visiblePost(ctx, who, in.PostID)
		if err != nil {
			return err
		}
		own := owns(who, post.AuthorID)
		if !own {
			keepStaffAttempt(ctx, who, post)
		} else if err := a.checkVoice(ctx, who); err != nil {
			return err // a silenced author edits nothing of their own
		}
		if own && in.Published != nil && *in.Published && (post.Status == models.PostHidden || post.Status == models.PostFlagged) {
			// Bringing one's own post back from moderation is asked of
			// moderation: kept, allowed or not.
			audit.Keep(ctx, map[string]any{"authorId": itoa(post.AuthorID), "asked": "publish", "status": post.Status})
		}
		if in.rewrites() {
			if err := a.Policy.Check(who, policy.EditPost, policy.Owned(post.AuthorID)); err != nil {
				return err
			}
		}
		status, err := a.publishing(ctx, who, post, in.Published)
		if err != nil {
			return err
		}
		if status != nil && *status == models.PostPublished && post.Status == models.PostDraft && post.PublishedAt == nil {
			// A draft put up for publication the first time is a new
			// post to the hold of new accounts' posts.
			title := post.Title
			if in.Title != nil {
				title = *in.Title
			}
			held, err := a.submit(ctx, who, title)
			if err != nil {
				return err
			}
			if held {
				pending := models.PostPending
				status = &pending
				if err := a.announceHeld(ctx, post.ID); err != nil {
					return err
				}
			}
		}
		edit := models.PostEdit{Title: in.Title, Content: in.Content, Tags: in.Tags, Status: status}
		if edit == (models.PostEdit{}) {
			after = post // as asked already: nothing to write
			return nil
		}
		if !own {
			if err := a.Store.Desk.CheckLock(ctx, "post", itoa(post.ID), callerID(who)); err != nil {
				return err
			}
		}
		if after, err = a.Store.Posts.EditPost(ctx, post.ID, edit); err != nil {
			return err
		}
		if !own || edit.Status != nil {
			audit.Keep(ctx, postDiff(post, after)) // every status change is kept
		}
		return nil
	})
	return after, err
}

// publishing is the status the published flag asks of post, nil for none,
// once the policy allows the author's edit or the moderation it is.
func (a *Actions) publishing(ctx context.Context, who *access.Principal, post *models.PostRecord, published *bool) (*string, error) {
	if published == nil {
		return nil, nil
	}
	owned, err := a.authorTarget(ctx, post.AuthorID)
	if err != nil {
		return nil, err
	}
	to := func(action policy.Action, status string) (*string, error) {
		if err := a.Policy.Check(who, action, owned); err != nil {
			return nil, err
		}
		if status == post.Status {
			return nil, nil
		}
		return &status, nil
	}
	switch cur := post.Status; {
	case *published && (cur == models.PostHidden || cur == models.PostFlagged):
		status, err := to(policy.ModeratePost, models.PostPublished)
		var fe *policy.ForbiddenError
		if errors.As(err, &fe) {
			return nil, ErrModeratorsRepublish
		}
		if err == nil {
			err = a.checkReversal(ctx, who, post, models.PostPublished)
		}
		return status, err
	case *published && cur == models.PostDraft:
		return to(policy.EditPost, models.PostPublished) // a draft is published by its author
	case !owns(who, post.AuthorID):
		// On someone else's post the flag is moderation, even when it
		// changes nothing.
		if !*published && cur == models.PostPublished {
			return to(policy.ModeratePost, models.PostHidden)
		}
		return to(policy.ModeratePost, cur)
	case !*published && cur == models.PostPublished:
		return to(policy.EditPost, models.PostDraft)
	}
	return nil, nil // as asked already, or a hidden or flagged post that stays so
}

// DeletePost deletes a post: its author's own, or anyone's with
// admin:delete (and, for a staff session, two-factor sign-in when the
// instance requires it). Staff removing someone else's post take the
// moderation delete (ModeratePost's): a moderation record, the reports
// settled, post.moderated sent; they are audited, allowed or not, and
// wait for another admin's edit lock.
func (a *Actions) DeletePost(ctx context.Context, who *access.Principal, id int64) error {
	return a.Store.Change(ctx, func(ctx context.Context) error {
		post, err := a.visiblePost(ctx, who, id)
		if err != nil {
			return err
		}
		own := owns(who, post.AuthorID)
		if !own {
			keepStaffAttempt(ctx, who, post)
		}
		t, err := a.authorTarget(ctx, post.AuthorID)
		if err != nil {
			return err
		}
		if err := a.Policy.Check(who, policy.DeletePost, t); err != nil {
			return err
		}
		if !own {
			_, err := a.moderate(ctx, who, policy.DeletePost, post, Moderation{Action: "delete"})
			return err
		}
		return a.Store.Posts.RemovePost(ctx, post.ID)
	})
}

// Moderation is one moderation decision.
type Moderation struct {
	Action          string // approve, hide, flag, delete or dismiss
	Reason          string
	Notes           string
	NotifyAuthor    bool
	NotifyReporters bool
}

func (m Moderation) model(who *access.Principal, id int64) models.Moderation {
	return models.Moderation{PostID: id, AdminID: callerID(who), Action: m.Action, Reason: m.Reason, Notes: m.Notes}
}

// ModeratePost applies one decision to post id, kept as a moderation
// record with its audit entry, and returns the post as it now is (nil
// after a delete).
func (a *Actions) ModeratePost(ctx context.Context, who *access.Principal, id int64, m Moderation) (*models.ListedPost, error) {
	var out *models.ListedPost
	err := a.Store.Change(ctx, func(ctx context.Context) error {
		post, err := a.Store.Posts.PostRecordByID(ctx, id)
		if err != nil {
			return err
		}
		out, err = a.moderate(ctx, who, policy.ModeratePost, post, m)
		return err
	})
	return out, err
}

// moderate is every door's one moderation decision on post, inside the
// caller's change: the policy (rule: moderation, or for a staff delete
// through the posts API the post deletion that door is), reversal and
// lock checks, the record (models.ModeratePost: reports settled), what
// it sends (the notices asked for, post.moderated) and the audit details. It
// returns the post as it now is (nil after a delete).
func (a *Actions) moderate(ctx context.Context, who *access.Principal, rule policy.Action, post *models.PostRecord, m Moderation) (*models.ListedPost, error) {
	id := post.ID
	if err := a.checkModeration(ctx, who, rule, m.Action, post.AuthorID); err != nil {
		return nil, err
	}
	if err := a.checkReversal(ctx, who, post, models.ModerationTarget(m.Action, post.Status)); err != nil {
		return nil, err
	}
	if err := a.Store.Desk.CheckLock(ctx, "post", itoa(id), callerID(who)); err != nil {
		return nil, err
	}
	d, err := a.Store.Desk.ModeratePost(ctx, m.model(who, id))
	if errors.Is(err, models.ErrDraftNotApproved) {
		return nil, &InvalidError{Field: "action", Reason: "a draft is published by its author, not approved"}
	}
	if err != nil {
		return nil, err
	}
	if err := a.moderated(ctx, who, id, d, m); err != nil {
		return nil, err
	}
	audit.Target(ctx, "post", itoa(id), map[string]any{"action": m.Action, "reason": m.Reason,
		"from": d.From, "notifyAuthor": m.NotifyAuthor, "notifyReporters": m.NotifyReporters})
	if m.Action == "delete" {
		return nil, nil
	}
	return a.Store.Posts.ListedPostByID(ctx, id)
}

// UndoModeration undoes the caller's own last decision on post id within
// models.UndoWindow (not a delete): the post's previous status back and
// exactly the reports that decision settled open again, kept as an undo
// record with its audit entry. Undoing is moderating, under the same
// policy entry; someone else's edit lock on the post refuses it too.
func (a *Actions) UndoModeration(ctx context.Context, who *access.Principal, id int64) (*models.Undone, *models.ListedPost, error) {
	var undone *models.Undone
	var out *models.ListedPost
	err := a.Store.Change(ctx, func(ctx context.Context) error {
		post, err := a.Store.Posts.PostRecordByID(ctx, id)
		if err != nil {
			return err
		}
		t, err := a.authorTarget(ctx, post.AuthorID)
		if err != nil {
			return err
		}
		if err := a.Policy.Check(who, policy.UndoModeration, t); err != nil {
			return err
		}
		if err := a.Store.Desk.CheckLock(ctx, "post", itoa(id), callerID(who)); err != nil {
			return err
		}
		undone, err = a.Store.Desk.UndoModeration(ctx, id, callerID(who))
		switch {
		case errors.Is(err, models.ErrNothingToUndo):
			return &InvalidError{Field: "id", Reason: "there is no decision of yours on this post from the last 10 minutes to undo"}
		case errors.Is(err, models.ErrReportedAgain):
			return &InvalidError{Field: "id", Reason: "a reporter has reported this post again since, so its reports cannot all reopen"}
		case err != nil:
			return err
		}
		if err := a.Store.Desk.Announce(ctx, decisionNews(who, id, undone.Title, "undo")); err != nil {
			return err
		}
		audit.Target(ctx, "post", itoa(id), map[string]any{"undid": undone.Action, "to": undone.Status, "reopened": undone.Reopened})
		out, err = a.Store.Posts.ListedPostByID(ctx, id)
		return err
	})
	return undone, out, err
}

// BulkModerate applies one decision to every post of ids (distinct), in
// one change with one audit entry, or to none: the policy is asked for
// each post, a bulk decision needs a fresh confirmation, and no other
// admin may hold any one's edit lock. It returns how many it moderated.
func (a *Actions) BulkModerate(ctx context.Context, who *access.Principal, ids []int64, m Moderation) (int, error) {
	var n int
	err := a.Store.Change(ctx, func(ctx context.Context) error {
		authors, err := a.Store.Posts.PostAuthors(ctx, ids)
		if err != nil {
			return err
		}
		var missing []string
		for _, id := range ids {
			if _, ok := authors[id]; !ok {
				missing = append(missing, itoa(id))
			}
		}
		if len(missing) > 0 {
			return &MissingError{Kind: "post", IDs: missing}
		}
		keys := make([]string, len(ids))
		for i, id := range ids {
			if err := a.checkModeration(ctx, who, policy.BulkModerate, m.Action, authors[id]); err != nil {
				return err
			}
			keys[i] = itoa(id)
		}
		if err := a.checkReversals(ctx, who, ids, m.Action); err != nil {
			return err
		}
		if err := a.Store.Desk.CheckLocks(ctx, "post", keys, callerID(who)); err != nil {
			return err
		}
		from := make(map[string]string, len(ids))
		for _, id := range ids {
			d, err := a.Store.Desk.ModeratePost(ctx, m.model(who, id))
			if errors.Is(err, models.ErrDraftNotApproved) {
				return &InvalidError{Field: "postIds", Reason: "post " + itoa(id) + " is a draft, which its author publishes"}
			}
			if err != nil {
				return fmt.Errorf("moderate post %d: %w", id, err)
			}
			if err := a.moderated(ctx, who, id, d, m); err != nil {
				return err
			}
			from[itoa(id)] = d.From
		}
		n = len(ids)
		audit.Target(ctx, "posts", "", map[string]any{"action": m.Action, "reason": m.Reason, "count": n, "from": from})
		return nil
	})
	return n, err
}

// checkModeration asks the policy about one decision on a post of
// author's: a delete is a post deletion first (admin:delete, unless the
// post is the caller's own), and every decision is moderation (rule).
func (a *Actions) checkModeration(ctx context.Context, who *access.Principal, rule policy.Action, decision string, author int64) error {
	t, err := a.authorTarget(ctx, author)
	if err != nil {
		return err
	}
	if decision == "delete" {
		if err := a.Policy.Check(who, policy.DeletePost, t); err != nil {
			return err
		}
	}
	return a.Policy.Check(who, rule, t)
}

// authorTarget is the policy target of an action on a post of author's:
// the author's, with the author's role, since a decision against a post is
// one against its author (a strike).
func (a *Actions) authorTarget(ctx context.Context, author int64) (policy.Target, error) {
	u, err := a.Store.Users.ListedUserByID(ctx, author)
	if errors.Is(err, models.ErrNotFound) {
		return policy.Owned(author), nil
	}
	if err != nil {
		return policy.Target{}, err
	}
	return person(u), nil
}

// severity orders a post's statuses by how far moderation took it down.
var severity = map[string]int{models.PostDraft: 0, models.PostPublished: 0, models.PostFlagged: 1, models.PostHidden: 2, "deleted": 3}

// checkReversal asks the policy about a decision that would bring post
// back to status to, less taken down than now: it reverses the decision
// that left the post so, which needs a role above that decision's
// moderator (admin:super acts over anyone; one's own decision is one's to
// reverse). A status no one's decision set (the auto-flag) asks nothing
// more.
func (a *Actions) checkReversal(ctx context.Context, who *access.Principal, post *models.PostRecord, to string) error {
	if severity[to] >= severity[post.Status] {
		return nil
	}
	decider, err := a.Store.Desk.StandingDecider(ctx, post.ID, post.Status)
	if err != nil || decider == nil {
		return err
	}
	t, err := a.personTarget(ctx, *decider)
	if err != nil {
		return err
	}
	return a.Policy.Check(who, policy.ReverseModeration, t)
}

// checkReversals is checkReversal for each post of ids under one
// decision.
func (a *Actions) checkReversals(ctx context.Context, who *access.Principal, ids []int64, decision string) error {
	if decision != "approve" && decision != "dismiss" && decision != "flag" {
		return nil // hide and delete take a post further down, never back
	}
	for _, id := range ids {
		post, err := a.Store.Posts.PostRecordByID(ctx, id)
		if err != nil {
			return err
		}
		if err := a.checkReversal(ctx, who, post, models.ModerationTarget(decision, post.Status)); err != nil {
			return err
		}
	}
	return nil
}

// visiblePost loads post id for who: one who may not see it is told it
// does not exist.
func (a *Actions) visiblePost(ctx context.Context, who *access.Principal, id int64) (*models.PostRecord, error) {
	post, err := a.Store.Posts.PostRecordByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if post.Status == models.PostPublished || owns(who, post.AuthorID) {
		return post, nil // the change's own rule decides an author's token
	}
	if err := a.staffSees(who, post); err != nil {
		return nil, err
	}
	return post, nil
}

// keepStaffAttempt audits staff acting on someone else's post, whether
// the policy allows it or not: a refused attempt at staff power is worth
// a record too. A plain user's refusal is no admin action.
func keepStaffAttempt(ctx context.Context, who *access.Principal, post *models.PostRecord) {
	if policy.HoldsPower(who, policy.ModeratePost) || policy.HoldsPower(who, policy.DeletePost) {
		audit.Keep(ctx, map[string]any{"authorId": itoa(post.AuthorID)})
	}
}

func owns(who *access.Principal, owner int64) bool { return who != nil && who.UserID == owner }

// postDiff is the audit entry's before and after of the changed fields.
func postDiff(before, after *models.PostRecord) map[string]any {
	b, a := map[string]any{}, map[string]any{}
	diff := func(field string, x, y string) {
		if x != y {
			b[field], a[field] = x, y
		}
	}
	diff("title", before.Title, after.Title)
	diff("content", before.Content, after.Content)
	diff("tags", strings.Join(before.Tags(), ","), strings.Join(after.Tags(), ","))
	diff("status", before.Status, after.Status)
	return map[string]any{"before": b, "after": a}
}

// ErrOwnReport refuses a report on one's own post.
var ErrOwnReport = errors.New("one's own post cannot be reported")

// CreatePost writes a post whose author is who (its input checked by the
// caller): published, held for approval when the hold of new accounts'
// posts applies (submit), or a draft. models.ErrUserNotActive when who
// may not post.
func (a *Actions) CreatePost(ctx context.Context, who *access.Principal, in models.PostInput) (*models.PostRecord, error) {
	if err := checkNewPost(&in); err != nil {
		return nil, err
	}
	if err := a.speak(ctx, who, policy.CreatePost); err != nil {
		return nil, err
	}
	in.AuthorID = who.UserID
	var post *models.PostRecord
	err := a.Store.Change(ctx, func(ctx context.Context) (err error) {
		if in.Published {
			if in.Held, err = a.submit(ctx, who, in.Title); err != nil {
				return err
			}
		}
		if post, err = a.Store.Posts.CreateUserPost(ctx, in); err != nil || !in.Held {
			return err
		}
		return a.announceHeld(ctx, post.ID)
	})
	return post, err
}

// ReportPost files who's report on post id, which who may see (else
// models.ErrNotFound) and did not write
// (ErrOwnReport): one open report per user and post
// (models.ErrAlreadyReported). Enough weight of open reports flags a
// published post (models.ReportPost).
func (a *Actions) ReportPost(ctx context.Context, who *access.Principal, id int64, reason, comment string) (*models.PostReport, error) {
	if err := checkReport(&reason, &comment); err != nil {
		return nil, err
	}
	if err := a.speak(ctx, who, policy.ReportPost); err != nil {
		return nil, err
	}
	var r *models.PostReport
	err := a.Store.Change(ctx, func(ctx context.Context) error {
		post, err := a.Store.Posts.PostRecordByID(ctx, id)
		if err != nil {
			return err
		}
		if err := a.SeePost(who, post); err != nil {
			return err
		}
		if owns(who, post.AuthorID) {
			return ErrOwnReport
		}
		r, err = a.FileReport(ctx, post.ID, who.UserID, reason, comment)
		return err
	})
	return r, err
}
