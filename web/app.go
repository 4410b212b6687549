// Package web is Plaza's composition root for HTTP: it builds the echo app,
// its middleware chain, the route table and the one error handler.
package web

import (
	"cmp"
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/alexedwards/scs/v2"

	"github.com/labstack/echo/v4"
	"github.com/markbates/goth"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/handlers"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/analytics"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/internal/avatar"
	"github.com/plazahq/plaza/internal/blocks"
	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/internal/csrf"
	"github.com/plazahq/plaza/internal/device"
	"github.com/plazahq/plaza/internal/flags"
	"github.com/plazahq/plaza/internal/fresh"
	"github.com/plazahq/plaza/internal/linkpreview"
	"github.com/plazahq/plaza/internal/live"
	"github.com/plazahq/plaza/internal/mail"
	"github.com/plazahq/plaza/internal/metrics"
	"github.com/plazahq/plaza/internal/quotes"
	"github.com/plazahq/plaza/internal/ratelimit"
	"github.com/plazahq/plaza/internal/session"
	"github.com/plazahq/plaza/internal/webhook"
	"github.com/plazahq/plaza/models"
)

// Deps is everything the web layer needs, built once (app.Runtime.Web)
// and all required.
type Deps struct {
	// Webhooks checks webhook targets against the address policy.
	Webhooks *webhook.Sender
	// Mail writes the community's messages (the actions queue them in the
	// outbox); Config.SMTP says whether they are sent or held.
	Mail    *mail.Composer
	Config  config.Config
	Store   *models.Store
	Logger  *slog.Logger
	Static  fs.FS // the embedded static/ folder
	Version string
	// VersionErr says why Version is empty; /api/version then answers 500.
	VersionErr error
	Started    time.Time
	Now        func() time.Time
	Sessions   *scs.SessionManager
	Limiter    *ratelimit.Limiter
	// Audit writes the entries of requests that change nothing.
	Audit   *models.AuditBatcher
	Metrics *metrics.Metrics
	// Events is the analytics group-commit writer (NewCollector).
	Events *analytics.Batcher[models.AnalyticsEvent]
	// Principals remembers checked callers, Flags the feature flags (Caches).
	Principals *auth.PrincipalCache
	Flags      *flags.Cache
	// Blocks holds the list of blocks the pipeline and registration check.
	Blocks *blocks.Cache
	// Moderation is the moderation queue's news on this instance
	// (NewModerationFeed); the server closes it as it stops.
	Moderation *ModerationFeed
	// Streams bounds the moderation queue's streams open on this
	// instance, per user and in all (NewStreamSlots).
	Streams *live.Slots
	// QueueHeartbeat is how often a quiet stream of the queue sends a
	// comment line; zero means every 25 s. Tests shorten it.
	QueueHeartbeat time.Duration
	// OAuthProviders are the enabled external sign-in providers.
	OAuthProviders []goth.Provider
	// Quotes gives the og-image its quotes when none is asked for.
	Quotes handlers.QuoteSource
	// Passwords checks and hashes the passwords requests give;
	// auth.SharedPasswords() when nil (tests inject their own to count).
	Passwords *auth.Passwords
	// ExtraRoutes join the route table: tests mount probes behind the
	// real pipeline with them.
	ExtraRoutes []Route

	// self is the app being built, for what answers from the app's own
	// pages in process (link previews of internal paths); New fills it.
	self *selfRouter
}

// selfRouter is the echo app, known only once New has built it: the route
// table it serves is made first, and one of its handlers calls back into it.
type selfRouter struct{ e atomic.Pointer[echo.Echo] }

// selfHandler is the app as a handler, nil for a route table made without
// New (the OpenAPI document's), which serves nothing.
func (d Deps) selfHandler() http.Handler {
	if d.self == nil {
		return nil
	}
	return d.self
}

func (s *selfRouter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.e.Load().ServeHTTP(w, r)
}

