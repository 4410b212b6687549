package models

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// Delivery statuses: pending until the receiver takes it or the retries
// run out.
const (
	DeliveryPending   = "pending"
	DeliveryDelivered = "delivered"
	DeliveryFailed    = "failed"
	DeliveryCancelled = "cancelled"
)

// DeliveryHeld is the last error of a pending delivery its endpoint's
// pause held back: nothing was sent, and resuming the endpoint queues it
// again.
const DeliveryHeld = "held: the endpoint is paused; resuming it sends this"

// Webhook is an endpoint admins registered for some events.
type Webhook struct {
	bun.BaseModel `bun:"table:webhooks,alias:wh"`

	ID          int64     `bun:",pk,autoincrement"`
	URL         string    `bun:",notnull"`
	Events      []string  `bun:",notnull,type:jsonb"`
	Secret      []byte    `bun:",notnull"`
	Active      bool      `bun:",notnull"`
	Description string    `bun:",notnull"`
	CreatedBy   *int64    `bun:""`
	CreatedAt   time.Time `bun:",notnull"`
	UpdatedAt   time.Time `bun:",notnull"`
}

// WebhookDelivery is one message to one endpoint and what became of it.
type WebhookDelivery struct {
	bun.BaseModel `bun:"table:webhook_deliveries,alias:wd"`

	ID             int64      `bun:",pk,autoincrement"`
	WebhookID      int64      `bun:",notnull"`
	MessageID      string     `bun:",notnull"`
	Event          string     `bun:",notnull"`
	Payload        string     `bun:",notnull"`
	Attempts       int        `bun:",notnull"`
	Status         string     `bun:",notnull"`
	LastStatusCode *int       `bun:""`
	LastError      string     `bun:",notnull"`
	CreatedAt      time.Time  `bun:",notnull"`
	LastAttemptAt  *time.Time `bun:""`
	DeliveredAt    *time.Time `bun:""`
	// NextAttemptAt is when the queue tries it next; nil when it will
	// not (settled, cancelled, or held by its endpoint's pause).
	NextAttemptAt *time.Time `bun:""`
}

// CreateWebhook stores w with its secret (w.Secret, in the clear: the
// caller makes it), sealed for storage. Call it inside a change.
func (s Hooks) CreateWebhook(ctx context.Context, w *Webhook) error {
	secret := w.Secret
	if len(secret) == 0 {
		return errors.New("create webhook: no secret")
	}
	var err error
	now := s.now()
	w.CreatedAt, w.UpdatedAt = now, now
	if w.Secret, err = s.sealSecret(secret); err != nil {
		return err
	}
	if _, err := s.db(ctx).NewInsert().Model(w).Returning("id").Exec(ctx); err != nil {
		return fmt.Errorf("insert webhook: %w", err)
	}
	w.Secret = secret
	return nil
}

// SecretSealer encrypts secrets for storage and opens them again;
// auth.SecretBox is one.
type SecretSealer interface {
	Seal(secret string) (string, error)
	Open(sealed string) (string, error)
}

// sealedPrefix marks a sealed webhook secret. A secret stored before
// sealing came is 32 random bytes, which start so with no real chance.
const sealedPrefix = "plaza-sealed-v1:"

func (s *Store) sealSecret(secret []byte) ([]byte, error) {
	if s.Secrets == nil {
		return secret, nil
	}
	sealed, err := s.Secrets.Seal(string(secret))
	if err != nil {
		return nil, fmt.Errorf("seal webhook secret: %w", err)
	}
	return []byte(sealedPrefix + sealed), nil
}

// openSecret is a stored secret in the clear; one stored before sealing
// came is returned as it is.
func (s *Store) openSecret(stored []byte) ([]byte, error) {
	sealed, ok := bytes.CutPrefix(stored, []byte(sealedPrefix))
	if !ok {
		return stored, nil
	}
	if s.Secrets == nil {
		return nil, errors.New("open webhook secret: no key to open it with")
	}
	plain, err := s.Secrets.Open(string(sealed))
	if err != nil {
		return nil, fmt.Errorf("open webhook secret: %w", err)
	}
	return []byte(plain), nil
}

