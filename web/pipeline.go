package web

import (
	"cmp"
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/alexedwards/scs/v2"
	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/handlers"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/internal/metrics"
	"github.com/plazahq/plaza/internal/ratelimit"
	"github.com/plazahq/plaza/internal/session"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/views"
)

// pipeline holds what the per-route middleware needs (docs/architecture.md,
// "The request pipeline"): edge → text check → block check → authentication →
// blocked session → audit → cross-origin check → rate limit → meter →
// authorization → handler.
type pipeline struct {
	cfg        config.Config
	store      *models.Store
	sessions   *scs.SessionManager
	limiter    *ratelimit.Limiter
	auditor    *models.AuditBatcher
	log        *slog.Logger
	now        func() time.Time
	cop        *http.CrossOriginProtection
	principals *auth.PrincipalCache
	metrics    *metrics.Metrics
	ids        *requestIDs
	headers    http.Header // the security headers
	blocks     BlockGuard
	policy     policy.Policy
	gates      gates        // the route table, for what the console shows (abilities)
	static     *staticFiles // the versions pages link static files by
	queue      handlers.QueueCounter
	deviceKey  []byte    // signs device cookies (device.Key)
	refusals   refusals  // refusals counted rather than audited one by one
	refreshes  refreshes // the console's refreshes, audited once a minute
	limits     sessionLimits
}

type authErrKey struct{}
type metricsBearerKey struct{}

// chain is the middleware a route runs through, from what it declares:
// a route that needs no caller loads no session and looks up no principal.
func (p *pipeline) chain(r Route) []echo.MiddlewareFunc {
	mws := append(p.edge(r), p.checkText)
	if r.Blockable {
		mws = append(mws, p.refuseBlocked(r))
	}
	if r.needsCaller() {
		mws = append(mws, p.loadSession(r), p.authenticate(r))
		if r.Family == api.FamilyConsole {
			mws = append(mws, p.queueBadge)
		}
		if r.Blockable || r.endsBlockedSessions() {
			mws = append(mws, p.blockedSession(r))
		}
	}
	if r.Audit.Action != "" {
		mws = append(mws, p.audit(r))
	}
	if r.needsCaller() {
		mws = append(mws, p.crossOrigin)
	}
	mws = append(mws, p.rateLimit(r))
	if r.Meter != "" {
		mws = append(mws, p.meter(r.Meter))
	}
	return append(mws, p.authorize(r))
}

// refuseBlocked refuses a request whose client address (TRUSTED_PROXIES
// aware, ipExtractor) a block covers, from the instance's cache of blocks,
// before anything else is read. A request with the session cookie is left
// to blockedSession, which ends that session before refusing it.
func (p *pipeline) refuseBlocked(r Route) echo.MiddlewareFunc {
	later := r.needsCaller() && r.endsBlockedSessions()
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if later && p.hasSessionCookie(c) {
				return next(c)
			}
			if err := p.blocks.RefuseIP(c.Request().Context(), c.RealIP()); err != nil {
				return err
			}
			return next(c)
		}
	}
}

// endsBlockedSessions reports whether a session seen on the route from a
// blocked address ends: on every route but the admin ones (which a block
// never touches, so that it can be undone) and sign-out (which ends the
// session anyway).
func (r Route) endsBlockedSessions() bool {
	return !r.admin() && !r.BlockExempt
}

