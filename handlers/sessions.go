package handlers

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/internal/device"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/views"
)

// SessionStore is what the session lists and revocations need of the store.
type SessionStore interface {
	Change(ctx context.Context, fn func(ctx context.Context) error) error
	UserByID(ctx context.Context, id int64) (*models.User, error)
	UserSessions(ctx context.Context, userID int64) ([]models.UserSession, error)
	EndUserSession(ctx context.Context, userID int64, id string) error
	EndUserSessions(ctx context.Context, userID int64, keep string) (int, error)
}

// UserSessions lists and revokes sessions: one's own under /api/auth and
// the console's account page, a user's under the versioned admin family
// and the console's user page.
type UserSessions struct {
	Store    SessionStore
	Sessions Sessions
}

// Mine answers GET /api/auth/sessions: the caller's live sessions, the one
// the request came with marked current; and the console's "Your sessions"
// page from the same result.
func (h UserSessions) Mine(c echo.Context) error {
	ctx := c.Request().Context()
	noStore(c)
	list, err := h.list(ctx, auth.PrincipalFrom(ctx).UserID)
	if err != nil {
		return err
	}
	l := views.SessionList{Sessions: list, Own: true, CanRevoke: true}
	return respond(c, http.StatusOK, api.UserSessions{Sessions: list},
		View{Partial: views.SessionTable(l), Page: views.AccountSessionsPage(l)})
}

// RevokeMine answers DELETE /api/auth/sessions/{id}: one of the caller's
// own sessions ends (the current one too: that is signing out). An id of
// no session of the caller's is 404.
func (h UserSessions) RevokeMine(c echo.Context) error {
	ctx := c.Request().Context()
	uid := auth.PrincipalFrom(ctx).UserID
	err := h.Store.Change(ctx, func(ctx context.Context) error { return h.Store.EndUserSession(ctx, uid, c.Param("id")) })
	if err != nil {
		return err
	}
	return respondAction(c, http.StatusOK, api.SessionsRevoked{Revoked: 1},
		Done{Toast: "Session revoked", Events: []string{"plaza:sessions"}})
}

// RevokeOthers answers DELETE /api/auth/sessions: every session of the
// caller's but the one the request came with ends (all of them for a
// bearer-token caller, which has none).
func (h UserSessions) RevokeOthers(c echo.Context) error {
	ctx := c.Request().Context()
	uid, keep := auth.PrincipalFrom(ctx).UserID, h.Sessions.Token(ctx)
	var n int
	err := h.Store.Change(ctx, func(ctx context.Context) (err error) {
		n, err = h.Store.EndUserSessions(ctx, uid, keep)
		return err
	})
	if err != nil {
		return err
	}
	return respondAction(c, http.StatusOK, api.SessionsRevoked{Revoked: n},
		Done{Toast: revokedToast(n), Events: []string{"plaza:sessions"}})
}

// List answers GET /api/v1/admin/users/{id}/sessions, and the user page's
// sessions card. Unknown user: 404.
func (h UserSessions) List(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := h.userParam(c)
	if err != nil {
		return err
	}
	list, err := h.list(ctx, id)
	if err != nil {
		return err
	}
	pr := auth.PrincipalFrom(ctx)
	l := views.SessionList{Sessions: list, UserID: itoa(id), CanRevoke: pr.Can(auth.PermAdminDelete)}
	return respond(c, http.StatusOK, api.OK(list), View{Partial: views.SessionTable(l)})
}

// RevokeAll answers DELETE /api/v1/admin/users/{id}/sessions: every
// session of the user ends, in the transaction of the audit entry.
func (h UserSessions) RevokeAll(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := h.userParam(c)
	if err != nil {
		return err
	}
	var n int
	err = h.Store.Change(ctx, func(ctx context.Context) (err error) {
		if n, err = h.Store.EndUserSessions(ctx, id, ""); err == nil {
			setAuditTarget(ctx, "user", itoa(id), map[string]any{"revoked": n})
		}
		return err
	})
	if err != nil {
		return err
	}
	return respondAction(c, http.StatusOK, api.OK(api.SessionsRevoked{Revoked: n}),
		Done{Toast: revokedToast(n), Events: []string{"plaza:sessions"}})
}

// RevokeOne answers DELETE /api/v1/admin/users/{id}/sessions/{sessionId}:
// that session of the user ends. A session id the user has not: 404.
func (h UserSessions) RevokeOne(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := h.userParam(c)
	if err != nil {
		return err
	}
	sid := c.Param("sessionId")
	err = h.Store.Change(ctx, func(ctx context.Context) error {
		if err := h.Store.EndUserSession(ctx, id, sid); err != nil {
			return err
		}
		setAuditTarget(ctx, "user", itoa(id), map[string]any{"session": sid})
		return nil
	})
	if err != nil {
		return err
	}
	return respondAction(c, http.StatusOK, api.OK(api.SessionsRevoked{Revoked: 1}),
		Done{Toast: "Session revoked", Events: []string{"plaza:sessions"}})
}

// userParam reads the path's user id and checks that the user exists.
func (h UserSessions) userParam(c echo.Context) (int64, error) {
	id, err := pathID(c)
	if err != nil {
		return 0, err
	}
	if _, err := h.Store.UserByID(c.Request().Context(), id); err != nil {
		return 0, err
	}
	return id, nil
}

// list reads the user's sessions as the API shows them.
func (h UserSessions) list(ctx context.Context, userID int64) ([]api.UserSession, error) {
	rows, err := h.Store.UserSessions(ctx, userID)
	if err != nil {
		return nil, err
	}
	current := ""
	if tok := h.Sessions.Token(ctx); tok != "" {
		current = models.SessionID(tok)
	}
	out := make([]api.UserSession, len(rows))
	for i, r := range rows {
		out[i] = api.UserSession{ID: r.ID, Device: device.Label(r.UserAgent), UserAgent: r.UserAgent, IP: r.IP,
			CreatedAt: api.Timestamp(r.CreatedAt), LastSeenAt: api.Timestamp(r.LastSeenAt),
			ExpiresAt: api.Timestamp(r.Expiry), Current: r.ID == current}
	}
	return out, nil
}

func revokedToast(n int) string {
	switch n {
	case 0:
		return "No other session to revoke"
	case 1:
		return "1 session revoked"
	}
	return itoa(int64(n)) + " sessions revoked"
}
