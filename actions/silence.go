package actions

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/internal/webhook"
	"github.com/plazahq/plaza/internal/wiretime"
	"github.com/plazahq/plaza/models"
)

// The limits of a silence, checked here for every door: a member kept
// quiet for longer than MaxSilence is a ban's job.
const (
	MaxSilence       = 30 * 24 * time.Hour
	MaxSilenceReason = 500
)

// SilenceInput is a silence of one user: read-only for Duration.
type SilenceInput struct {
	UserID int64
	// Duration is how long the silence lasts, zero when the caller gave
	// none or none the duration syntax reads; DurationText is how the
	// caller wrote it, for the audit entry.
	Duration     time.Duration
	DurationText string
	Reason       string
}

// check is the one validation of a silence's input.
func (in *SilenceInput) check() error {
	in.Reason = strings.TrimSpace(in.Reason)
	switch {
	case in.Duration <= 0:
		return &InvalidError{Field: "duration", Reason: "duration must be <n>m, <n>h, <n>d or <n>w, e.g. 24h or 7d"}
	case in.Duration > MaxSilence:
		return &InvalidError{Field: "duration", Reason: "a silence lasts at most 30d; a longer one is a ban"}
	case in.Reason == "":
		return &InvalidError{Field: "reason", Reason: "a reason is required to silence"}
	case len([]rune(in.Reason)) > MaxSilenceReason:
		return &InvalidError{Field: "reason", Reason: "reason must be at most " + strconv.Itoa(MaxSilenceReason) + " characters"}
	}
	return nil
}

// SilenceResult is what a silence or an unsilence did.
type SilenceResult struct {
	User *models.ListedUser // as the user is now
	// NotSilenced is an unsilence of a user no silence held: nothing
	// changed.
	NotSilenced bool
}

// Silence makes a user read-only until now + Duration: they sign in and
// read, but Speak, EditPost and EditProfile refuse their own writes with
// *SilencedError. A silence in force is replaced; time alone lifts it.
func (a *Actions) Silence(ctx context.Context, who *access.Principal, in SilenceInput) (*SilenceResult, error) {
	var out SilenceResult
	err := a.Store.ChangeLocked(ctx, "user", itoa(in.UserID), callerID(who), func(ctx context.Context) error {
		target, err := a.Store.Users.ListedUserByID(ctx, in.UserID)
		if err != nil {
			return err
		}
		if err := a.Policy.Check(who, policy.SilenceUser, person(target)); err != nil {
			return err
		}
		if err := in.check(); err != nil {
			return err
		}
		until := a.Now().Add(in.Duration)
		if err := a.Store.Sanctions.SilenceUser(ctx, in.UserID, until, in.Reason); err != nil {
			return err
		}
		if out.User, err = a.Store.Users.ListedUserByID(ctx, in.UserID); err != nil {
			return err
		}
		audit.Target(ctx, "user", itoa(in.UserID), map[string]any{"reason": in.Reason, "duration": in.DurationText,
			"before": silenceFields(&target.User, a.Now()), "after": silenceFields(&out.User.User, a.Now())})
		return a.emit(ctx, webhook.EventUserSilenced, map[string]any{"userId": itoa(in.UserID),
			"silencedBy": itoa(callerID(who)), "reason": in.Reason, "silencedUntil": webhook.Time(until)})
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// Unsilence lifts a user's silence before its time; of a user no silence
// holds it changes nothing (NotSilenced).
func (a *Actions) Unsilence(ctx context.Context, who *access.Principal, userID int64) (*SilenceResult, error) {
	var out SilenceResult
	err := a.Store.ChangeLocked(ctx, "user", itoa(userID), callerID(who), func(ctx context.Context) error {
		target, err := a.Store.Users.ListedUserByID(ctx, userID)
		if err != nil {
			return err
		}
		if err := a.Policy.Check(who, policy.UnsilenceUser, person(target)); err != nil {
			return err
		}
		lifted, err := a.Store.Sanctions.UnsilenceUser(ctx, userID)
		if err != nil {
			return err
		}
		out.NotSilenced = !lifted
		if out.User, err = a.Store.Users.ListedUserByID(ctx, userID); err != nil {
			return err
		}
		audit.Target(ctx, "user", itoa(userID), map[string]any{
			"before": silenceFields(&target.User, a.Now()), "after": silenceFields(&out.User.User, a.Now())})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// silenceFields are a user's silence as the audit entry keeps it before
// and after: the end of the one in force, or null.
func silenceFields(u *models.User, now time.Time) map[string]any {
	if !u.Silenced(now) {
		return map[string]any{"silencedUntil": nil}
	}
	return map[string]any{"silencedUntil": stamp(u.SilencedUntil), "reason": u.SilenceReason}
}

// SilencedError refuses a silenced member's own write, saying until when.
type SilencedError struct{ Until time.Time }

func (e *SilencedError) Error() string {
	return "silenced until " + wiretime.Format(e.Until)
}

// speak is ActAsSelf for the writes a silence stops (writing a post,
// filing a report): the policy's answer, then the caller's silence, then,
// under REQUIRE_VERIFIED_EMAIL, the caller's address.
func (a *Actions) speak(ctx context.Context, who *access.Principal, act policy.Action) error {
	if err := a.ActAsSelf(who, act); err != nil {
		return err
	}
	u, err := a.speaker(ctx, who)
	if u == nil || err != nil {
		return err
	}
	if u.Silenced(a.Now()) {
		return &SilencedError{Until: *u.SilencedUntil}
	}
	return a.checkVerified(u)
}

// checkVoice refuses who's own write while a silence holds them.
func (a *Actions) checkVoice(ctx context.Context, who *access.Principal) error {
	u, err := a.speaker(ctx, who)
	if u != nil && u.Silenced(a.Now()) {
		return &SilencedError{Until: *u.SilencedUntil}
	}
	return err
}

// speaker is who's account as it is now; nil for the operator and
// anonymous callers, whom neither a silence nor an address holds.
func (a *Actions) speaker(ctx context.Context, who *access.Principal) (*models.User, error) {
	if who == nil || who.UserID == 0 || who.Via == access.ViaOperator {
		return nil, nil
	}
	return a.Store.Users.UserByID(ctx, who.UserID)
}