// blockedSession ends a session seen from a blocked address, as a ban
// ends a banned user's: its row is marked expired, the request is refused
// 403 IP_BLOCKED, and the user signs in again from an allowed address. A
// block is meant to keep a range from acting, and a session opened
// elsewhere (or before the block) would otherwise carry on from it.
//
// Staff sessions live on: an admin who blocks its own range must keep the
// session that lifts the block, since signing in from the range is refused
// and the admin routes are never blocked; and a moderator's session is a
// named person's, not an abuser's. Their requests to blockable routes are
// refused all the same.
func (p *pipeline) blockedSession(r Route) echo.MiddlewareFunc {
	ends := r.endsBlockedSessions()
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if !p.hasSessionCookie(c) {
				return next(c) // refuseBlocked has checked a blockable route already
			}
			ctx := c.Request().Context()
			pr := access.PrincipalFrom(ctx)
			end := ends && pr != nil && pr.Via == access.ViaSession && !pr.Staff()
			if !end && !r.Blockable {
				return next(c)
			}
			err := p.blocks.RefuseIP(ctx, c.RealIP())
			if err == nil {
				return next(c)
			}
			if end && errors.Is(err, api.ErrIPBlocked) {
				if derr := p.sessions.Destroy(ctx); derr != nil {
					return derr
				}
			}
			return err
		}
	}
}

// loadSession runs scs's LoadAndSave around the rest of the chain: the
// session is read before the handler, and written back as the handler
// starts its answer. Should the store fail either way (the database away),
// the failure becomes the request's error, which the error handler answers
// in the route's family (503 when the database is away) rather than with
// scs's plain-text 500 or, for a failed write-back, the handler's answer
// without its session: what the handler wrote is dropped.
//
// An API client on the admin families (a bearer token, no session cookie)
// has no session to read, and no handler there writes one: it gets an
// empty session that is never saved, and skips the rest, which is most of
// what a session costs a request that has none.
func (p *pipeline) loadSession(r Route) echo.MiddlewareFunc {
	clients := r.Family == api.FamilyV1 || r.Family == api.FamilyAdmin
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		wrapped := echo.WrapMiddleware(p.sessions.LoadAndSave)(next)
		return func(c echo.Context) error {
			if clients && p.tokenOnly(c) {
				return p.withoutSession(c, next)
			}
			return p.withSession(c, wrapped)
		}
	}
}

func (p *pipeline) tokenOnly(c echo.Context) bool {
	_, ok := bearer(c.Request())
	return ok && !p.hasSessionCookie(c)
}

// withoutSession runs next with an empty session that is never saved;
// loading one without a token reads nothing from the store.
func (p *pipeline) withoutSession(c echo.Context, next echo.HandlerFunc) error {
	req := c.Request()
	ctx, err := p.sessions.Load(req.Context(), "")
	if err != nil {
		return err
	}
	c.SetRequest(req.WithContext(ctx))
	return next(c)
}

func (p *pipeline) withSession(c echo.Context, wrapped echo.HandlerFunc) error {
	resp, req := c.Response(), c.Request()
	header := maps.Clone(resp.Header()) // shallow: handlers replace values, never edit them in place
	gate := &sessionGate{ResponseWriter: resp.Writer}
	resp.Writer = gate
	c.SetRequest(req.WithContext(context.WithValue(req.Context(), sessionFailureKey{}, &gate.failed)))
	err := wrapped(c)
	resp.Writer = gate.ResponseWriter
	if gate.failed == nil {
		return err
	}
	c.SetResponse(resp) // echo's wrapper left the handler's in place
	hdr := resp.Header()
	clear(hdr)
	maps.Copy(hdr, header)
	resp.Committed, resp.Status, resp.Size = false, http.StatusOK, 0
	return fmt.Errorf("session store: %w", gate.failed)
}

// sessionGate stands between scs and the client: once the session could
// not be read or written back, nothing more reaches the client, and the
// handler's writes fail, so that a stream ends.
type sessionGate struct {
	http.ResponseWriter
	failed error
}

func (g *sessionGate) WriteHeader(code int) {
	if g.failed == nil {
		g.ResponseWriter.WriteHeader(code)
	}
}

func (g *sessionGate) Write(b []byte) (int, error) {
	if g.failed != nil {
		return 0, g.failed
	}
	return g.ResponseWriter.Write(b)
}