// check names the first dependency missing: every one is required, so
// that the app is built one way, by app.Runtime.Web.
func (d Deps) check() error {
	for name, missing := range map[string]bool{
		"Store": d.Store == nil, "Logger": d.Logger == nil, "Static": d.Static == nil, "Now": d.Now == nil,
		"Sessions": d.Sessions == nil, "Limiter": d.Limiter == nil, "Audit": d.Audit == nil, "Metrics": d.Metrics == nil,
		"Events": d.Events == nil, "Principals": d.Principals == nil, "Flags": d.Flags == nil, "Quotes": d.Quotes == nil,
		"Blocks": d.Blocks == nil, "Moderation": d.Moderation == nil, "Streams": d.Streams == nil,
	} {
		if missing {
			return fmt.Errorf("web.New: Deps.%s is required", name)
		}
	}
	return nil
}

// maxBody is the largest request body Plaza reads.
const maxBody = "1M"

// New builds the echo app with the request pipeline of docs/architecture.md.
func New(d Deps) (*echo.Echo, error) {
	if err := d.check(); err != nil {
		return nil, err
	}
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.IPExtractor = ipExtractor(d.Config.TrustedProxies)
	d.self = &selfRouter{}
	families := register(e, newPipeline(d), append(Routes(d), d.ExtraRoutes...))
	e.HTTPErrorHandler = errorHandler(d.Logger, families, d.Config.PublicAppURL, d.Metrics)
	d.self.e.Store(e)
	return e, nil
}

// Routes is the route table over the handlers built from d.
func Routes(d Deps) []Route {
	return blockUnsafeRoutes(routes(d, newHandlers(d)))
}

func newPipeline(d Deps) *pipeline {
	return &pipeline{cfg: d.Config, store: d.Store, sessions: d.Sessions, limiter: d.Limiter, auditor: d.Audit,
		log: d.Logger, now: d.Now, cop: crossOriginProtection(d.Config.PublicAppURL), principals: d.Principals,
		metrics: d.Metrics, ids: newRequestIDs(), headers: securityHeaders(d.Config.PublicAppURL), blocks: blockCheck(d),
		policy: policyOf(d), static: newStaticFiles(d.Static), queue: d.Store.Desk, deviceKey: device.Key(d.Config.SessionSecret),
		limits: newSessionLimits(d.Config)}
}

// policyOf is the instance's policy: the one rule book every door asks.
func policyOf(d Deps) policy.Policy {
	return policy.Policy{RequireStaff2FA: d.Config.RequireStaff2FA, Now: d.Now}
}

func blockCheck(d Deps) BlockGuard {
	return BlockGuard{Store: d.Store.Blocklist, Cache: d.Blocks, Now: d.Now, IPv6Prefix: d.Config.IPv6Prefix}
}

