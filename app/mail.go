package app

import (
	"context"
	"errors"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/internal/jobs"
	"github.com/plazahq/plaza/internal/mail"
	"github.com/plazahq/plaza/models"
)

// newMail builds the composer of the community's messages and, when
// SMTP_URL names a server, the sender that delivers them; without one the
// sender is nil and messages are kept, held, for the console.
func newMail(cfg config.Config) (*mail.Composer, *mail.Sender, error) {
	composer, err := mail.NewComposer(mail.Community{Name: cfg.CommunityName, URL: cfg.PublicAppURL,
		AlertsPath: api.PathConsoleAccountAlerts})
	if err != nil {
		return nil, nil, err
	}
	if cfg.SMTP.Host == "" {
		return composer, nil, nil
	}
	sender, err := mail.NewSender(cfg.SMTP, cfg.MailFrom)
	return composer, sender, err
}

// mailSender is s as the job queue takes it: no sender at all when s is
// nil, so that the job holds what it finds.
func mailSender(s *mail.Sender) jobs.MailSender {
	if s == nil {
		return nil
	}
	return s
}

// mailOutbox is the outbox as the mail job reads and writes it.
type mailOutbox struct{ store *models.Store }

func (o mailOutbox) OutgoingMail(ctx context.Context, id int64) (mail.Message, bool, error) {
	m, err := o.store.Mail.MailByID(ctx, id)
	if errors.Is(err, models.ErrNotFound) {
		return mail.Message{}, false, nil
	}
	if err != nil || m.Status != models.MailQueued {
		return mail.Message{}, false, err
	}
	return mail.Message{To: m.Recipient, Subject: m.Subject, Text: m.TextBody, HTML: m.HTMLBody,
		Kind: mail.Kind(m.Kind), Secret: m.Secret}, true, nil
}

func (o mailOutbox) RecordMailAttempt(ctx context.Context, id int64, errText string, final bool) error {
	return o.store.Mail.RecordMailAttempt(ctx, id, errText, final)
}

func (o mailOutbox) HoldMail(ctx context.Context, id int64) error {
	return o.store.Mail.HoldMail(ctx, id)
}
