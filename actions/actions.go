// Package actions holds every rule-bearing write once: bans, user changes,
// account deletion, posts, tokens, two-factor sign-in, sessions, blocks,
// backups, webhooks, feature flags, reason presets, maintenance jobs and
// broadcasts. Each action takes the context, the acting principal and its
// input; asks the policy first; runs inside the request's unit of work so
// that its change and its audit entry land together; and returns typed
// errors (policy's refusals, models' sentinels, *InvalidError) that the web
// layer renders in each family's format. Handlers, console pages and CLI
// commands call these and decide nothing themselves.
package actions

import (
	"context"
	"strconv"
	"time"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/internal/mail"
	"github.com/plazahq/plaza/models"
)

// Actions carries what the actions need.
type Actions struct {
	Store  *models.Store
	Policy policy.Policy
	Now    func() time.Time
	// Secret signs the API tokens MintToken makes.
	Secret []byte
	// Blocks refuses registrations from blocked email domains.
	Blocks EmailBlocker
	// Passwords checks and hashes the passwords requests give.
	Passwords *auth.Passwords
	// Targets checks webhook URLs against the address policy.
	Targets TargetChecker
	// Mail writes the community's messages; SendMail says a mail server
	// is set (SMTP_URL), so that they are sent rather than held.
	Mail     *mail.Composer
	SendMail bool
	// RequireVerifiedEmail is REQUIRE_VERIFIED_EMAIL: posting and
	// reporting wait for the acting account's address to be verified.
	RequireVerifiedEmail bool
	// PurgeConfirmAbove is PURGE_CONFIRM_ABOVE: a purge banning more
	// accounts than this needs a fresh confirmation (0: every purge).
	PurgeConfirmAbove int
}

// New builds the actions over store with the instance's policy.
func New(store *models.Store, pol policy.Policy, secret []byte, blocks EmailBlocker) *Actions {
	return &Actions{Store: store, Policy: pol, Now: pol.Now, Secret: secret, Blocks: blocks, Passwords: auth.SharedPasswords(),
		PurgeConfirmAbove: DefaultPurgeConfirmAbove}
}

// Operator is the principal of whoever runs the plaza binary against the
// database (the CLI): every permission, and nothing to confirm.
func Operator() *access.Principal {
	return &access.Principal{Username: "operator", Via: access.ViaOperator,
		Roles: []string{access.RoleSuperAdmin}, Permissions: access.RolePermissions([]string{access.RoleSuperAdmin})}
}

// Operate runs fn, an operator's command (the CLI), as a request is run:
// one unit of work whose audit entry, named action and written by the
// operator, commits with the changes fn makes, or not at all when fn
// fails. So an action audits itself at every door, the CLI included.
func (a *Actions) Operate(ctx context.Context, action, command string, fn func(ctx context.Context) error) error {
	d := &audit.Draft{Action: action, AdminUsername: Operator().Username, UserAgent: command}
	w := a.Store.NewWork(d)
	err := fn(models.WithWork(audit.WithDraft(ctx, d), w))
	if _, ferr := w.Finish(ctx, err == nil, operatorStatus(err)); err == nil {
		err = ferr
	}
	return err
}

// operatorStatus is the status an operator's command is audited with: as
// the API answers a success.
func operatorStatus(err error) int {
	if err != nil {
		return 500
	}
	return 200
}

// InvalidError is input an action refuses: a field and why, rendered as
// the family's validation error. Code is the kind of issue in the
// unversioned family's zod shape (too_small, too_big, …); empty reads
// custom.
type InvalidError struct {
	Field  string
	Reason string
	Code   string
	// Path, when set, is where in the input the refused value sits
	// (["tags", "2"]; empty for the input as a whole); nil reads [Field].
	Path []string
}

func (e *InvalidError) Error() string { return e.Field + ": " + e.Reason }

// id of the caller for locks and records; the operator and anonymous
// callers hold no locks.
func callerID(who *access.Principal) int64 {
	if who == nil {
		return 0
	}
	return who.UserID
}

func itoa(id int64) string { return strconv.FormatInt(id, 10) }

// person is the policy target of an action on u.
func person(u *models.ListedUser) policy.Target {
	if u.TopRole == nil {
		return policy.Person(u.ID, nil)
	}
	return policy.Person(u.ID, []string{*u.TopRole})
}
