package models

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// Mail statuses: queued until the job sends it or its attempts run out;
// held when no mail server is set (SMTP_URL), kept for the console to
// show instead of being sent.
const (
	MailQueued = "queued"
	MailSent   = "sent"
	MailFailed = "failed"
	MailHeld   = "held"
)

// MailMessage is one mail in the outbox and what became of it.
type MailMessage struct {
	bun.BaseModel `bun:"table:mail_messages,alias:mm"`

	ID        int64  `bun:",pk,autoincrement"`
	Kind      string `bun:",notnull"`
	Recipient string `bun:",notnull"`
	Subject   string `bun:",notnull"`
	TextBody  string `bun:",notnull"`
	HTMLBody  string `bun:"html_body,notnull"`
	// Secret means the body carries a token: only the recipient reads it.
	Secret    bool       `bun:",notnull"`
	Status    string     `bun:",notnull"`
	Attempts  int        `bun:",notnull"`
	LastError string     `bun:",notnull"`
	UserID    *int64     `bun:""`
	CreatedAt time.Time  `bun:",notnull"`
	SentAt    *time.Time `bun:""`
}

// QueueMail is the mail outbox: it stores m in the change under way and,
// when send is true and there is a job queue, queues the job that sends
// it, so that both exist if and only if the change commits. Otherwise
// (no mail server) m is stored held. Call it inside a change.
func (s Mail) QueueMail(ctx context.Context, m *MailMessage, send bool) error {
	tx, ok := s.db(ctx).(*bun.Tx)
	if !ok {
		return errors.New("queue mail: call it inside a change")
	}
	m.Status, m.Attempts, m.LastError, m.CreatedAt, m.SentAt = MailHeld, 0, "", s.now(), nil
	if send && s.Queue != nil {
		m.Status = MailQueued
	}
	if _, err := tx.NewInsert().Model(m).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("queue %s mail: %w", m.Kind, err)
	}
	if m.Status != MailQueued {
		return nil
	}
	return s.Queue.QueueMail(ctx, tx.Tx, m.ID)
}

// MailByID is one message of the outbox; an unknown id is ErrNotFound.
func (s Mail) MailByID(ctx context.Context, id int64) (*MailMessage, error) {
	m := new(MailMessage)
	if err := s.db(ctx).NewSelect().Model(m).Where("mm.id = ?", id).Scan(ctx); err != nil {
		return nil, notFound(err, "mail message")
	}
	return m, nil
}

// MailTo lists the messages to recipient, newest first.
func (s Mail) MailTo(ctx context.Context, recipient string) ([]MailMessage, error) {
	var rows []MailMessage
	err := s.db(ctx).NewSelect().Model(&rows).Where("mm.recipient = ?", recipient).Order("mm.id DESC").Scan(ctx)
	return rows, err
}

// RecordMailAttempt logs one attempt at sending message id: errText is ""
// when the server took it. final marks a failed attempt as the last: the
// message is then failed, and kept. Only a queued message changes. A sent
// secret message keeps no body: its link is the recipient's alone, and
// the outbox (and every backup of it) must not hold one that still works.
func (s Mail) RecordMailAttempt(ctx context.Context, id int64, errText string, final bool) error {
	q := s.db(ctx).NewUpdate().Model((*MailMessage)(nil)).Where("id = ? AND status = ?", id, MailQueued).
		Set("attempts = attempts + 1").Set("last_error = ?", errText)
	switch {
	case errText == "":
		q = q.Set("status = ?", MailSent).Set("sent_at = ?", s.now()).
			Set("text_body = CASE WHEN secret THEN '' ELSE text_body END").
			Set("html_body = CASE WHEN secret THEN '' ELSE html_body END")
	case final:
		q = q.Set("status = ?", MailFailed)
	}
	_, err := q.Exec(ctx)
	return err
}

// HoldMail keeps queued message id unsent: the mail server was taken away
// (SMTP_URL unset) after it was queued.
func (s Mail) HoldMail(ctx context.Context, id int64) error {
	_, err := s.db(ctx).NewUpdate().Model((*MailMessage)(nil)).Where("id = ? AND status = ?", id, MailQueued).
		Set("status = ?", MailHeld).Exec(ctx)
	return err
}

// ErrNotResendable is a message that may not be sent again: only a
// failed or held one may.
var ErrNotResendable = errors.New("only a failed or held message is sent again")

// MailMessages is a page of the outbox, newest first, only messages in
// status when it is not "", and how many there are in all.
func (s Mail) MailMessages(ctx context.Context, status string, limit, offset int) ([]MailMessage, int, error) {
	ctx = s.mayLag(ctx)
	rows := []MailMessage{}
	q := s.db(ctx).NewSelect().Model(&rows).Order("mm.id DESC").Limit(int64(limit)).Offset(int64(offset))
	if status != "" {
		q = q.Where("mm.status = ?", status)
	}
	n, err := q.ScanAndCount(ctx)
	return rows, int(n), err
}

// ResendMail queues failed or held message id again, with a fresh round
// of attempts, and the job that sends it, in the change under way. A
// message in another state is ErrNotResendable, an unknown id
// ErrNotFound; without a job queue nothing is sent, so the message stays
// as it is and the answer is ErrNotResendable too.
func (s Mail) ResendMail(ctx context.Context, id int64) (*MailMessage, error) {
	tx, ok := s.db(ctx).(*bun.Tx)
	if !ok {
		return nil, errors.New("resend mail: call it inside a change")
	}
	m, err := s.MailByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if (m.Status != MailFailed && m.Status != MailHeld) || s.Queue == nil {
		return m, fmt.Errorf("mail message %d is %s: %w", id, m.Status, ErrNotResendable)
	}
	res, err := tx.NewUpdate().Model((*MailMessage)(nil)).Where("id = ? AND status = ?", id, m.Status).
		Set("status = ?", MailQueued).Exec(ctx)
	if err != nil {
		return nil, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return m, fmt.Errorf("mail message %d changed meanwhile: %w", id, ErrNotResendable)
	}
	m.Status = MailQueued
	return m, s.Queue.QueueMail(ctx, tx.Tx, m.ID)
}
