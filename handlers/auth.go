package handlers

import (
	"context"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/internal/session"
)

// Sessions is what the sign-in handlers need of the session manager
// (*scs.SessionManager fits).
type Sessions interface {
	RenewToken(ctx context.Context) error
	Put(ctx context.Context, key string, val any)
	GetInt64(ctx context.Context, key string) int64
	Remove(ctx context.Context, key string)
	Destroy(ctx context.Context) error
	Deadline(ctx context.Context) time.Time
	SetDeadline(ctx context.Context, expire time.Time)
	Token(ctx context.Context) string
}

// LimitSession makes the session carry lim, counted from started (when
// its user signed in): the store keeps it no longer than lim.Idle past
// each write-back, and its deadline, which the cookie's expiry follows,
// is started plus lim.Lifetime at the latest. It writes nothing when the
// session carries them already.
func LimitSession(ctx context.Context, s Sessions, lim session.Limits, started time.Time) {
	if idle := int64(lim.Idle / time.Second); s.GetInt64(ctx, session.IdleKey) != idle {
		s.Put(ctx, session.IdleKey, idle)
	}
	if end := started.Add(lim.Lifetime); s.Deadline(ctx).After(end) {
		s.SetDeadline(ctx, end)
	}
}

// maxSessionAgent is the longest user agent a session keeps, in bytes: the
// session's data is read on every request.
const maxSessionAgent = 256

// PutSessionClient records in the session the address and browser of the
// request c, to be written back with the session.
func PutSessionClient(ctx context.Context, s Sessions, c echo.Context) {
	ua := c.Request().UserAgent()
	if len(ua) > maxSessionAgent {
		ua = strings.ToValidUTF8(ua[:maxSessionAgent], "")
	}
	s.Put(ctx, session.IPKey, c.RealIP())
	s.Put(ctx, session.AgentKey, ua)
}

// safeCallback returns target when auth.SameSiteTarget accepts it, else
// fallback: sign-in never redirects off-site.
func safeCallback(target, publicURL, fallback string) string {
	if u, ok := auth.SameSiteTarget(target, publicURL); ok {
		return u
	}
	return fallback
}
