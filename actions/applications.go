package actions

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/internal/mail"
	"github.com/plazahq/plaza/internal/wiretime"
	"github.com/plazahq/plaza/models"
)

// Limits of a decision on applications.
const (
	// MaxApplicationReason is the longest reason a decision keeps (and
	// mails): the desk's reason, as long as a post decision's.
	MaxApplicationReason = 500
	// MaxBulkApplications is how many applications one bulk decision
	// takes, as many as the desk's bulk moderation of posts.
	MaxBulkApplications = 200
)

// The decisions on an application, as the bulk route names them.
const (
	DecisionApprove = "approve"
	DecisionReject  = "reject"
)

// ApplicationDecision is one decision on applications: approve or reject,
// with a reason (which a rejection needs; an approval's is a note to the
// applicant).
type ApplicationDecision struct {
	Decision string
	Reason   string
}

// check trims the reason and checks the decision; field names the
// reason's field in the refusal.
func (d *ApplicationDecision) check() error {
	d.Reason = strings.TrimSpace(d.Reason)
	var found []*InvalidError
	switch d.Decision {
	case DecisionApprove:
		found = append(found, checkText("reason", d.Reason, 0, MaxApplicationReason, false))
	case DecisionReject:
		found = append(found, checkText("reason", d.Reason, 1, MaxApplicationReason, false))
	default:
		found = append(found, &InvalidError{Field: "decision", Code: "invalid_enum_value", Reason: "decision must be approve or reject"})
	}
	return refusal(found...)
}

// status is the application's status after the decision.
func (d ApplicationDecision) status() string {
	if d.Decision == DecisionApprove {
		return models.ApplicationApproved
	}
	return models.ApplicationRejected
}

// rule is the policy action of a single decision: each has its audit
// name.
func (d ApplicationDecision) rule() policy.Action {
	if d.Decision == DecisionApprove {
		return policy.ApproveApplication
	}
	return policy.RejectApplication
}

// DecideApplication approves or rejects the application of applicant
// id (docs/api.md, "Applications"): an approval opens the account, a
// rejection keeps it closed; either way the applicant is mailed the
// decision (a rejection with its reasons), in one change with the audit
// entry. An application decided already is *models.DecidedError (409).
// It returns the application as it now is.
func (a *Actions) DecideApplication(ctx context.Context, who *access.Principal, id int64, d ApplicationDecision) (*models.ListedApplication, error) {
	var out *models.ListedApplication
	err := a.Store.Change(ctx, func(ctx context.Context) error {
		apps, err := a.pendingApplications(ctx, who, d.rule(), []int64{id})
		if err != nil {
			return err
		}
		if err := d.check(); err != nil {
			return err
		}
		if err := a.decide(ctx, who, apps, d); err != nil {
			return err
		}
		audit.Target(ctx, "user", itoa(id), map[string]any{"decision": d.Decision, "reason": d.Reason, "why": apps[0].Why})
		if out, err = a.applicationOf(ctx, id); err != nil {
			return err
		}
		return nil
	})
	return out, err
}

// BulkDecideApplications takes one decision on every application of ids
// (distinct), in one change with one audit entry, or on none: each must
// be pending and the policy is asked for each applicant; a bulk decision
// needs a fresh confirmation, as the desk's bulk moderation does. It
// returns how many it decided.
func (a *Actions) BulkDecideApplications(ctx context.Context, who *access.Principal, ids []int64, d ApplicationDecision) (int, error) {
	var n int
	err := a.Store.Change(ctx, func(ctx context.Context) error {
		apps, err := a.pendingApplications(ctx, who, policy.BulkDecideApplications, ids)
		if err != nil {
			return err
		}
		if len(ids) > MaxBulkApplications {
			return &InvalidError{Field: "ids", Code: "too_big", Reason: "name at most " + itoa(MaxBulkApplications) + " applications"}
		}
		if err := d.check(); err != nil {
			return err
		}
		if err := a.decide(ctx, who, apps, d); err != nil {
			return err
		}
		n = len(apps)
		audit.Target(ctx, "users", "", map[string]any{"decision": d.Decision, "reason": d.Reason, "count": n, "ids": idStrings(ids)})
		return nil
	})
	return n, err
}

// pendingApplications reads the applications of ids for a decision under
// rule: every one must exist (*MissingError naming those that do not),
// the policy must let who decide on each applicant, and each must still
// be pending (*models.DecidedError).
func (a *Actions) pendingApplications(ctx context.Context, who *access.Principal, rule policy.Action, ids []int64) ([]models.ListedApplication, error) {
	apps, err := a.Store.Users.ApplicationsByID(ctx, ids)
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]*models.ListedApplication, len(apps))
	for i := range apps {
		byID[apps[i].UserID] = &apps[i]
	}
	var missing []string
	for _, id := range ids {
		if byID[id] == nil {
			missing = append(missing, itoa(id))
		}
	}
	if len(ids) == 1 && missing != nil {
		return nil, models.ErrNotFound
	}
	if missing != nil {
		return nil, &MissingError{Kind: "application", IDs: missing}
	}
	people, err := a.Store.Users.ListedUsersByID(ctx, ids)
	if err != nil {
		return nil, err
	}
	for i := range people {
		if err := a.Policy.Check(who, rule, person(&people[i])); err != nil {
			return nil, err
		}
	}
	for _, ap := range apps {
		if ap.Status != models.ApplicationPending {
			return nil, &models.DecidedError{UserID: ap.UserID, Status: ap.Status}
		}
	}
	return apps, nil
}