// SealWebhookSecrets seals every secret stored before sealing came, once
// at start; it reports how many.
func (s Hooks) SealWebhookSecrets(ctx context.Context) (int, error) {
	if s.Secrets == nil {
		return 0, nil
	}
	var rows []Webhook
	if err := s.DB.NewSelect().Model(&rows).Column("id", "secret").Scan(ctx); err != nil {
		return 0, err
	}
	n := 0
	for _, w := range rows {
		if bytes.HasPrefix(w.Secret, []byte(sealedPrefix)) {
			continue
		}
		sealed, err := s.sealSecret(w.Secret)
		if err != nil {
			return n, err
		}
		_, err = s.DB.NewUpdate().Model((*Webhook)(nil)).Set("secret = ?", sealed).
			Where("id = ? AND secret = ?", w.ID, w.Secret).Exec(ctx)
		if err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// Webhooks lists the endpoints, oldest first, their secrets opened.
func (s Hooks) Webhooks(ctx context.Context) ([]Webhook, error) {
	var rows []Webhook
	if err := s.db(ctx).NewSelect().Model(&rows).Order("wh.id").Scan(ctx); err != nil {
		return nil, err
	}
	for i := range rows {
		var err error
		if rows[i].Secret, err = s.openSecret(rows[i].Secret); err != nil {
			return nil, err
		}
	}
	return rows, nil
}

// WebhookByID is one endpoint, its secret opened; an unknown id is
// ErrNotFound.
func (s Hooks) WebhookByID(ctx context.Context, id int64) (*Webhook, error) {
	w := new(Webhook)
	if err := s.db(ctx).NewSelect().Model(w).Where("wh.id = ?", id).Scan(ctx); err != nil {
		return nil, notFound(err, "webhook")
	}
	var err error
	if w.Secret, err = s.openSecret(w.Secret); err != nil {
		return nil, err
	}
	return w, nil
}

// WebhookChange is a partial update: nil fields stay as they are.
type WebhookChange struct {
	URL         *string
	Events      []string // nil: unchanged
	Active      *bool
	Description *string
}

// UpdateWebhook applies ch to endpoint id and returns it as it now is.
// Call it inside a change.
func (s Hooks) UpdateWebhook(ctx context.Context, id int64, ch WebhookChange) (*Webhook, error) {
	w, err := s.WebhookByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if ch.URL != nil {
		w.URL = *ch.URL
	}
	if ch.Events != nil {
		w.Events = ch.Events
	}
	if ch.Description != nil {
		w.Description = *ch.Description
	}
	resumed := ch.Active != nil && *ch.Active && !w.Active
	if ch.Active != nil {
		w.Active = *ch.Active
	}
	w.UpdatedAt = s.now()
	_, err = s.db(ctx).NewUpdate().Model(w).Column("url", "events", "active", "description", "updated_at").WherePK().Exec(ctx)
	if err == nil && resumed {
		err = s.releaseHeldDeliveries(ctx, id)
	}
	return w, err
}

// HoldWebhookDelivery keeps delivery id from being attempted while its
// endpoint is paused (a test message excepted, which an admin sends on
// purpose): it marks the delivery held and reports true; false means the
// endpoint is active and the delivery goes ahead. One statement, so that
// a resume either sees the mark or makes the check fail.
func (s Hooks) HoldWebhookDelivery(ctx context.Context, id int64) (bool, error) {
	res, err := s.db(ctx).NewUpdate().Model((*WebhookDelivery)(nil)).Set("last_error = ?", DeliveryHeld).Set("next_attempt_at = NULL").
		Where("wd.id = ? AND wd.status = ? AND wd.event <> ?", id, DeliveryPending, EventPing).
		Where("EXISTS (SELECT 1 FROM webhooks AS wh WHERE wh.id = wd.webhook_id AND NOT wh.active)").Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("hold webhook delivery %d: %w", id, err)
	}
	n, _ := res.RowsAffected()
	return n > 0, nil
}

// releaseHeldDeliveries queues again the deliveries of endpoint id its
// pause held back.
func (s *Store) releaseHeldDeliveries(ctx context.Context, id int64) error {
	var ids []int64
	db := s.db(ctx)
	err := db.NewUpdate().Model((*WebhookDelivery)(nil)).Set("last_error = ''").Set("next_attempt_at = ?", s.now()).
		Where("wd.webhook_id = ? AND wd.status = ? AND wd.last_error = ?", id, DeliveryPending, DeliveryHeld).Returning("id").Scan(ctx, &ids)
	if err != nil || s.Queue == nil {
		return err
	}
	for _, d := range ids {
		if err := s.queueJob(ctx, d); err != nil {
			return err
		}
	}
	return nil
}

// RotateWebhookSecret gives endpoint id the new secret (the caller makes
// it) and returns the endpoint. Messages already queued are signed with
// the new one when they are sent. Call it inside a change.
func (s Hooks) RotateWebhookSecret(ctx context.Context, id int64, secret []byte) (*Webhook, error) {
	w, err := s.WebhookByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if len(secret) == 0 {
		return nil, errors.New("rotate webhook secret: no secret")
	}
	w.Secret = secret
	sealed, err := s.sealSecret(w.Secret)
	if err != nil {
		return nil, err
	}
	w.UpdatedAt = s.now()
	_, err = s.db(ctx).NewUpdate().Model((*Webhook)(nil)).Set("secret = ?", sealed).Set("updated_at = ?", w.UpdatedAt).
		Where("id = ?", w.ID).Exec(ctx)
	return w, err
}

// DeleteWebhook removes endpoint id and its delivery log; deliveries still
// queued find it gone and stop. Call it inside a change.
func (s Hooks) DeleteWebhook(ctx context.Context, id int64) error {
	db := s.db(ctx)
	if _, err := db.NewDelete().Model((*WebhookDelivery)(nil)).Where("webhook_id = ?", id).Exec(ctx); err != nil {
		return err
	}
	res, err := db.NewDelete().Model((*Webhook)(nil)).Where("id = ?", id).Exec(ctx)
	return oneRow(res, err, "webhook")
}

// WebhookDeliveries is a page of endpoint id's delivery log, newest first,
// and the log's length.
func (s Hooks) WebhookDeliveries(ctx context.Context, id int64, limit, offset int) ([]WebhookDelivery, int, error) {
	var rows []WebhookDelivery
	n, err := s.db(ctx).NewSelect().Model(&rows).Where("wd.webhook_id = ?", id).
		Order("wd.id DESC").Limit(int64(limit)).Offset(int64(offset)).ScanAndCount(ctx)
	return rows, int(n), err
}

// QueueWebhookEvent is the outbox: it queues body, the message about
// event an action built, to every active endpoint subscribed to event: a
// delivery row and its job, in the change under way, so that they exist
// if and only if the change commits. Without a job queue (a command that
// opened the database alone) it does nothing.
func (s Hooks) QueueWebhookEvent(ctx context.Context, event string, body []byte) error {
	if s.Queue == nil {
		return nil
	}
	var hooks []Webhook
	if err := s.db(ctx).NewSelect().Model(&hooks).Where("wh.active = ?", true).Scan(ctx); err != nil {
		return fmt.Errorf("webhooks for %s: %w", event, err)
	}
	for _, h := range hooks {
		if !slices.Contains(h.Events, event) {
			continue
		}
		if _, err := s.queueDelivery(ctx, h.ID, event, body); err != nil {
			return err
		}
	}
	return nil
}

// WebhookSubscribed reports whether an active endpoint subscribes to
// event, for a message costly to build.
func (s Hooks) WebhookSubscribed(ctx context.Context, event string) (bool, error) {
	var hooks []Webhook
	if err := s.db(ctx).NewSelect().Model(&hooks).Column("events").Where("wh.active = ?", true).Scan(ctx); err != nil {
		return false, err
	}
	return slices.ContainsFunc(hooks, func(h Webhook) bool { return slices.Contains(h.Events, event) }), nil
}

// EventPing is the test message's event (the webhook package's name for
// it): a paused endpoint still receives it.
const EventPing = "ping"

// QueueWebhookDelivery queues body, a message about event, to endpoint
// hookID, active or not, and returns its delivery (a test message). Call
// it inside a change.
func (s Hooks) QueueWebhookDelivery(ctx context.Context, hookID int64, event string, body []byte) (*WebhookDelivery, error) {
	if s.Queue == nil {
		return nil, ErrNoJobQueue
	}
	if _, err := s.WebhookByID(ctx, hookID); err != nil {
		return nil, err
	}
	return s.queueDelivery(ctx, hookID, event, body)
}

// RetryWebhookDelivery queues delivery did of endpoint id once more, its
// attempts starting again from zero. Call it inside a change.
func (s Hooks) RetryWebhookDelivery(ctx context.Context, id, did int64) (*WebhookDelivery, error) {
	if s.Queue == nil {
		return nil, ErrNoJobQueue
	}
	d := new(WebhookDelivery)
	db := s.db(ctx)
	if err := db.NewSelect().Model(d).Where("wd.id = ? AND wd.webhook_id = ?", did, id).Scan(ctx); err != nil {
		return nil, notFound(err, "webhook delivery")
	}
	now := s.now()
	d.Status, d.Attempts, d.NextAttemptAt = DeliveryPending, 0, &now
	if _, err := db.NewUpdate().Model(d).Column("status", "attempts", "next_attempt_at").WherePK().Exec(ctx); err != nil {
		return nil, err
	}
	return d, s.queueJob(ctx, d.ID)
}

// ErrNotPending refuses to cancel a delivery that is no longer pending.
var ErrNotPending = errors.New("webhook delivery: only a pending delivery can be cancelled")

// CancelWebhookDelivery stops delivery did of endpoint id: it is never
// attempted again (its job finds it cancelled and stops). One that is not
// pending is ErrNotPending. Call it inside a change.
func (s Hooks) CancelWebhookDelivery(ctx context.Context, id, did int64) (*WebhookDelivery, error) {
	d := new(WebhookDelivery)
	db := s.db(ctx)
	err := db.NewUpdate().Model(d).Set("status = ?", DeliveryCancelled).Set("next_attempt_at = NULL").
		Where("wd.id = ? AND wd.webhook_id = ? AND wd.status = ?", did, id, DeliveryPending).Returning("*").Scan(ctx)
	if err == nil {
		return d, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return nil, err
	}
	if err := db.NewSelect().Model(d).Where("wd.id = ? AND wd.webhook_id = ?", did, id).Scan(ctx); err != nil {
		return nil, notFound(err, "webhook delivery")
	}
	return nil, ErrNotPending
}

func (s *Store) queueDelivery(ctx context.Context, hookID int64, event string, body []byte) (*WebhookDelivery, error) {
	now := s.now()
	d := &WebhookDelivery{WebhookID: hookID, MessageID: "msg_" + strings.ReplaceAll(uuid.NewString(), "-", ""),
		Event: event, Payload: string(body), Status: DeliveryPending, CreatedAt: now, NextAttemptAt: &now}
	if _, err := s.db(ctx).NewInsert().Model(d).Returning("id").Exec(ctx); err != nil {
		return nil, fmt.Errorf("queue %s to webhook %d: %w", event, hookID, err)
	}
	return d, s.queueJob(ctx, d.ID)
}

func (s *Store) queueJob(ctx context.Context, deliveryID int64) error {
	tx, ok := s.db(ctx).(*bun.Tx)
	if !ok {
		return errors.New("queue webhook delivery: call it inside a change")
	}
	return s.Queue.QueueWebhook(ctx, tx.Tx, deliveryID)
}

// WebhookMessage is a delivery as the sender needs it.
type WebhookMessage struct {
	Delivery WebhookDelivery
	URL      string
	Secret   []byte
}

// WebhookMessage loads delivery id with its endpoint's URL and secret; a
// delivery whose endpoint was deleted is ErrNotFound.
func (s Hooks) WebhookMessage(ctx context.Context, id int64) (*WebhookMessage, error) {
	m := new(WebhookMessage)
	if err := s.db(ctx).NewSelect().Model(&m.Delivery).Where("wd.id = ?", id).Scan(ctx); err != nil {
		return nil, notFound(err, "webhook delivery")
	}
	w, err := s.WebhookByID(ctx, m.Delivery.WebhookID)
	if err != nil {
		return nil, err
	}
	m.URL, m.Secret = w.URL, w.Secret
	return m, nil
}

// RecordWebhookAttempt logs one attempt of delivery id: its answer's
// status (0: none) and error ("" when delivered). final marks a failed
// attempt as the last one the queue will make; otherwise the queue tries
// again after retryIn. A delivery cancelled while the attempt was under
// way stays cancelled.
func (s Hooks) RecordWebhookAttempt(ctx context.Context, id int64, status int, errText string, final bool, retryIn time.Duration) error {
	now := s.now()
	q := s.db(ctx).NewUpdate().Model((*WebhookDelivery)(nil)).Where("id = ? AND status = ?", id, DeliveryPending).
		Set("attempts = attempts + 1").Set("last_attempt_at = ?", now).Set("last_error = ?", errText)
	if errText == "" || final {
		q = q.Set("next_attempt_at = NULL")
	} else {
		q = q.Set("next_attempt_at = ?", now.Add(retryIn))
	}
	if status > 0 {
		q = q.Set("last_status_code = ?", status)
	} else {
		q = q.Set("last_status_code = NULL")
	}
	switch {
	case errText == "":
		q = q.Set("status = ?", DeliveryDelivered).Set("delivered_at = ?", now)
	case final:
		q = q.Set("status = ?", DeliveryFailed)
	}
	_, err := q.Exec(ctx)
	return err
}

// idText is an id as the versioned admin family writes it: a string.
func idText(id int64) string { return strconv.FormatInt(id, 10) }