func newHandlers(d Deps) handlerSet {
	health := handlers.Health{DB: d.Store, Replica: d.Store.Maintenance, Limiter: d.Limiter, Version: d.Version, Started: d.Started, Now: d.Now}
	providers := oauthProviderList(d.OAuthProviders, d.Config.PublicAppURL)
	factor := handlers.SecondFactor{Store: struct {
		models.Auth
		models.Users
	}{d.Store.Auth, d.Store.Users}, Now: d.Now}
	acts := actions.New(d.Store, policyOf(d), []byte(d.Config.JWTSecret), blockCheck(d))
	if d.Passwords != nil {
		acts.Passwords = d.Passwords
	}
	acts.Targets = d.Webhooks
	acts.Mail, acts.SendMail = d.Mail, d.Config.SMTP.Host != ""
	acts.RequireVerifiedEmail = d.Config.RequireVerifiedEmail
	acts.PurgeConfirmAbove = d.Config.PurgeConfirmAbove
	signIn := handlers.SignIn{Users: d.Store.Users, Passwords: acts, Standing: acts, DeviceKey: device.Key(d.Config.SessionSecret), Sessions: d.Sessions, Factor: factor, Providers: providers, PublicURL: d.Config.PublicAppURL, Now: d.Now,
		SessionLimits: newSessionLimits(d.Config).forRoles}
	links := handlers.ProviderLinks{Store: d.Store.Auth, Providers: providers}
	oauth := handlers.OAuth{Providers: d.OAuthProviders, Users: d.Store.Users, Sessions: d.Sessions, SignIn: signIn,
		Actions: acts, Links: links}
	csrfCookie := handlers.CSRFCookie{Key: csrf.Key(d.Config.SessionSecret), Secure: strings.HasPrefix(d.Config.PublicAppURL, "https://")}
	openAPI, apiDocs := openAPIOnce(d)
	return handlerSet{
		health:  health,
		version: handlers.Version{Version: d.Version, Err: d.VersionErr},
		dashboard: handlers.Dashboard{Health: health, Stats: struct {
			models.Analytics
			models.Desk
		}{d.Store.Analytics, d.Store.Desk}, Analytics: handlers.Analytics{Store: d.Store.Analytics, Now: d.Now}, Policy: acts.Policy},
		signIn:    signIn,
		oauth:     oauth,
		signOut:   handlers.SignOut{Sessions: d.Sessions, CSRF: csrfCookie, PublicURL: d.Config.PublicAppURL},
		nextAuth:  handlers.NextAuth{CSRF: csrfCookie, OAuth: oauth},
		twoFactor: handlers.TwoFactor{Actions: acts, Factor: factor, Sessions: d.Sessions, Issuer: "Plaza", Links: links},
		session:   handlers.Session{Sessions: d.Sessions},
		providers: handlers.Providers{List: providers, PublicURL: d.Config.PublicAppURL},
		tokens:    handlers.Tokens{Store: d.Store.Auth, People: d.Store.Users, Actions: acts},
		audit: handlers.AuditLogs{Store: d.Store.Audit, People: d.Store.Users, Actions: acts, Log: d.Logger, Now: d.Now,
			Reads: readActions(routes(d, handlerSet{}))},
		locks: handlers.Locks{Actions: acts},
		adminUsers: handlers.AdminUsers{Store: struct {
			models.Users
			models.Analytics
		}{d.Store.Users, d.Store.Analytics}, Actions: acts, Started: d.Started, Now: d.Now, Database: d.Store.Dialect()},
		v1Users: handlers.V1Users{Store: struct {
			models.Users
			models.Desk
			models.Sanctions
		}{d.Store.Users, d.Store.Desk, d.Store.Sanctions}, People: d.Store.Users, Actions: acts, Reasons: handlers.ModerationReasons{Store: d.Store.Settings}, Now: d.Now},
		v1Posts: handlers.V1Posts{Store: struct {
			models.Posts
			models.Desk
			models.Users
		}{d.Store.Posts, d.Store.Desk, d.Store.Users}, Actions: acts, Reasons: handlers.ModerationReasons{Store: d.Store.Settings}},
		flags:       handlers.FeatureFlags{Store: d.Store.Settings, Actions: acts, Cache: d.Flags},
		reasons:     handlers.ModerationReasons{Store: d.Store.Settings, Actions: acts},
		newAccounts: handlers.NewAccounts{Store: d.Store.Settings, Actions: acts},
		inbox:       handlers.Notifications{Store: d.Store.Notices, Actions: acts},
		broadcasts:  handlers.Broadcasts{Store: d.Store.Notices, People: d.Store.Users, Actions: acts},
		webhooks:    handlers.Webhooks{Store: d.Store.Hooks, People: d.Store.Users, Actions: acts},
		analytics:   handlers.Analytics{Store: d.Store.Analytics, Now: d.Now},
		reports:     handlers.Reports{Store: d.Store.Analytics, People: d.Store.Users, Now: d.Now, Log: d.Logger},
		system:      handlers.System{Store: d.Store.Maintenance, People: d.Store.Users, Actions: acts, Sessions: d.Sessions},
		backups:     handlers.Backups{Dir: d.Config.BackupDir, Actions: acts},
		collect:     handlers.CollectEvent{Queue: d.Events, Hasher: analytics.NewHasher(d.Store.Analytics), Sessions: d.Sessions, Now: d.Now},
		ogImage:     handlers.OGImage{Quotes: d.Quotes, Avatar: avatar.Render, Log: d.Logger},
		ogViewer:    handlers.OGViewer{Quotes: d.Quotes, PublicURL: d.Config.PublicAppURL},
		static:      newStaticFiles(d.Static).Handle,
		search:      handlers.Search{Store: d.Store.Search, Policy: acts.Policy},
		users:       handlers.Users{Store: d.Store.Users, Actions: acts, Sessions: d.Sessions, Sending: acts.SendMail},
		invitations: handlers.Invitations{Actions: acts, People: d.Store.Users, Now: d.Now},
		blocks:      handlers.Blocks{Store: d.Store.Blocklist, People: d.Store.Users, Actions: acts, Now: d.Now, IPv6Prefix: d.Config.IPv6Prefix},
		purges:      handlers.Purges{Store: d.Store.Sanctions, Actions: acts, Now: d.Now, IPv6Prefix: d.Config.IPv6Prefix},
		mail:        handlers.Mail{Store: d.Store.Mail, Actions: acts, Sending: acts.SendMail},
		alerts:      handlers.Alerts{Actions: acts, Sending: acts.SendMail},
		reg:         handlers.Registration{Actions: acts},
		apps: handlers.Applications{Store: struct {
			models.Users
			models.Desk
		}{d.Store.Users, d.Store.Desk}, Actions: acts, Reasons: handlers.ModerationReasons{Store: d.Store.Settings}},
		posts:    handlers.Posts{Store: d.Store.Posts, Actions: acts},
		sessions: handlers.UserSessions{Store: d.Store.Auth, Actions: acts, Sessions: d.Sessions},
		password: handlers.ChangePassword{Actions: acts, Sessions: d.Sessions},
		reset:    handlers.PasswordReset{Actions: acts, Sending: acts.SendMail},
		email:    handlers.EmailAddress{Actions: acts},
		claims:   handlers.Claims{Actions: acts},
		queueEvents: handlers.QueueEvents{Feed: d.Moderation, Queue: d.Store.Desk, Policy: acts.Policy, Slots: d.Streams,
			Heartbeat: cmp.Or(d.QueueHeartbeat, queueHeartbeat)},
		linkPreview: handlers.LinkPreview{Fetcher: linkpreview.New(linkpreview.Config{
			PublicAppURL: d.Config.PublicAppURL, AllowPrivate: d.Config.LinkPreviewAllowPrivate, Ports: d.Config.LinkPreviewPorts,
			Self: d.selfHandler()})},
		openAPI: openAPI,
		apiDocs: apiDocs,
	}
}

