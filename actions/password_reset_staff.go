package actions

import (
	"context"
	"crypto/rand"
	"time"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/audit"
)

// StaffReset is what a password reset opened by staff did: the reset
// mail queued (Sent), or, when the instance sends no mail, the link that
// staff hand over (URL), shown this once.
type StaffReset struct {
	Sent      bool
	URL       string
	ExpiresAt time.Time
}

// StartPasswordReset opens a password reset of account userID for
// someone who cannot reset it themselves: the token of the forgotten
// password's flow, single use and valid ResetValidFor, replacing any
// earlier link. With a mail server set the reset mail goes through the
// outbox; without one no mail is kept (it would hold the link for anyone
// who reads the mail page) and the link is answered instead, to a signed-in
// person only: a bearer token may have the mail sent, never take a link.
func (a *Actions) StartPasswordReset(ctx context.Context, who *access.Principal, userID int64) (*StaffReset, error) {
	if a.Mail == nil {
		return nil, errNoComposer
	}
	var out StaffReset
	err := a.Store.Change(ctx, func(ctx context.Context) error {
		u, err := a.Store.Users.ListedUserByID(ctx, userID)
		if err != nil {
			return err
		}
		if err := a.Policy.Check(who, policy.StartPasswordReset, person(u)); err != nil {
			return err
		}
		if !a.SendMail && who.Via == access.ViaToken {
			return policy.ErrSessionOnly // the answer would be a way into the account, and a token is no person
		}
		token := rand.Text() // 130 random bits, as ForgotPassword's
		if out.ExpiresAt, err = a.Store.Auth.OpenPasswordReset(ctx, userID, linkTokenHash(token), ResetValidFor); err != nil {
			return err
		}
		out.Sent = a.SendMail
		audit.Target(ctx, "user", itoa(userID), map[string]any{"email": u.Email, "mailed": out.Sent})
		if !out.Sent {
			out.URL = a.Mail.PasswordResetLink(token)
			return nil
		}
		m, err := a.Mail.PasswordReset(u.Email, token, ResetValidFor)
		if err != nil {
			return err
		}
		return a.sendMail(ctx, userID, m)
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}
