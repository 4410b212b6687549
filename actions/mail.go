package actions

import (
	"context"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/models"
)

// ResendMail queues failed or held message id again, with the job that
// sends it, in one change with its audit entry. A message in another
// state, or any message while no mail server is set (SMTP_URL), is
// models.ErrNotResendable: there is nothing to send it through.
func (a *Actions) ResendMail(ctx context.Context, who *access.Principal, id int64) (*models.MailMessage, error) {
	var m *models.MailMessage
	err := a.Store.Change(ctx, func(ctx context.Context) (err error) {
		if err := a.Policy.Check(who, policy.ResendMail, policy.Platform); err != nil {
			return err
		}
		if !a.SendMail {
			return models.ErrNotResendable
		}
		before := ""
		if old, err := a.Store.Mail.MailByID(ctx, id); err == nil {
			before = old.Status
		}
		if m, err = a.Store.Mail.ResendMail(ctx, id); err != nil {
			return err
		}
		audit.Target(ctx, "mail", itoa(id), map[string]any{"kind": m.Kind, "from": before, "to": m.Status})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// SendTestMail sends who a test message, to their account's address,
// through the outbox, so that an admin sees the mail settings work (or,
// without SMTP_URL, the message held on the mail page).
func (a *Actions) SendTestMail(ctx context.Context, who *access.Principal) (*models.MailMessage, error) {
	var m *models.MailMessage
	err := a.Store.Change(ctx, func(ctx context.Context) error {
		if err := a.Policy.Check(who, policy.SendTestMail, policy.Platform); err != nil {
			return err
		}
		if a.Mail == nil {
			return errNoComposer
		}
		u, err := a.Store.Users.UserByID(ctx, who.UserID)
		if err != nil {
			return err
		}
		msg, err := a.Mail.Test(u.Email, a.Now())
		if err != nil {
			return err
		}
		if m, err = a.queueMail(ctx, u.ID, msg); err != nil {
			return err
		}
		audit.Target(ctx, "mail", itoa(m.ID), map[string]any{"kind": m.Kind, "status": m.Status})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// MailBodyShown reports whether the mail page shows who the body of m: a
// held message only (one sent or queued is the mail server's), and one
// whose body carries a token (a reset or verification link) only to its
// recipient's own account, whatever the viewer's rank (docs/console.md,
// "Mail").
func MailBodyShown(who *access.Principal, m *models.MailMessage) bool {
	if who == nil || m.Status != models.MailHeld {
		return false
	}
	return !m.Secret || (m.UserID != nil && *m.UserID == who.UserID)
}
