package actions

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/internal/blocks"
	"github.com/plazahq/plaza/internal/wiretime"
)

// How new accounts open. Open: anyone signs up. Approval: a sign-up opens
// an inactive account with an application that staff approve or reject.
// Invite: only with an invitation link. Closed: no new accounts.
const (
	RegistrationOpen     = "open"
	RegistrationApproval = "approval"
	RegistrationInvite   = "invite"
	RegistrationClosed   = "closed"
)

// RegistrationModes lists the modes, in the order forms show them.
var RegistrationModes = []string{RegistrationOpen, RegistrationApproval, RegistrationInvite, RegistrationClosed}

// Limits of the registration settings and of an application.
const (
	// MaxPauseHours is the longest emergency pause of sign-ups: a week.
	MaxPauseHours = 168
	// MaxApplicationQuestion and MaxApplicationAnswer bound the question
	// applicants answer and their answer.
	MaxApplicationQuestion = 500
	MaxApplicationAnswer   = 2000
)

// Why an account opened as an application rather than at once.
const (
	ApplicationByMode   = "mode"
	ApplicationByRange  = "network"
	ApplicationByDomain = "email_domain"
)

// registrationKey is the setting that keeps the registration rules, as
// JSON. It is read from the database at every sign-up, so a change holds
// at once on every instance.
const registrationKey = "registration"

// RegistrationRules are how new accounts open now.
type RegistrationRules struct {
	Mode string `json:"mode"`
	// PausedUntil ends an emergency pause of every sign-up; nil or past:
	// no pause.
	PausedUntil *time.Time `json:"pausedUntil,omitempty"`
	// Question is what an applicant answers in approval mode; empty: no
	// question, the application is the sign-up alone.
	Question string `json:"question,omitempty"`
}

// Paused reports whether sign-ups are paused at now.
func (r RegistrationRules) Paused(now time.Time) bool {
	return r.PausedUntil != nil && now.Before(*r.PausedUntil)
}

// RegistrationChange changes some of the rules; a nil field keeps its
// value. PauseHours pauses sign-ups for that many hours from now (0 ends a
// pause).
type RegistrationChange struct {
	Mode       *string
	PauseHours *int
	Question   *string
}

// RegistrationRefusedError refuses a sign-up the rules do not admit: its
// Code (api's REGISTRATION_* and INVITATION_REQUIRED) and a message that
// says how to get in.
type RegistrationRefusedError struct {
	Code, Message string
}

func (e *RegistrationRefusedError) Error() string { return e.Message }

// Registration reads the rules in force: open, with no pause and no
// question, until a super admin sets them.
func (a *Actions) Registration(ctx context.Context) (RegistrationRules, error) {
	rules := RegistrationRules{Mode: RegistrationOpen}
	value, ok, err := a.Store.Settings.Setting(ctx, registrationKey)
	if err != nil || !ok {
		return rules, err
	}
	return rules, json.Unmarshal([]byte(value), &rules)
}

// SetRegistration changes the rules (a super admin), audited with the
// rules before and after, and returns the rules stored.
func (a *Actions) SetRegistration(ctx context.Context, who *access.Principal, in RegistrationChange) (RegistrationRules, error) {
	var after RegistrationRules
	err := a.Store.Change(ctx, func(ctx context.Context) error {
		if err := a.Policy.Check(who, policy.SetRegistration, policy.Platform); err != nil {
			return err
		}
		before, err := a.Registration(ctx)
		if err != nil {
			return err
		}
		if after, err = in.apply(before, a.Now()); err != nil {
			return err
		}
		value, err := json.Marshal(after)
		if err != nil {
			return err
		}
		audit.Target(ctx, "settings", registrationKey, map[string]any{"before": before.fields(), "after": after.fields()})
		return a.Store.Settings.PutSetting(ctx, registrationKey, string(value))
	})
	return after, err
}

