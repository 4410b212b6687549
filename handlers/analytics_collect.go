package handlers

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/analytics"
	"github.com/plazahq/plaza/models"
)

// EventQueue stores events and returns once they are committed
// (*analytics.Batcher[models.AnalyticsEvent] fits).
type EventQueue interface {
	Submit(ctx context.Context, events []models.AnalyticsEvent) error
}

// Pseudonymizer hashes identifying values under the day's key (*analytics.Hasher fits).
type Pseudonymizer interface {
	Hash(ctx context.Context, at time.Time, kind, value string) (string, error)
}

// SessionToken gives the request's session token (*scs.SessionManager fits).
type SessionToken interface {
	Token(ctx context.Context) string
}

// Stored sizes of the request metadata kept with each event.
const (
	maxUserAgent = 512
	maxPagePath  = 1024
	maxSessionID = 128
)

// CollectEvent answers POST /api/analytics/collect (docs/api.md,
// "Analytics collection"): one event or {events:[…]}, stored before the
// answer.
//
//   - 202 {success, event_id, message} or {success, event_ids, message}
//   - 400 {success:false, error, details:[{path, message}]}: malformed JSON
//     or an event that breaks the schema
//   - 403 {success:false, error}: no signed-in session (a bearer token is
//     not a session)
//   - 413 {success:false, error}: body over 256 KiB, refused before it is parsed
//   - 429 {success:false, error} with Retry-After: over the per-user events
//     per minute (a batch counts each event; the whole batch is refused)
//   - 503 {success:false, error} with Retry-After: 1: the writer's queue is
//     full, the server is stopping or the database failed; nothing was
//     acknowledged
type CollectEvent struct {
	Queue    EventQueue
	Hasher   Pseudonymizer
	Sessions SessionToken
	Now      func() time.Time
}

// Handle answers POST /api/analytics/collect.
func (h CollectEvent) Handle(c echo.Context) error {
	req := c.Request()
	ctx := req.Context()
	pr := access.PrincipalFrom(ctx)
	if pr == nil || pr.Via != access.ViaSession {
		return api.ErrCollectNoSession
	}
	body, err := readLimited(req, analytics.MaxBodyBytes)
	if err != nil {
		return err
	}
	now := h.Now().UTC().Truncate(time.Microsecond)
	inputs, batch, err := analytics.Parse(body, now)
	if err != nil {
		var ve *analytics.ValidationError
		if !errors.As(err, &ve) {
			return err
		}
		issues := make([]api.Issue, len(ve.Issues))
		for i, is := range ve.Issues {
			issues[i] = api.Issue{Message: is.Message}
			if is.Path != "" {
				issues[i].Path = strings.Split(is.Path, ".")
			}
		}
		return api.CollectInvalid(ve.Malformed, issues)
	}
	m, err := meterFrom(ctx)
	if err != nil {
		return err
	}
	if err := m.Take(ctx, "", int64(len(inputs))); err != nil {
		return err
	}
	events, err := h.build(c, pr.UserID, inputs, now)
	if err != nil {
		return api.CollectUnavailable(err)
	}
	if err := h.Queue.Submit(ctx, events); err != nil {
		if ctx.Err() != nil {
			return ctx.Err() // the client went away; it is told nothing
		}
		return api.CollectUnavailable(err)
	}
	ids := make([]string, len(events))
	for i := range events {
		ids[i] = events[i].ID
	}
	return c.JSON(http.StatusAccepted, api.NewCollectAccepted(ids, batch))
}

// readLimited reads the whole body, refusing more than limit bytes before
// anything is parsed: at once when Content-Length says so, else as soon as
// the limit is passed.
func readLimited(req *http.Request, limit int64) ([]byte, error) {
	if req.ContentLength > limit {
		return nil, api.ErrCollectTooLarge
	}
	body, err := io.ReadAll(io.LimitReader(req.Body, limit+1))
	if err != nil {
		return nil, err // a client gone, or the app-wide body limit's 413
	}
	if int64(len(body)) > limit {
		return nil, api.ErrCollectTooLarge
	}
	return body, nil
}

// build turns valid inputs into rows: a time-ordered id (UUIDv7) each, the
// user, a session pseudonym, the keyed hash of the client's IP address, the
// user agent and the page path.
func (h CollectEvent) build(c echo.Context, userID int64, inputs []analytics.Input, now time.Time) ([]models.AnalyticsEvent, error) {
	req := c.Request()
	ctx := req.Context()
	ipHash, err := h.Hasher.Hash(ctx, now, "ip", c.RealIP())
	if err != nil {
		return nil, err
	}
	var sessionHash string // computed only if an event lacks its own session_id
	ua := clip(req.UserAgent(), maxUserAgent)
	referer := pathOf(req.Referer())
	events := make([]models.AnalyticsEvent, len(inputs))
	for i, in := range inputs {
		id, err := uuid.NewV7()
		if err != nil {
			return nil, err
		}
		sid, ok := in.Data["session_id"].(string)
		if !ok || sid == "" || len(sid) > maxSessionID {
			if sessionHash == "" {
				if sessionHash, err = h.Hasher.Hash(ctx, now, "session", h.Sessions.Token(ctx)); err != nil {
					return nil, err
				}
			}
			sid = sessionHash
		}
		events[i] = models.AnalyticsEvent{ID: id.String(), EventType: in.Type, EventData: in.Data, UserID: &userID,
			SessionID: sid, IPHash: ipHash, UserAgent: ua, PagePath: pagePath(in.Data, referer),
			OccurredAt: in.OccurredAt, ReceivedAt: now}
	}
	return events, nil
}

// pagePath is the page an event happened on: event_data.path, else the path
// of event_data.url, else the path of the request's Referer. Query strings
// and fragments are dropped (they often carry personal data or tokens).
func pagePath(data map[string]any, referer string) string {
	if p, ok := data["path"].(string); ok && p != "" {
		return pathOf(p)
	}
	if u, ok := data["url"].(string); ok && u != "" {
		if p := pathOf(u); p != "" {
			return p
		}
	}
	return referer
}

// pathOf is the path of an absolute or relative URL, clipped for storage.
func pathOf(raw string) string {
	if raw == "" {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil {
		if i := strings.IndexAny(raw, "?#"); i >= 0 {
			raw = raw[:i]
		}
		return clip(raw, maxPagePath)
	}
	return clip(u.Path, maxPagePath)
}

// clip makes s valid UTF-8 without NUL characters (neither database
// stores them in text) of at most n bytes, cut at a character boundary.
func clip(s string, n int) string {
	s = strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", "")
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