// quotePoolSize is how many fetched quotes the pool keeps ready: enough for
// a burst of image requests, small enough that refilling it (one fetch every
// 2 s) stays polite to the free quote services.
const quotePoolSize = 20

// NewQuotePool builds the og-image quote pool from the QUOTE_* settings.
// The caller starts it (Start) and closes it after
// the server has stopped.
func NewQuotePool(q config.Quotes, log *slog.Logger) *quotes.Pool {
	return quotes.NewPool(quotes.Config{
		ZenQuotesURL: q.ZenQuotesURL,
		QuotableURL:  q.QuotableURL,
		DummyJSONURL: q.DummyJSONURL,
		NinjasURL:    q.NinjasURL,
		NinjasKey:    q.PremiumAPIKey,
	}, quotePoolSize, log)
}

// NewCollector starts the analytics group-commit writer over the store
// (docs/performance.md, "Analytics ingestion"): COPY on PostgreSQL with two writes in
// flight, one writer on SQLite, whose file takes one writer at a time.
func NewCollector(store *models.Store, log *slog.Logger, m *metrics.Metrics) *analytics.Batcher[models.AnalyticsEvent] {
	writers := 2
	if store.Dialect() == config.DialectSQLite {
		writers = 1
	}
	return analytics.NewBatcher[models.AnalyticsEvent](store.Analytics, analytics.Options{Writers: writers, Retryable: models.IsTransient,
		Committed: func(n int) { m.EventsIngested.Add(float64(n)) }, Logger: log})
}