// Flush sends what is written so far, unless the session failed.
func (g *sessionGate) Flush() {
	if f, ok := g.ResponseWriter.(http.Flusher); ok && g.failed == nil {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (g *sessionGate) Unwrap() http.ResponseWriter { return g.ResponseWriter }

// sessionFailureKey carries, in a request's context, where scs's ErrorFunc
// (sessionFailed) puts a store failure for loadSession's gate.
type sessionFailureKey struct{}

// sessionFailed is the session manager's ErrorFunc: it hands the failure
// to loadSession. Outside the pipeline, where no one would, it answers as
// scs does by default.
func sessionFailed(w http.ResponseWriter, r *http.Request, err error) {
	if failed, ok := r.Context().Value(sessionFailureKey{}).(*error); ok {
		*failed = err
		return
	}
	http.Error(w, http.StatusText(http.StatusInternalServerError), http.StatusInternalServerError)
}

func (p *pipeline) hasSessionCookie(c echo.Context) bool {
	_, err := c.Request().Cookie(p.sessions.Cookie.Name)
	return err == nil
}

// authenticate turns a bearer token or the session cookie into the
// request's principal. A bad token leaves the caller anonymous and is
// reported only by routes that need a caller. Staff get what console pages
// are drawn with, except on the JSON-only admin families (a versioned
// route asked by htmx excepted).
func (p *pipeline) authenticate(r Route) echo.MiddlewareFunc {
	pages := r.Family != api.FamilyV1 && r.Family != api.FamilyAdmin
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			// A versioned route htmx asks for draws a console partial
			// (a webhook's delivery log), whose buttons follow the viewer.
			return p.authenticated(c, next, pages || (r.Family == api.FamilyV1 && c.Request().Header.Get("HX-Request") == "true"))
		}
	}
}

func (p *pipeline) authenticated(c echo.Context, next echo.HandlerFunc, pages bool) error {
	ctx := c.Request().Context()
	var pr *access.Principal
	var err error
	if raw, ok := bearer(c.Request()); ok {
		if p.cfg.MetricsToken != "" && subtle.ConstantTimeCompare([]byte(raw), []byte(p.cfg.MetricsToken)) == 1 {
			ctx = context.WithValue(ctx, metricsBearerKey{}, true)
		} else if pr, err = p.fromToken(ctx, raw); models.Unavailable(err) != nil {
			return err // the token may be good: 503, not 401
		} else if err != nil {
			ctx = context.WithValue(ctx, authErrKey{}, err)
		}
	} else {
		pr, err = p.fromSession(ctx, c)
		if err != nil {
			return err
		}
	}
	ctx = access.WithPrincipal(ctx, pr)
	if pages && pr.Can(access.PermPostsModerate) {
		ctx = views.WithNow(views.WithViewer(ctx, p.viewerOf(pr)), p.now())
	}
	c.SetRequest(c.Request().WithContext(ctx))
	return next(c)
}

// queueBadge gives a console page drawn for a moderator the count of posts
// awaiting a decision, for the sidebar's badge: one counter read, for
// pages only (never for a partial or JSON). A failed read leaves the badge
// out rather than failing the page.
func (p *pipeline) queueBadge(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		if !views.Allowed(req.Context()).Pages[api.PathConsoleModeration] || api.FormatOf(req) != api.FormatPage {
			return next(c)
		}
		if n, err := p.queue.QueueCount(req.Context()); err == nil {
			c.SetRequest(req.WithContext(views.WithQueueCount(req.Context(), n)))
		}
		return next(c)
	}
}

// viewerOf is the staff member a console page is drawn for.
func (p *pipeline) viewerOf(pr *access.Principal) views.Viewer {
	return views.Viewer{ID: pr.UserID, Name: cmp.Or(pr.Name, pr.Username), Email: pr.Email, Role: pr.Role(),
		May: p.abilities(pr), TwoFactor: pr.TwoFactor}
}

func bearer(r *http.Request) (string, bool) {
	h := r.Header.Get(echo.HeaderAuthorization)
	scheme, token, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
		return "", false
	}
	return strings.TrimSpace(token), true
}