// decide records d on apps, all pending, and mails each applicant the
// decision, inside the caller's change; the desk hears of each decision
// once it commits.
func (a *Actions) decide(ctx context.Context, who *access.Principal, apps []models.ListedApplication, d ApplicationDecision) error {
	if a.Mail == nil {
		return errNoComposer
	}
	ids := make([]int64, len(apps))
	for i := range apps {
		ids[i] = apps[i].UserID
	}
	if err := a.Store.Users.DecideApplications(ctx, ids, d.status(), d.Reason, callerID(who)); err != nil {
		return err
	}
	for _, ap := range apps {
		msg, err := a.decisionMail(ap.Email, d)
		if err != nil {
			return err
		}
		if err := a.sendMail(ctx, ap.UserID, msg); err != nil {
			return err
		}
		news := models.ModerationNews{Kind: models.NewsDecision, ApplicationID: ap.UserID, Title: ap.Username,
			Action: d.Decision, ByID: callerID(who), By: who.Username}
		if err := a.Store.Desk.Announce(ctx, news); err != nil {
			return err
		}
	}
	return nil
}

// decisionMail is the mail that tells an applicant at to of d.
func (a *Actions) decisionMail(to string, d ApplicationDecision) (mail.Message, error) {
	if d.Decision == DecisionApprove {
		return a.Mail.ApplicationApproved(to, d.Reason)
	}
	return a.Mail.ApplicationRejected(to, d.Reason)
}

// applicationOf reads the application of applicant id with its signals.
func (a *Actions) applicationOf(ctx context.Context, id int64) (*models.ListedApplication, error) {
	apps, err := a.Store.Users.ApplicationsByID(ctx, []int64{id})
	if err != nil {
		return nil, err
	}
	if len(apps) == 0 {
		return nil, models.ErrNotFound
	}
	return &apps[0], nil
}

// ClaimApplication claims the application of applicant id for who ("Ana
// is reviewing"), or renews who's claim, for models.ClaimLease, as a post
// of the desk is claimed. Another moderator's claim that still holds is
// *models.LockedError; a decided application has nothing to claim
// (*models.DecidedError).
func (a *Actions) ClaimApplication(ctx context.Context, who *access.Principal, id int64) (*models.Claim, error) {
	var out *models.Claim
	err := a.Store.Change(ctx, func(ctx context.Context) error {
		ap, err := a.Store.Users.ApplicationOf(ctx, id)
		if err != nil {
			return notFoundApplication(err)
		}
		if err := a.Policy.Check(who, policy.ClaimApplication, policy.Owned(id)); err != nil {
			return err
		}
		if ap.Status != models.ApplicationPending {
			return &models.DecidedError{UserID: id, Status: ap.Status}
		}
		if out, err = a.Store.Desk.ClaimApplication(ctx, id, callerID(who)); err != nil {
			return err
		}
		until := out.ExpiresAt
		news := models.ModerationNews{Kind: models.NewsClaim, ApplicationID: id, ByID: out.UserID, By: out.Username, Until: &until}
		if err := a.Store.Desk.Announce(ctx, news); err != nil {
			return err
		}
		audit.Target(ctx, "user", itoa(id), map[string]any{"expiresAt": wiretime.Format(out.ExpiresAt)})
		return nil
	})
	return out, err
}

// ReleaseApplication lets who's claim on the application of applicant id
// go and reports whether who held one; another moderator's claim stays.
func (a *Actions) ReleaseApplication(ctx context.Context, who *access.Principal, id int64) (bool, error) {
	var released bool
	err := a.Store.Change(ctx, func(ctx context.Context) error {
		if _, err := a.Store.Users.ApplicationOf(ctx, id); err != nil {
			return notFoundApplication(err)
		}
		if err := a.Policy.Check(who, policy.ReleaseApplication, policy.Owned(id)); err != nil {
			return err
		}
		var err error
		if released, err = a.Store.Desk.ReleaseApplication(ctx, id, callerID(who)); err != nil {
			return err
		}
		audit.Target(ctx, "user", itoa(id), map[string]any{"released": released})
		if !released {
			return nil
		}
		return a.Store.Desk.Announce(ctx, models.ModerationNews{Kind: models.NewsClaim, ApplicationID: id, ByID: callerID(who), By: who.Username, Released: true})
	})
	return released, err
}

// SignInRefusal is what an account that may not sign in is told, or ""
// when it may: an applicant hears where their application stands, anyone
// else that the account cannot sign in. The words are decided here, so
// that every way in (the password, a provider) says the same.
func (a *Actions) SignInRefusal(ctx context.Context, u *models.User) (string, error) {
	if u.Status == models.UserActive {
		return "", nil
	}
	if u.Status == models.UserInactive {
		ap, err := a.Store.Users.ApplicationOf(ctx, u.ID)
		switch {
		case errors.Is(err, sql.ErrNoRows): // deactivated by staff, not an applicant
		case err != nil:
			return "", err
		case ap.Status == models.ApplicationPending:
			return "Your application is waiting for the staff's decision", nil
		case ap.Status == models.ApplicationRejected:
			return "Your application was not accepted: " + ap.Reason, nil
		}
	}
	return "This account is " + u.Status + " and cannot sign in", nil
}

// notFoundApplication reads a missing application as models.ErrNotFound.
func notFoundApplication(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return models.ErrNotFound
	}
	return err
}

func idStrings(ids []int64) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = itoa(id)
	}
	return out
}
