package web

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/handlers"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/clientnet"
	"github.com/plazahq/plaza/internal/device"
	"github.com/plazahq/plaza/internal/ratelimit"
	"github.com/plazahq/plaza/models"
)

// Scope names a rate limit (docs/api.md, "Rate limits").
type Scope string

// Rate-limit scopes.
const (
	ScopeExempt          Scope = "exempt"           // /api/version, /api/health, console pages, static files
	ScopeAdminV1         Scope = "admin_v1"         // /api/v1/admin: general or super tier per hour
	ScopeAdminSystem     Scope = "admin_system"     // POST /api/v1/admin/system/maintenance per hour
	ScopeAdminUsers      Scope = "admin_users"      // GET /api/admin/users per hour
	ScopeAPIAdmin        Scope = "api_admin"        // other /api/admin/* per hour
	ScopeGeneral         Scope = "general"          // the rest of /api: per user or per IP per hour
	ScopeLinkPreview     Scope = "link_preview"     // per IP per minute
	ScopeOGImage         Scope = "og_image"         // per IP per minute
	ScopeAvatar          Scope = "avatar"           // per IP per minute
	ScopeAnalyticsEvents Scope = "analytics_events" // events per user per minute, counted by the collector
	ScopeSignIn          Scope = "signin"           // failed sign-ins per email and per IP, counted by sign-in
	// ScopePasswordForgot counts POST /api/auth/password/forgot per email
	// and per IP, counted by the action with the email it is given.
	ScopePasswordForgot Scope = "password_forgot"
	// ScopeRegister counts POST /api/users per IP per hour, besides the
	// caller's general window.
	ScopeRegister Scope = "register"
	// ScopeEmailResend counts POST /api/auth/email/resend per account,
	// counted by the action with the account's id.
	ScopeEmailResend Scope = "email_resend"
)

// perCaller reports whether the scope's counters are keyed by the caller,
// so the pipeline must know who is calling.
func (s Scope) perCaller() bool {
	switch s {
	case ScopeAdminV1, ScopeAdminSystem, ScopeAdminUsers, ScopeAPIAdmin, ScopeGeneral, ScopeAnalyticsEvents:
		return true
	case ScopeRegister:
		return true
	}
	return false
}

// bucket is one counter a request counts against.
type bucket struct {
	name string
	rate ratelimit.Rate
	key  string
}

// buckets are the counters of scope s for this request: one per scope,
// keyed by the caller (user, else IP), except for the public utilities
// (IP) and sign-in, which counts by the email tried (subject) and by IP.
// An IP is the client's network (clientnet.Key): an IPv6 client is
// counted by its /64 (RATE_LIMIT_IPV6_PREFIX), whichever of its addresses
// it sends from.
func (p *pipeline) buckets(s Scope, c echo.Context, pr *access.Principal, subject string) []bucket {
	l := p.cfg.RateLimit
	ip := "ip:" + clientnet.Key(c.RealIP(), p.cfg.IPv6Prefix)
	caller := ip
	if pr != nil {
		caller = "u:" + strconv.FormatInt(pr.UserID, 10)
	}
	switch s {
	case ScopeAdminV1:
		if pr.Tier() == access.TierSuper {
			return []bucket{{"admin_v1_super", ratelimit.PerHour(l.AdminSuper), caller}}
		}
		return []bucket{{"admin_v1_general", ratelimit.PerHour(l.AdminGeneral), caller}}
	case ScopeAdminSystem:
		return []bucket{{string(s), ratelimit.PerHour(l.AdminSystem), caller}}
	case ScopeAdminUsers:
		return []bucket{{string(s), ratelimit.PerHour(l.AdminUsers), caller}}
	case ScopeAPIAdmin:
		return []bucket{{string(s), ratelimit.PerHour(l.APIAdmin), caller}}
	case ScopeLinkPreview:
		return []bucket{{string(s), ratelimit.PerMinute(l.LinkPreview), ip}}
	case ScopeOGImage:
		return []bucket{{string(s), ratelimit.PerMinute(l.OGImage), ip}}
	case ScopeAvatar:
		return []bucket{{string(s), ratelimit.PerMinute(l.Avatar), ip}}
	case ScopeAnalyticsEvents:
		return []bucket{{string(s), ratelimit.PerMinute(l.EventsPerMin), caller}}
	case ScopeRegister:
		general := p.buckets(ScopeGeneral, c, pr, subject)
		return append([]bucket{{string(s), ratelimit.PerHour(l.Register), ip}}, general...)
	case ScopeSignIn:
		return p.signInBuckets(c, models.NormalizeEmail(subject), ip)
	case ScopePasswordForgot:
		return []bucket{{string(s), ratelimit.PerHour(ForgotPerEmail), "email:" + models.NormalizeEmail(subject)},
			{string(s), ratelimit.PerHour(ForgotPerIP), ip}}
	case ScopeEmailResend:
		return []bucket{{string(s), ratelimit.PerHour(ResendPerAccount), "u:" + subject}}
	}
	if pr != nil {
		return []bucket{{"general_user", ratelimit.PerHour(l.APIAuthed), caller}}
	}
	return []bucket{{"general_anon", ratelimit.PerHour(l.APIAnonymous), caller}}
}

