package handlers

import (
	"context"
	"net/url"
	"strings"
	"time"
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
}

// SessionUserKey is the session key of the signed-in user's id.
const SessionUserKey = "user_id"

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
