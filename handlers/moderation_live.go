package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/live"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/views"
)

// withClaims adds to the queue's posts the claims that hold on them.
func (h V1Posts) withClaims(ctx context.Context, rows []models.ListedPost, out []api.V1Post) error {
	ids := make([]int64, len(rows))
	for i := range rows {
		ids[i] = rows[i].ID
	}
	claims, err := h.Store.PostClaims(ctx, ids)
	if err != nil {
		return err
	}
	for i := range rows {
		if c, ok := claims[rows[i].ID]; ok {
			out[i].Claim = v1Claim(&c)
		}
	}
	return nil
}

func v1Claim(c *models.Claim) *api.V1Claim {
	return &api.V1Claim{PostID: itoa(c.PostID), By: api.V1ClaimedBy{ID: itoa(c.UserID), Username: c.Username},
		ClaimedAt: api.Timestamp(c.ClaimedAt), ExpiresAt: api.Timestamp(c.ExpiresAt)}
}

// Claims answers the moderation queue's claims: "Ana is reviewing".
type Claims struct {
	Actions *actions.Actions
}

// Claim answers POST /admin/moderation/{id}/claim: the caller claims the
// post, or renews its claim, for a few minutes. Statuses: 200, 401, 403,
// 404, 423 (another moderator's claim holds). htmx gets the row's claim
// note.
func (h Claims) Claim(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	claim, err := h.Actions.ClaimPost(ctx, access.PrincipalFrom(ctx), id)
	var held *models.LockedError
	if errors.As(err, &held) { // said as a review, not as an edit lock
		return &api.Error{Status: http.StatusLocked, Code: api.CodeResourceLocked, Message: held.By + " is reviewing this post", Cause: err}
	}
	if err != nil {
		return err
	}
	out := v1Claim(claim)
	return respondShown(c, http.StatusOK, api.OK(*out), views.ClaimNote(out.PostID, out), Done{})
}

// Release answers DELETE /admin/moderation/{id}/claim: the caller's claim
// on the post ends (another moderator's stays). Statuses: 200, 401, 403,
// 404. htmx gets the row's claim note.
func (h Claims) Release(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	released, err := h.Actions.ReleasePost(ctx, access.PrincipalFrom(ctx), id)
	if err != nil {
		return err
	}
	return respondShown(c, http.StatusOK, api.OK(api.V1Released{PostID: itoa(id), Released: released}),
		views.ClaimNote(itoa(id), nil), Done{})
}

// NewsFeed is the instance's feed of the moderation queue's news.
type NewsFeed interface {
	Subscribe() (<-chan models.ModerationNews, func())
}

// QueueCounter reads how many posts await a decision.
type QueueCounter interface {
	QueueCount(ctx context.Context) (int, error)
}

// StreamSlots bounds the streams open at once, per user and in all.
type StreamSlots interface {
	Take(owner int64) (release func(), err error)
}

// QueueEvents streams the moderation queue's news to a console page as
// server-sent events (docs/console.md, "The live queue").
type QueueEvents struct {
	Feed   NewsFeed
	Queue  QueueCounter
	Policy policy.Policy
	Slots  StreamSlots
	// Heartbeat is how often a comment line keeps a quiet stream open
	// through proxies that drop idle connections.
	Heartbeat time.Duration
}

// writeWait is how long one event may take to reach the client before the
// stream is given up; the server's own write timeout would otherwise cut
// every stream after a minute.
const writeWait = 10 * time.Second

// Stream answers GET /admin/moderation/events: first the count of posts
// awaiting a decision (event queue), then the news as it comes (report,
// decision, claim, queue, application, resync), with a comment line every Heartbeat.
// The caller's own decisions and claims are left out: its page shows them
// already. It ends when the client leaves, the server stops, or the
// client falls too far behind (the browser reconnects). Statuses: 200,
// 401, 403 (a bearer token: a console session's stream), 429 (the caller
// has as many streams open as one person may), 503 (the instance has as
// many as it may); both with Retry-After. The stream's slot is given back
// as it ends.
func (h QueueEvents) Stream(c echo.Context) error {
	ctx := c.Request().Context()
	who := access.PrincipalFrom(ctx)
	if err := h.Policy.Check(who, policy.WatchModeration, policy.Platform); err != nil {
		return err
	}
	release, err := h.Slots.Take(who.UserID)
	if err != nil {
		return streamRefused(err)
	}
	defer release()
	news, leave := h.Feed.Subscribe() // before the count, so no change falls between the two
	defer leave()
	n, err := h.Queue.QueueCount(ctx)
	if err != nil {
		return err
	}
	res := c.Response()
	hdr := res.Header()
	hdr.Set(echo.HeaderContentType, "text/event-stream")
	hdr.Set(echo.HeaderCacheControl, "no-store")
	hdr.Set("X-Accel-Buffering", "no") // nginx would hold events back otherwise
	res.WriteHeader(http.StatusOK)
	s := &eventStream{w: res, rc: http.NewResponseController(res)}
	if err := s.send(models.NewsQueue, api.QueueNews{Count: &n}); err != nil {
		return nil
	}
	beat := time.NewTicker(h.Heartbeat)
	defer beat.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case m, ok := <-news:
			if !ok {
				return nil
			}
			if (m.Kind == models.NewsDecision || m.Kind == models.NewsClaim) && m.ByID == who.UserID {
				continue
			}
			err = s.send(m.Kind, queueNews(m))
		case <-beat.C:
			err = s.comment("heartbeat")
		}
		if err != nil {
			return nil // the client is gone; nothing to tell it
		}
	}
}

// streamRetryAfter is the Retry-After of a refused stream, in seconds:
// a slot frees only when another stream ends, so retrying at once helps
// nobody.
const streamRetryAfter = 30

// streamRefused says why a stream could not open.
func streamRefused(err error) error {
	if errors.Is(err, live.ErrOwnerFull) {
		return &api.Error{Status: http.StatusTooManyRequests, Code: api.CodeRateLimited, RetryAfter: streamRetryAfter, Cause: err,
			Message: "You have too many live moderation queues open; close one of your tabs or windows showing it"}
	}
	return &api.Error{Status: http.StatusServiceUnavailable, Code: api.CodeServerError, RetryAfter: streamRetryAfter, Cause: err,
		Message: "The server has as many live moderation queues open as it can; try again in a moment"}
}

func queueNews(m models.ModerationNews) api.QueueNews {
	out := api.QueueNews{Count: m.Count, Action: m.Action, By: m.By, Title: m.Title, Released: m.Released}
	if m.PostID != 0 {
		out.PostID = itoa(m.PostID)
	}
	if m.ApplicationID != 0 {
		out.ApplicationID = itoa(m.ApplicationID)
	}
	if m.Until != nil {
		out.Until = api.Timestamp(*m.Until)
	}
	return out
}

// eventStream writes server-sent events, each flushed at once.
type eventStream struct {
	w  http.ResponseWriter
	rc *http.ResponseController
}

func (s *eventStream) send(name string, data any) error {
	b, err := json.Marshal(data)
	if err != nil {
		return err
	}
	return s.write(fmt.Sprintf("event: %s\ndata: %s\n\n", name, b))
}

func (s *eventStream) comment(text string) error { return s.write(": " + text + "\n\n") }

func (s *eventStream) write(text string) error {
	if err := s.rc.SetWriteDeadline(time.Now().Add(writeWait)); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return err
	}
	if _, err := fmt.Fprint(s.w, text); err != nil {
		return err
	}
	return s.rc.Flush()
}