// fromToken checks an admin JWT against its record and its user's standing
// now: the effective permissions are the token's intersected with those
// its record was minted with and with what the user's roles grant today
// (the account scopes, which bound what it does as its user, stay), so
// demoting or banning a user disables its tokens too, and a token re-signed
// with a leaked secret gains neither permissions nor time over its record.
func (p *pipeline) fromToken(ctx context.Context, raw string) (*access.Principal, error) {
	now := p.now()
	if pr, ok := p.principals.Get(raw, now); ok {
		return pr, nil
	}
	gen := p.principals.Generation()
	claims, err := auth.ParseToken([]byte(p.cfg.JWTSecret), raw, now)
	if err != nil {
		return nil, err
	}
	acc, err := p.store.Users.TokenAccountByJTI(ctx, claims.ID)
	if err != nil && !errors.Is(err, models.ErrNotFound) {
		return nil, err
	}
	if err != nil || acc.TokenRevokedAt != nil || acc.ID != claims.UserID || acc.Status != models.UserActive ||
		!now.Before(acc.TokenExpiresAt) {
		return nil, auth.ErrInvalidToken
	}
	pr := principalOf(&acc.Account, access.ViaToken)
	pr.Permissions = access.TokenGrant(access.Permissions(claims.Permissions).Intersect(access.Permissions(acc.TokenPermissionList())), pr.Roles)
	pr.TokenID = claims.ID
	if acc.TokenLastUsedAt == nil || now.Sub(*acc.TokenLastUsedAt) > time.Minute {
		go p.touchToken(claims.ID) // bookkeeping only; the request does not wait for it
	}
	p.principals.Put(raw, pr, gen, now, earliest(claims.ExpiresAt, acc.TokenExpiresAt))
	return pr, nil
}

func earliest(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

func (p *pipeline) touchToken(jti string) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := p.store.Auth.TouchAPIToken(ctx, jti); err != nil {
		p.log.Warn("record token use", "error", err)
	}
}

// fromSession reads the signed-in user from the session. A banned or
// deactivated user's session is destroyed on its next request. The
// once-a-minute write-back also records where the session was last used
// from, for the user's list of sessions, at no cost to other requests.
func (p *pipeline) fromSession(ctx context.Context, c echo.Context) (*access.Principal, error) {
	uid := p.sessions.GetInt64(ctx, session.UserKey)
	if uid == 0 {
		return nil, nil
	}
	key, now := "user:"+strconv.FormatInt(uid, 10), p.now()
	pr, err := p.sessionPrincipal(ctx, key, uid, now)
	if pr == nil || err != nil {
		return nil, err
	}
	if over, err := p.limitSession(ctx, pr, now); over || err != nil {
		return nil, err
	}
	if now.Unix()-p.sessions.GetInt64(ctx, session.SeenKey) >= int64(sessionRefresh/time.Second) {
		p.sessions.Put(ctx, session.SeenKey, now.Unix()) // written back after the handler, moving the idle deadline
		handlers.PutSessionClient(ctx, p.sessions, c)
	}
	return p.withConfirmation(ctx, pr), nil
}

// limitSession ends a session past the limits of its user's role now
// (a staff member's are shorter than a member's), and otherwise makes it
// carry them, so that the store and the cookie end it in time too. A
// member promoted mid-session is held to the staff limits from the next
// request on, counted from the sign-in.
func (p *pipeline) limitSession(ctx context.Context, pr *access.Principal, now time.Time) (over bool, err error) {
	lim := p.limits.of(pr)
	started := sessionStarted(ctx, p.sessions)
	seen := started
	if at := p.sessions.GetInt64(ctx, session.SeenKey); at != 0 {
		seen = time.Unix(at, 0)
	}
	if lim.Over(started, seen, now) {
		return true, p.sessions.Destroy(ctx)
	}
	handlers.LimitSession(ctx, p.sessions, lim, started)
	return false, nil
}

// sessionStarted is when the session's user signed in. A session from
// before sessions recorded it began a member's lifetime before its
// deadline.
func sessionStarted(ctx context.Context, sm *scs.SessionManager) time.Time {
	if at := sm.GetInt64(ctx, session.StartedKey); at != 0 {
		return time.Unix(at, 0)
	}
	return sm.Deadline(ctx).Add(-SessionLifetime)
}

