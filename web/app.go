// Package web is Plaza's composition root for HTTP: it builds the echo app,
// its middleware chain, the route table and the one error handler.
package web

import (
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/alexedwards/scs/v2"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/handlers"
	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/internal/ratelimit"
	"github.com/plazahq/plaza/models"
)

// Deps is everything the web layer needs, built once by main.
type Deps struct {
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
}

// maxBody is the largest request body Plaza reads (DECISIONS.md section 9).
const maxBody = "1M"

// New builds the echo app with the request pipeline of DESIGN.md.
func New(d Deps) *echo.Echo {
	if d.Now == nil {
		d.Now = func() time.Time { return time.Now().UTC() }
	}
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = errorHandler(d.Logger)
	e.IPExtractor = ipExtractor(d.Config.TrustedProxies)
	if d.Sessions == nil {
		d.Sessions = NewSessions(d.Store, d.Config.PublicAppURL)
	}
	if d.Limiter == nil {
		d.Limiter = ratelimit.NewMemory()
	}
	// The recoverer sits inside the access log so that a panic is logged as
	// the 500 it becomes, with its request id.
	e.Use(
		middleware.RequestID(),
		accessLog(d.Logger),
		recoverer(),
		securityHeaders(d.Config.PublicAppURL),
		middleware.BodyLimit(maxBody),
	)
	p := &pipeline{cfg: d.Config, store: d.Store, sessions: d.Sessions, limiter: d.Limiter, log: d.Logger,
		now: d.Now, cop: crossOriginProtection(d.Config.PublicAppURL)}
	register(e, p, routes(d, newHandlers(d)))
	e.StaticFS("/static", d.Static)
	return e
}

func newHandlers(d Deps) handlerSet {
	health := handlers.Health{DB: d.Store, Version: d.Version, Started: d.Started, Now: d.Now}
	providers := func() []api.Provider { return nil }
	return handlerSet{
		health:    health,
		version:   handlers.Version{Version: d.Version, Err: d.VersionErr},
		dashboard: handlers.Dashboard{Health: health},
		signIn: handlers.SignIn{Users: d.Store, Sessions: d.Sessions, Limiter: d.Limiter, Providers: providers,
			PublicURL: d.Config.PublicAppURL, PerEmail: d.Config.RateLimit.SignInByEmail, PerIP: d.Config.RateLimit.SignInByIP, Now: d.Now},
		signOut:   handlers.SignOut{Sessions: d.Sessions},
		session:   handlers.Session{Sessions: d.Sessions},
		providers: handlers.Providers{List: providers},
		tokens:    handlers.Tokens{Store: d.Store, Secret: []byte(d.Config.JWTSecret)},
		audit:     handlers.AuditLogs{Store: d.Store},
		locks:     handlers.Locks{Store: d.Store},
	}
}

// NewSessions builds the session manager: sessions in the database, an
// HttpOnly, SameSite=Lax cookie (Secure behind https), ending after 24 h
// idle or 7 days in all.
func NewSessions(store *models.Store, publicURL string) *scs.SessionManager {
	sm := scs.New()
	sm.Store = store.Sessions()
	sm.IdleTimeout = 24 * time.Hour
	sm.Lifetime = 7 * 24 * time.Hour
	sm.Cookie.Name = "plaza_session"
	sm.Cookie.HttpOnly = true
	sm.Cookie.SameSite = http.SameSiteLaxMode
	sm.Cookie.Secure = strings.HasPrefix(publicURL, "https://")
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
// clients from holding connections open.
func Server(addr string, h http.Handler) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
	}
}
