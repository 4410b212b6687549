package handlers

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/views"
)

// InboxStore is what the inbox handlers read; changes are the actions'
// MarkRead and Dismiss.
type InboxStore interface {
	Inbox(ctx context.Context, user int64, limit, offset int) ([]models.InboxItem, int, int, error)
}

// Notifications answers the signed-in user's inbox: reading it is
// policy.SeeOwnAccount, changing it policy.ManageInbox (a bearer token
// needs account:read and account:write).
type Notifications struct {
	Store   InboxStore
	Actions *actions.Actions
}

// List answers GET /api/notifications?limit&offset: unread first, then
// newest, with the counts. Statuses: 200, 401, 422.
func (h Notifications) List(c echo.Context) error {
	page, err := api.ParseInbox(c.QueryParams())
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	p := access.PrincipalFrom(ctx)
	if err := h.Actions.ActAsSelf(p, policy.SeeOwnAccount); err != nil {
		return err
	}
	rows, total, unread, err := h.Store.Inbox(ctx, p.UserID, page.Limit, page.Offset)
	if err != nil {
		return err
	}
	out := api.Inbox{Notifications: make([]api.Notification, len(rows)), Total: total, Unread: unread, Limit: page.Limit, Offset: page.Offset}
	for i := range rows {
		out.Notifications[i] = notification(&rows[i])
	}
	q := consoleQuery(c, "", false)
	return respond(c, http.StatusOK, out, View{Partial: views.InboxList(out, q), Page: views.InboxPage(out, q)})
}

// Badge answers GET /admin/inbox/badge: how many of the caller's
// notifications are unread, as the console header's bell shows it.
func (h Notifications) Badge(c echo.Context) error {
	ctx := c.Request().Context()
	_, _, unread, err := h.Store.Inbox(ctx, access.PrincipalFrom(ctx).UserID, 1, 0)
	if err != nil {
		return err
	}
	noStore(c)
	return respond(c, http.StatusOK, api.UnreadCount{Unread: unread}, View{Partial: views.InboxBadge(unread)})
}

// Read answers POST /api/notifications/{id}/read: the notification or
// broadcast, read. Another user's notification, or a broadcast not in the
// caller's inbox, is 404. Statuses: 200, 401, 404.
func (h Notifications) Read(c echo.Context) error {
	key, err := inboxKey(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	n, err := h.Actions.MarkRead(ctx, access.PrincipalFrom(ctx), key)
	if err != nil {
		return err
	}
	return respondAction(c, http.StatusOK, notification(n), Done{Toast: "Marked read", Events: []string{"plaza:inbox"}})
}

// Dismiss answers DELETE /api/notifications/{id}: the notification or
// broadcast leaves the caller's inbox for good, read if it was not. One
// that is not in the inbox (another user's, or dismissed already) is 404.
// Statuses: 204, 401, 404.
func (h Notifications) Dismiss(c echo.Context) error {
	key, err := inboxKey(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	if err := h.Actions.Dismiss(ctx, access.PrincipalFrom(ctx), key); err != nil {
		return err
	}
	if api.FormatOf(c.Request()) == api.FormatPartial {
		if err := setTrigger(c, Done{Toast: "Dismissed", Events: []string{"plaza:inbox"}}); err != nil {
			return err
		}
	}
	return c.NoContent(http.StatusNoContent)
}

// inboxKey reads the message the path's id names; an id of neither form
// is 404.
func inboxKey(c echo.Context) (models.InboxKey, error) {
	id, broadcast, ok := api.ParseNotificationID(c.Param("id"))
	if !ok {
		return models.InboxKey{}, api.ErrNotFound
	}
	return models.InboxKey{ID: id, Broadcast: broadcast}, nil
}

func notification(n *models.InboxItem) api.Notification {
	return api.Notification{ID: api.NotificationID(n.ID, n.Broadcast), Title: n.Title, Message: n.Message, Type: n.Type,
		CreatedAt: api.Timestamp(n.CreatedAt), ReadAt: api.OptionalTimestamp(n.ReadAt)}
}
