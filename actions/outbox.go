package actions

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/mail"
	"github.com/plazahq/plaza/internal/webhook"
	"github.com/plazahq/plaza/models"
)

// emit queues the webhook message about event, with data, to every
// endpoint subscribed to it, in the change under way (the outbox): an
// action that causes an event says so here, and a change rolled back
// queues nothing.
func (a *Actions) emit(ctx context.Context, event string, data map[string]any) error {
	return emit(ctx, a.Store, event, data)
}

func emit(ctx context.Context, store *models.Store, event string, data map[string]any) error {
	body, err := webhook.Message(event, store.Timestamp(), data)
	if err != nil {
		return err
	}
	return store.Hooks.QueueWebhookEvent(ctx, event, body)
}

// errNoComposer is an action that writes mail in a runtime built without
// the mail composer: a wiring mistake, refused rather than silent.
var errNoComposer = errors.New("actions: no mail composer")

// sendMail puts m, to the account userID (0: none), in the mail outbox in
// the change under way: queued to be sent when a mail server is set, else
// held for the console. A change rolled back sends nothing.
func (a *Actions) sendMail(ctx context.Context, userID int64, m mail.Message) error {
	_, err := a.queueMail(ctx, userID, m)
	return err
}

// queueMail is sendMail, answering the outbox's row.
func (a *Actions) queueMail(ctx context.Context, userID int64, m mail.Message) (*models.MailMessage, error) {
	return queueMail(ctx, a.Store, a.SendMail, userID, m)
}

// queueMail puts m in store's outbox: to be sent when send says a mail
// server is set, else held.
func queueMail(ctx context.Context, store *models.Store, send bool, userID int64, m mail.Message) (*models.MailMessage, error) {
	row := &models.MailMessage{Kind: string(m.Kind), Recipient: m.To, Subject: m.Subject, TextBody: m.Text,
		HTMLBody: m.HTML, Secret: m.Secret}
	if userID != 0 {
		row.UserID = &userID
	}
	return row, store.Mail.QueueMail(ctx, row, send)
}

// broadcastSent tells of b, sent now or at its time: a note in its
// sender's inbox and the broadcast.sent message.
func broadcastSent(ctx context.Context, store *models.Store, b *models.Broadcast) error {
	if err := store.Notices.Notify(ctx, senderNote(b)); err != nil {
		return err
	}
	return emit(ctx, store, webhook.EventBroadcastSent, map[string]any{"broadcastId": itoa(b.ID),
		"title": b.Title, "type": b.Type, "targets": b.Targets, "recipients": b.Recipients, "delivered": b.Recipients,
		"sentAt": stamp(&b.SentAt), "deliveredAt": stamp(&b.SentAt)})
}

// senderNote is the note that b went out, for its sender's inbox.
func senderNote(b *models.Broadcast) []models.Notification {
	if b.CreatedBy == nil {
		return nil
	}
	return []models.Notification{{UserID: *b.CreatedBy, Type: "success", Title: "Broadcast sent",
		Message: fmt.Sprintf("%q is in the inbox of %d users.", b.Title, b.Recipients)}}
}

// BroadcastJob is the scheduled broadcast's job, its own door: at the
// broadcast's time it marks it sent and queues broadcast.sent in one
// change, as SendBroadcast does for one sent at once.
type BroadcastJob struct{ Store *models.Store }

// SendScheduledBroadcast sends scheduled broadcast id once; asked early,
// it changes nothing and says how long to wait.
func (j BroadcastJob) SendScheduledBroadcast(ctx context.Context, id int64) (time.Duration, error) {
	return j.Store.Notices.SendScheduledBroadcast(ctx, id, func(ctx context.Context, b *models.Broadcast) error {
		return broadcastSent(ctx, j.Store, b)
	})
}

// moderated sends what decision m on post id did: the notices it asks
// for, and post.moderated.
func (a *Actions) moderated(ctx context.Context, who *access.Principal, id int64, d models.Decided, m Moderation) error {
	if err := a.notifyDecision(ctx, d, m); err != nil {
		return err
	}
	if err := a.Store.Desk.Announce(ctx, decisionNews(who, id, d.Title, m.Action)); err != nil {
		return err
	}
	author, from := d.AuthorID, d.From
	return a.emit(ctx, webhook.EventPostModerated, map[string]any{"postId": itoa(id), "authorId": itoa(author),
		"action": m.Action, "fromStatus": from, "toStatus": models.ModerationTarget(m.Action, from),
		"moderatorId": itoa(callerID(who)), "reason": m.Reason})
}

// FileReport files userID's report on post postID and queues
// report.created and the mail of the staff who asked to hear of each
// report at once, in the change under way; it returns the report.
func (a *Actions) FileReport(ctx context.Context, postID, userID int64, reason, comment string) (*models.PostReport, error) {
	r, flagged, err := a.Store.Posts.ReportPost(ctx, postID, userID, reason, comment)
	if err != nil {
		return nil, err
	}
	if err := a.Store.Desk.Announce(ctx, models.ModerationNews{Kind: models.NewsReport, PostID: postID}); err != nil {
		return nil, err
	}
	if err := a.alerts().reportFiled(ctx, r); err != nil {
		return nil, err
	}
	return r, a.emit(ctx, webhook.EventReportCreated, map[string]any{"reportId": itoa(r.ID),
		"postId": itoa(postID), "reporterId": itoa(userID), "reason": reason, "postFlagged": flagged})
}

// decisionNews is the desk's news of who's decision action on post id:
// every moderator's queue drops the post, and a toast names who decided.
func decisionNews(who *access.Principal, id int64, title, action string) models.ModerationNews {
	return models.ModerationNews{Kind: models.NewsDecision, PostID: id, Title: title, Action: action,
		ByID: callerID(who), By: who.Username}
}