// withConfirmation is pr with when this session last confirmed its password
// or code: a copy, since pr is shared by every session of the user.
func (p *pipeline) withConfirmation(ctx context.Context, pr *access.Principal) *access.Principal {
	at := p.sessions.GetInt64(ctx, session.ConfirmedKey)
	if at == 0 {
		return pr
	}
	cp := *pr
	cp.ConfirmedAt = time.Unix(at, 0)
	return &cp
}

// sessionPrincipal is the principal of the signed-in user uid, from the
// instance's cache when nothing changed; nil when the user may no longer
// sign in, whose session is then destroyed.
func (p *pipeline) sessionPrincipal(ctx context.Context, key string, uid int64, now time.Time) (*access.Principal, error) {
	if pr, ok := p.principals.Get(key, now); ok {
		return pr, nil
	}
	gen := p.principals.Generation()
	acc, err := p.store.Users.AccountByID(ctx, uid)
	if errors.Is(err, models.ErrNotFound) || err == nil && acc.Status != models.UserActive {
		return nil, p.sessions.Destroy(ctx)
	}
	if err != nil {
		return nil, err
	}
	pr := principalOf(acc, access.ViaSession)
	p.principals.Put(key, pr, gen, now, time.Time{})
	return pr, nil
}

func principalOf(acc *models.Account, via string) *access.Principal {
	roles := acc.Roles()
	pr := &access.Principal{UserID: acc.ID, Username: acc.Username, Email: acc.Email,
		Roles: roles, Permissions: access.RolePermissions(roles), Via: via, TwoFactor: acc.TwoFactor}
	if acc.Name != nil {
		pr.Name = *acc.Name
	}
	if acc.Image != nil {
		pr.Image = *acc.Image
	}
	return pr
}

// crossOrigin refuses cross-site unsafe requests that ride on the session
// cookie; bearer-authenticated requests carry no ambient credential.
func (p *pipeline) crossOrigin(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if _, ok := bearer(c.Request()); !ok {
			if err := p.cop.Check(c.Request()); err != nil {
				return api.ErrCrossOrigin
			}
		}
		return next(c)
	}
}

// rateLimit counts the request against its route's scope (and sets
// X-Admin-Tier on the v1 family).
func (p *pipeline) rateLimit(r Route) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		if r.Scope == ScopeExempt {
			return next
		}
		return func(c echo.Context) error {
			pr := access.PrincipalFrom(c.Request().Context())
			if r.Scope == ScopeAdminV1 || r.Scope == ScopeAdminSystem {
				c.Response().Header().Set("X-Admin-Tier", pr.Tier())
			}
			if err := p.count(c, r.Scope, p.buckets(r.Scope, c, pr, ""), 1); err != nil {
				return err
			}
			return next(c)
		}
	}
}

// meter hands the handler the Meter of a scope it counts itself.
func (p *pipeline) meter(s Scope) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			req := c.Request()
			c.SetRequest(req.WithContext(handlers.WithMeter(req.Context(), meter{p: p, c: c, scope: s})))
			return next(c)
		}
	}
}

// authorize enforces the route's declared needs: a signed-in caller and
// every listed permission, and the admin role behind the versioned
// family's gate, whose permission the request then carries to the policy
// (access.Principal.Gate).
func (p *pipeline) authorize(r Route) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		if len(r.Permissions) == 0 && !r.SignIn {
			return next
		}
		return func(c echo.Context) error {
			ctx := c.Request().Context()
			if r.MetricsToken && ctx.Value(metricsBearerKey{}) == true {
				return next(c)
			}
			pr := access.PrincipalFrom(ctx)
			if pr == nil {
				if ctx.Value(authErrKey{}) != nil {
					return api.ErrInvalidToken
				}
				return api.ErrUnauthorized
			}
			if err := p.gate(pr, r); err != nil {
				return err
			}
			if r.Gate != "" {
				c.SetRequest(c.Request().WithContext(access.WithPrincipal(ctx, pr.Through(r.Gate))))
			}
			return next(c)
		}
	}
}