// The limits of reset links asked for, per hour: per email, so that
// nobody fills a mailbox, and per address, so that nobody mails many.
const (
	ForgotPerEmail = 5
	ForgotPerIP    = 20
)

// ResendPerAccount is how many verification links an account may ask
// for again in an hour: enough for a mail that went astray, too few to
// fill a mailbox.
const ResendPerAccount = 5

// SignInThrottle is the window of failed sign-ins.
const SignInThrottle = 15 * time.Minute

// signInBuckets count failed sign-ins (and confirmations, and password
// changes) for email so that a stranger's guesses do not lock its owner
// out. From a browser with the device cookie of the account that has the
// email now, failures count per device; from any other, per email and
// address, and against a ceiling per email that no one address reaches
// (SignInByEmailTotal), which keeps many addresses from guessing without
// end. Failures from one address count, whatever the email, too.
func (p *pipeline) signInBuckets(c echo.Context, email, ip string) []bucket {
	l := p.cfg.RateLimit
	rate := func(n int) ratelimit.Rate { return ratelimit.Rate{Limit: int64(n), Period: SignInThrottle} }
	byIP := bucket{"signin_failures", rate(l.SignInByIP), ip}
	if id, ok := p.trustedDevice(c, email); ok {
		return []bucket{{"signin_failures", rate(l.SignInByEmail), "device:" + id + ":" + email}, byIP}
	}
	return []bucket{
		{"signin_failures", rate(l.SignInByEmail), "email_ip:" + email + ":" + ip},
		{"signin_failures", rate(l.SignInByEmailTotal), "email:" + email},
		byIP,
	}
}

// trustedDevice names the browser's device when its cookie was made for
// the account that has email now. A cookie of a deleted account, whose
// email someone registered again, vouches for nobody; so does any cookie
// while the account cannot be looked up (the stricter buckets then apply).
func (p *pipeline) trustedDevice(c echo.Context, email string) (string, bool) {
	ck, err := c.Cookie(device.CookieName)
	if err != nil {
		return "", false
	}
	u, err := p.store.Users.UserByEmail(c.Request().Context(), email)
	if err != nil {
		return "", false
	}
	return device.Trusted(p.deviceKey, ck.Value, u.ID, email)
}

// refusal is the public message of a spent window.
func refusal(s Scope, rate ratelimit.Rate) string {
	switch s {
	case ScopeSignIn:
		return "Too many failed sign-ins; try again later"
	case ScopePasswordForgot:
		return "Too many password reset requests; try again later"
	case ScopeEmailResend:
		return "Too many verification links asked for; try again later"
	case ScopeAnalyticsEvents:
		return "Too many events; at most " + strconv.FormatInt(rate.Limit, 10) + " per minute"
	}
	return "Too many requests; try again later"
}