// The analytics pieces fit the interfaces their consumers declare.
var (
	_ analytics.Sink[models.AnalyticsEvent] = models.Analytics{}
	_ analytics.KeySource                   = models.Analytics{}
	_ handlers.EventQueue                   = (*analytics.Batcher[models.AnalyticsEvent])(nil)
	_ handlers.Pseudonymizer                = (*analytics.Hasher)(nil)
	_ handlers.QuoteSource                  = (*quotes.Pool)(nil)
)

// oauthProviderList describes the enabled external providers for
// /api/auth/providers and the sign-in page.
func oauthProviderList(ps []goth.Provider, publicURL string) func() []api.Provider {
	base := strings.TrimRight(publicURL, "/")
	list := make([]api.Provider, 0, len(ps))
	for _, p := range ps {
		id := p.Name()
		list = append(list, api.Provider{ID: id, Name: auth.ProviderName(id), Type: "oauth",
			SigninURL: base + api.SignInProviderPath(id), CallbackURL: base + api.CallbackPath(id)})
	}
	return func() []api.Provider { return list }
}

// Session timeouts of members; staff have shorter ones (STAFF_SESSION_*).
// The idle deadline is kept by the store and moved on by the pipeline at
// most once per sessionRefresh, so a busy client's requests read their
// session without writing it back each time.
const (
	SessionIdle     = config.MemberSessionIdle
	SessionLifetime = config.MemberSessionLifetime
	sessionRefresh  = time.Minute
)

// sessionLimits are the limits of members' and of staff sessions.
type sessionLimits struct{ member, staff session.Limits }

func newSessionLimits(c config.Config) sessionLimits {
	return sessionLimits{member: session.Limits{Lifetime: SessionLifetime, Idle: SessionIdle},
		staff: session.Limits{Lifetime: c.StaffSession.Lifetime, Idle: c.StaffSession.Idle}}
}

// of is the limits of pr's session: a staff member's (moderator and up)
// or a member's.
func (l sessionLimits) of(pr *access.Principal) session.Limits {
	if pr.Staff() {
		return l.staff
	}
	return l.member
}

// forRoles is the limits of a session of someone holding roles.
func (l sessionLimits) forRoles(roles []string) session.Limits {
	return l.of(&access.Principal{Permissions: access.RolePermissions(roles)})
}

// sessionCookie names the session cookie over plain HTTP; behind https it
// takes the __Host- prefix.
const sessionCookie = "plaza_session"

// NewSessions builds the session manager: sessions in the database, an
// HttpOnly, SameSite=Lax cookie (Secure and named with the __Host- prefix
// behind https), ending after
// SessionIdle without a request or SessionLifetime in all.
func NewSessions(store *models.Store, publicURL string) *scs.SessionManager {
	sm := scs.New()
	sm.Store = store.Auth.Sessions(SessionIdle, describeSession)
	sm.Codec = sessionCodec{}
	sm.ErrorFunc = sessionFailed
	sm.Lifetime = SessionLifetime
	secure := strings.HasPrefix(publicURL, "https://")
	sm.Cookie.Name = sessionCookie
	if secure {
		// Browsers take a __Host- cookie only Secure, on path / and
		// without a Domain: no sibling subdomain can plant or shadow it.
		sm.Cookie.Name = "__Host-" + sessionCookie
	}
	sm.Cookie.HttpOnly = true
	sm.Cookie.SameSite = http.SameSiteLaxMode
	sm.Cookie.Secure = secure
	sm.Cookie.Path = "/"
	return sm
}

