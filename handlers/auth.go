package handlers

import (
	"context"
	"net/url"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
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
	Token(ctx context.Context) string
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

// safeCallback returns target when it points at this site (a path, or an
// absolute URL with PUBLIC_APP_URL's origin), else fallback: sign-in never
// redirects off-site.
func safeCallback(target, publicURL, fallback string) string {
	if target == "" {
		return fallback
	}
	if strings.HasPrefix(target, "/") {
		if strings.HasPrefix(target, "//") || strings.HasPrefix(target, "/\\") {
			return fallback
		}
		return target
	}
	u, err := url.Parse(target)
	base, berr := url.Parse(publicURL)
	if err != nil || berr != nil || u.Scheme != base.Scheme || u.Host != base.Host {
		return fallback
	}
	return u.RequestURI()
}
