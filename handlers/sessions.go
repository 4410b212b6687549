package handlers

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/device"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/views"
)

// SessionStore is what the list of one's own sessions needs of the store.
type SessionStore interface {
	UserSessions(ctx context.Context, userID int64) ([]models.UserSession, error)
}

// UserSessions lists and revokes sessions: one's own under /api/auth and
// the console's account page, a user's under the versioned admin family
// and the console's user page. Revocations are actions.
type UserSessions struct {
	Store    SessionStore
	Actions  *actions.Actions
	Sessions Sessions
}

// Mine answers GET /api/auth/sessions: the caller's live sessions, the one
// the request came with marked current; and the console's "Your sessions"
// page from the same result.
func (h UserSessions) Mine(c echo.Context) error {
	ctx := c.Request().Context()
	noStore(c)
	p := access.PrincipalFrom(ctx)
	if err := h.Actions.ActAsSelf(p, policy.SeeOwnAccount); err != nil {
		return err // a bearer token without account:read sees no addresses
	}
	rows, err := h.Store.UserSessions(ctx, p.UserID)
	if err != nil {
		return err
	}
	list := h.list(ctx, rows)
	l := views.SessionList{Sessions: list, Own: true, CanRevoke: h.Actions.Policy.May(p, policy.RevokeOwnSession, policy.Owned(p.UserID))}
	v := View{Partial: views.SessionTable(l)}
	if api.FormatOf(c.Request()) == api.FormatPage {
		email, err := accountEmail(ctx, h.Actions, p)
		if err != nil {
			return err
		}
		v.Page = views.AccountSessionsPage(l, email)
	}
	return respond(c, http.StatusOK, api.UserSessions{Sessions: list}, v)
}

// RevokeMine answers DELETE /api/auth/sessions/{id}: one of the caller's
// own sessions ends (the current one too: that is signing out). An id of
// no session of the caller's is 404; a bearer token is 403.
func (h UserSessions) RevokeMine(c echo.Context) error {
	ctx := c.Request().Context()
	if err := h.Actions.RevokeOwnSession(ctx, access.PrincipalFrom(ctx), c.Param("id")); err != nil {
		return err
	}
	return respondAction(c, http.StatusOK, api.SessionsRevoked{Revoked: 1},
		Done{Toast: "Session revoked", Events: []string{"plaza:sessions"}})
}

// RevokeOthers answers DELETE /api/auth/sessions: every session of the
// caller's but the one the request came with ends. A bearer token is 403.
func (h UserSessions) RevokeOthers(c echo.Context) error {
	ctx := c.Request().Context()
	n, err := h.Actions.RevokeOtherOwnSessions(ctx, access.PrincipalFrom(ctx), h.Sessions.Token(ctx))
	if err != nil {
		return err
	}
	return respondAction(c, http.StatusOK, api.SessionsRevoked{Revoked: n},
		Done{Toast: revokedToast(n), Events: []string{"plaza:sessions"}})
}

// List answers GET /api/v1/admin/users/{id}/sessions, and the user page's
// sessions card. Unknown user: 404; a super admin's sessions to anyone
// but a super admin: 403.
func (h UserSessions) List(c echo.Context) error {
	ctx := c.Request().Context()
	id, err := pathID(c)
	if err != nil {
		return err
	}
	res, err := h.Actions.UserSessions(ctx, access.PrincipalFrom(ctx), id)
	if err != nil {
		return err
	}
	list := h.list(ctx, res.Sessions)
	l := views.SessionList{Sessions: list, UserID: itoa(id), CanRevoke: res.CanRevoke}
	return respond(c, http.StatusOK, api.OK(list), View{Partial: views.SessionTable(l)})
}

// RevokeAll answers DELETE /api/v1/admin/users/{id}/sessions: every
// session of the user ends, in the transaction of the audit entry.
func (h UserSessions) RevokeAll(c echo.Context) error {
	return h.revoke(c, "")
}

// RevokeOne answers DELETE /api/v1/admin/users/{id}/sessions/{sessionId}:
// that session of the user ends. A session id the user has not: 404.
func (h UserSessions) RevokeOne(c echo.Context) error {
	return h.revoke(c, c.Param("sessionId"))
}

func (h UserSessions) revoke(c echo.Context, sid string) error {
	ctx := c.Request().Context()
	id, err := pathID(c)
	if err != nil {
		return err
	}
	n, err := h.Actions.RevokeUserSessions(ctx, access.PrincipalFrom(ctx), id, sid)
	if err != nil {
		return err
	}
	toast := revokedToast(n)
	if sid != "" {
		toast = "Session revoked"
	}
	return respondAction(c, http.StatusOK, api.OK(api.SessionsRevoked{Revoked: n}),
		Done{Toast: toast, Events: []string{"plaza:sessions"}})
}

// list is the sessions as the API shows them, the one the request came
// with marked current.
func (h UserSessions) list(ctx context.Context, rows []models.UserSession) []api.UserSession {
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
	return out
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