// count takes n hits from each bucket (n == 0 only looks) and is the one
// place that writes X-RateLimit-* headers and refuses with 429: the headers
// describe the tightest window counted (or the spent one a look found), and
// a spent window refuses the request with Retry-After. A limiter error lets
// the request through; Redis being down is none (the limiter then counts in
// memory).
func (p *pipeline) count(c echo.Context, s Scope, bs []bucket, n int64) error {
	ctx := c.Request().Context()
	var (
		tight   ratelimit.Result
		limited *ratelimit.LimitedError
		rate    ratelimit.Rate
	)
	for i, b := range bs {
		res, err := p.hit(ctx, b, n)
		if err != nil {
			le, ok := errors.AsType[*ratelimit.LimitedError](err)
			if !ok {
				p.log.Error("rate limiter unavailable; letting the request through", "scope", string(s), "error", err)
				return nil
			}
			if limited == nil {
				limited, rate = le, b.rate
			}
		}
		if i == 0 || res.Remaining < tight.Remaining {
			tight = res
		}
	}
	if n > 0 || limited != nil {
		setRateHeaders(c.Response().Header(), tight)
	}
	if limited == nil {
		return nil
	}
	wait := int(limited.Result.Reset.Sub(p.now()).Seconds() + 0.999)
	return &api.Error{Status: http.StatusTooManyRequests, Code: api.CodeRateLimited,
		Message: refusal(s, rate), RetryAfter: max(wait, 1), Cause: limited}
}

// hit counts n against a bucket, or with n == 0 reports it as spent when
// nothing is left.
func (p *pipeline) hit(ctx context.Context, b bucket, n int64) (ratelimit.Result, error) {
	if n > 0 {
		return p.limiter.Take(ctx, b.name, b.rate, b.key, n)
	}
	res, err := p.limiter.Peek(ctx, b.name, b.rate, b.key)
	if err == nil && res.Remaining <= 0 {
		err = &ratelimit.LimitedError{Scope: b.name, Result: res}
	}
	return res, err
}

// setRateHeaders writes the X-RateLimit-* headers, by their canonical
// keys (net/http's spelling of X-RateLimit-…), which spares a
// canonicalisation per header per request.
func setRateHeaders(h http.Header, res ratelimit.Result) {
	var buf [64]byte
	b := strconv.AppendInt(buf[:0], res.Limit, 10)
	i := len(b)
	b = strconv.AppendInt(b, max(res.Remaining, 0), 10)
	j := len(b)
	b = strconv.AppendInt(b, res.Reset.Unix(), 10)
	all := string(b) // one string holds the three numbers
	vals := []string{all[:i], all[i:j], all[j:]}
	h["X-Ratelimit-Limit"], h["X-Ratelimit-Remaining"], h["X-Ratelimit-Reset"] = vals[0:1:1], vals[1:2:2], vals[2:3:3]
}

// meter counts a handler-counted scope for one request (handlers.Meter).
type meter struct {
	p     *pipeline
	c     echo.Context
	scope Scope
}

var _ handlers.Meter = meter{}

func (m meter) Check(ctx context.Context, subject string) error {
	return m.p.count(m.c, m.scope, m.p.buckets(m.scope, m.c, access.PrincipalFrom(ctx), subject), 0)
}

func (m meter) Take(ctx context.Context, subject string, n int64) error {
	return m.p.count(m.c, m.scope, m.p.buckets(m.scope, m.c, access.PrincipalFrom(ctx), subject), n)
}

// Refund takes -1 from each bucket, straight from the limiter: the
// response keeps the headers of the Take it undoes. Should the window
// have turned over in between, the new one starts one try richer.
func (m meter) Refund(ctx context.Context, subject string) {
	for _, b := range m.p.buckets(m.scope, m.c, access.PrincipalFrom(ctx), subject) {
		if _, err := m.p.limiter.Take(ctx, b.name, b.rate, b.key, -1); err != nil && !errors.Is(err, ratelimit.ErrLimited) {
			m.p.log.Error("rate limiter unavailable; a refund was lost", "scope", string(m.scope), "error", err)
		}
	}
}