// gate is the route's own check of a signed-in caller: every listed
// permission, and the staff second factor where the instance requires it.
func (p *pipeline) gate(pr *access.Principal, r Route) error {
	for _, perm := range r.Permissions {
		if !pr.Can(perm) {
			return &api.PermissionError{Required: perm}
		}
	}
	if r.Gate != "" && !pr.HasAdminRole() {
		return &api.PermissionError{Required: r.Gate} // the versioned family is the admin role's
	}
	if pr.Via == access.ViaSession && len(r.Permissions) > 0 && p.policy.MustEnrol(pr) && !pr.TwoFactor {
		return errTwoFactorRequired
	}
	return nil
}

var (
	errTwoFactorRequired = &api.Error{Status: http.StatusForbidden, Code: api.CodeTwoFactorRequired,
		Message: "Staff accounts must turn on two-factor sign-in first: " + api.PathConsoleTwoFactor}
	errSudoRequired = &api.Error{Status: http.StatusForbidden, Code: api.CodeSudoRequired,
		Message: "Confirm your password or code first (POST " + api.PathConfirm + "), then try again"}
)

// audit opens the request's audit entry and its unit of work. When the
// handler made changes and succeeded, the entry is written with the
// response status in the changes' transaction, which commits before the
// response (held until then) is sent; otherwise the changes roll back and
// the entry is queued with the final status. A unit of work that lost a
// race for its rows (models.Raced) rolled back whole, entry included, and
// nothing of it was sent: the request runs again, from a fresh unit of
// work and the same body, up to raceAttempts times.
func (p *pipeline) audit(r Route) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			req := c.Request()
			ctx := req.Context()
			body := replayable(req)
			for attempt := 1; ; attempt++ {
				d, status, written, err := p.attempt(c, req, r, next)
				if attempt < raceAttempts && models.Raced(err) && !c.Response().Committed && body.rewind() && raceBackoff(ctx, attempt) {
					p.log.Info("request raced another for its rows; running it again", "error", err, "attempt", attempt)
					continue
				}
				if !written && d.Wanted() && (!aggregated(d, status) || p.refusals.admit(d, status, p.now())) &&
					(!consoleRefresh(req, d, status) || p.refreshes.admit(d, req.URL.RequestURI(), p.now())) {
					p.auditor.Enqueue(models.EntryOf(d, status))
				}
				return err
			}
		}
	}
}

// attempt runs the handler once in a unit of work of its own.
func (p *pipeline) attempt(c echo.Context, req *http.Request, r Route, next echo.HandlerFunc) (d *audit.Draft, status int, written bool, err error) {
	ctx := req.Context()
	d = &audit.Draft{Action: r.Audit.Action, TargetType: r.Audit.Target, TargetID: c.Param("id"),
		IPAddress: c.RealIP(), UserAgent: req.UserAgent(), Optional: r.Audit.Optional}
	if pr := access.PrincipalFrom(ctx); pr != nil {
		d.AdminID, d.AdminUsername = &pr.UserID, pr.Username
	}
	w := p.store.NewWork(d)
	c.SetRequest(req.WithContext(models.WithWork(audit.WithDraft(ctx, d), w)))
	held := holdResponse(c.Response(), w)
	err = next(c)
	status = c.Response().Status
	if err != nil {
		status = classify(err).Status
	}
	written, ferr := w.Finish(ctx, err == nil && status < http.StatusBadRequest, status)
	switch {
	case ferr != nil:
		held.discard()
		err, status = ferr, classify(ferr).Status // 503 when the database went away
	case models.Raced(err):
		held.discard()
	default:
		if werr := held.release(); werr != nil {
			p.log.Warn("send response", "error", werr)
		}
	}
	return d, status, written, err
}