func crossOriginProtection(publicURL string) *http.CrossOriginProtection {
	cop := http.NewCrossOriginProtection()
	if u, err := url.Parse(publicURL); err == nil {
		cop.AddTrustedOrigin(u.Scheme + "://" + u.Host) //nolint:errcheck // validated at start
	}
	return cop
}

// Server wraps the app in an http.Server with timeouts that keep slow
// clients from holding connections open, and a cap on request headers
// (431 beyond it) well below the standard library's 1 MiB.
func Server(addr string, h http.Handler) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           h,
		MaxHeaderBytes:    MaxHeaderBytes,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
	}
}

// MaxHeaderBytes caps a request's header lines: browsers send a few KiB.
const MaxHeaderBytes = 64 << 10

// Caches are the instance's caches of what rarely changes and is read on
// many requests.
type Caches struct {
	// Principals are checked callers, Sessions the sessions read by key,
	// Flags the feature flags, Blocks the list of blocks.
	Principals *auth.PrincipalCache
	Sessions   *fresh.Cache[[]byte]
	Flags      *flags.Cache
	Blocks     *blocks.Cache
}

// NewCaches builds the cache of checked callers for the pipeline, the
// cache of feature flags and that of blocks, and keeps them honest
// (docs/architecture.md, "The request pipeline"): on PostgreSQL a listener
// purges them whenever any instance changes a user, role, token, flag or
// block, and they work only while that listener listens; this instance's
// own changes purge them as they commit. On SQLite, the one instance's own
// changes are all there are: the callers and flags stay off (the embedded
// database answers in microseconds anyway) and the blocks stay on, so that
// checking an analytics request costs no query.
func NewCaches(ctx context.Context, store *models.Store, db config.Database, log *slog.Logger) Caches {
	cs := Caches{Principals: auth.NewPrincipalCache(principalCacheSize, principalCacheTTL),
		Sessions: fresh.New[[]byte](sessionCacheSize, principalCacheTTL), Flags: new(flags.Cache), Blocks: new(blocks.Cache)}
	store.SessionCache = cs.Sessions
	store.Changed = func() {
		cs.Principals.Purge()
		cs.Flags.Purge()
		cs.Blocks.Purge()
	}
	if db.Dialect != config.DialectPostgres {
		cs.Blocks.SetEnabled(true)
		return cs
	}
	// Wait briefly for the first LISTEN, so the instance serves its first
	// requests with the caches in use; a database slow to answer only
	// delays them, never the start.
	first := make(chan struct{})
	var once sync.Once
	listening := func(on bool) {
		cs.Principals.SetEnabled(on)
		cs.Sessions.SetEnabled(on)
		cs.Flags.SetEnabled(on)
		cs.Blocks.SetEnabled(on)
		if on {
			once.Do(func() { close(first) })
		}
	}
	changed := func(table string) {
		if key, ok := strings.CutPrefix(table, "sessions:"); ok {
			cs.Sessions.Forget(key)
			return
		}
		switch table {
		case "sessions":
			cs.Sessions.Purge()
		case "feature_flags":
			cs.Flags.Purge()
		case "blocks":
			cs.Blocks.Purge()
		case models.CacheClearNotice:
			cs.Principals.Purge()
			cs.Sessions.Purge()
			cs.Flags.Purge()
			cs.Blocks.Purge()
		default:
			cs.Principals.Purge()
		}
	}
	go models.ListenChanges(ctx, db.DSN, log, listening, changed)
	select {
	case <-first:
	case <-time.After(listenerStartWait):
	case <-ctx.Done():
	}
	return cs
}

// The caches hold the busiest callers and sessions (a session's data is a
// few hundred bytes: 50,000 take about 25 MB at most); their TTL bounds
// how stale either can be should the listener's connection die without a
// word.
const (
	principalCacheSize = 10_000
	sessionCacheSize   = 50_000
	principalCacheTTL  = 5 * time.Second
	listenerStartWait  = 2 * time.Second
)