// apply checks the change and returns the rules it makes of before.
func (in RegistrationChange) apply(before RegistrationRules, now time.Time) (RegistrationRules, error) {
	if in.Mode == nil && in.PauseHours == nil && in.Question == nil {
		return before, nothingToChange("mode, pauseHours, question")
	}
	after := before
	var found []*InvalidError
	if in.Mode != nil {
		after.Mode = *in.Mode
		if !slices.Contains(RegistrationModes, after.Mode) {
			found = append(found, &InvalidError{Field: "mode", Code: "invalid_enum_value", Reason: "mode must be one of " + strings.Join(RegistrationModes, ", ")})
		}
	}
	if in.PauseHours != nil {
		switch h := *in.PauseHours; {
		case h < 0 || h > MaxPauseHours:
			found = append(found, &InvalidError{Field: "pauseHours", Code: "too_big", Reason: "pauseHours must be 0 (no pause) to " + strconv.Itoa(MaxPauseHours)})
		case h == 0:
			after.PausedUntil = nil
		default:
			until := now.Add(time.Duration(h) * time.Hour).UTC().Truncate(time.Second)
			after.PausedUntil = &until
		}
	}
	if in.Question != nil {
		after.Question = strings.TrimSpace(*in.Question)
		found = append(found, checkText("question", after.Question, 0, MaxApplicationQuestion, false))
	}
	return after, refusal(found...)
}

// fields are the rules as the audit entry keeps them.
func (r RegistrationRules) fields() map[string]any {
	return map[string]any{"mode": r.Mode, "pausedUntil": stamp(r.PausedUntil), "question": r.Question}
}

// Admission is how a sign-up is received: at once (Application empty),
// or as an application, and why (ApplicationByMode and the others).
type Admission struct {
	Application string
}

// admit decides how a sign-up from ip with email is received under the
// rules and the blocks, or refuses it (*RegistrationRefusedError; an
// email domain refused sign-up is a 422 on email, as it always was). An
// invited sign-up (a valid invitation, checked where it is spent) passes
// invite-only mode and needs no approval, but a pause, a closed door and
// a block still hold.
func (a *Actions) admit(ctx context.Context, rules RegistrationRules, email, ip string, invited bool) (Admission, error) {
	now := a.Now()
	if rules.Paused(now) {
		return Admission{}, &RegistrationRefusedError{Code: api.CodeRegistrationPaused,
			Message: "Sign-ups are paused until " + wiretime.Format(*rules.PausedUntil) + "; try again then"}
	}
	if rules.Mode == RegistrationClosed {
		return Admission{}, &RegistrationRefusedError{Code: api.CodeRegistrationClosed, Message: "This community is not accepting new accounts"}
	}
	network, domain, err := a.Blocks.SignUpSeverities(ctx, ip, email)
	if err != nil {
		return Admission{}, err
	}
	if domain == blocks.SeveritySignUp || domain == blocks.SeverityAll {
		return Admission{}, &InvalidError{Field: "email", Reason: "registrations with this email domain are not accepted"}
	}
	if network == blocks.SeveritySignUp || network == blocks.SeverityAll {
		return Admission{}, &RegistrationRefusedError{Code: api.CodeSignUpBlocked, Message: "New accounts are not accepted from your network"}
	}
	if invited {
		return Admission{}, nil
	}
	switch {
	case rules.Mode == RegistrationInvite:
		return Admission{}, &RegistrationRefusedError{Code: api.CodeInvitationRequired,
			Message: "Joining needs an invitation: ask a member or the staff for an invitation link"}
	case rules.Mode == RegistrationApproval:
		return Admission{Application: ApplicationByMode}, nil
	case network == blocks.SeverityApproval:
		return Admission{Application: ApplicationByRange}, nil
	case domain == blocks.SeverityApproval:
		return Admission{Application: ApplicationByDomain}, nil
	}
	return Admission{}, nil
}

// ProviderSignUpRefused says why a sign-in provider may not open a new
// account for email from ip, or "" when it may: only when sign-ups are
// open to all, since a provider's sign-up carries neither an invitation
// nor an application's answer.
func (a *Actions) ProviderSignUpRefused(ctx context.Context, email, ip string) (string, error) {
	rules, err := a.Registration(ctx)
	if err != nil {
		return "", err
	}
	adm, err := a.admit(ctx, rules, email, ip, false)
	switch {
	case err != nil:
		if msg := refusalMessage(err); msg != "" {
			return msg, nil
		}
		return "", err
	case adm.Application != "":
		return "New accounts need the staff's approval: sign up with an email and password to apply", nil
	}
	return "", nil
}

// refusalMessage is what a sign-up refusal tells the person; "" for an
// error that is not one.
func refusalMessage(err error) string {
	if re, ok := err.(*RegistrationRefusedError); ok {
		return re.Message
	}
	if ie, ok := err.(*InvalidError); ok {
		return "Plaza does not accept new accounts with this email domain: " + ie.Reason
	}
	return ""
}
