package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/handlers"
	"github.com/plazahq/plaza/internal/auth"
)

// Route is one line of the URL space: who answers a method and path, and
// what the pipeline must do first. Admin routes must declare a permission,
// a rate-limit scope and an audit action (TestAdminRoutesAreGuarded).
type Route struct {
	Method  string
	Path    string
	Handler echo.HandlerFunc
	// Perms are all required; empty means public unless SignIn is set.
	Perms  []string
	SignIn bool
	// MetricsToken lets METRICS_TOKEN stand in for Perms.
	MetricsToken bool
	Scope        Scope
	// Audit is the audit action ("" for routes that are not audited) and
	// Target the type of the resource named by the :id path parameter.
	Audit  string
	Target string
}

// v1 builds a versioned admin route: the permission of its method
// (DECISIONS.md section 2) plus any extra ones, the tier scope and an audit action.
func v1(method, path string, h echo.HandlerFunc, action, target string, extra ...string) Route {
	perm := map[string]string{
		http.MethodGet: auth.PermAdminRead, http.MethodPost: auth.PermAdminWrite, http.MethodPut: auth.PermAdminWrite,
		http.MethodPatch: auth.PermAdminWrite, http.MethodDelete: auth.PermAdminDelete,
	}[method]
	return Route{Method: method, Path: "/api/v1/admin" + path, Handler: h, Perms: append([]string{perm}, extra...),
		Scope: ScopeAdminV1, Audit: action, Target: target}
}

// routes is Plaza's whole URL space.
func routes(d Deps, hs handlerSet) []Route {
	return []Route{
		{Method: http.MethodGet, Path: "/", Handler: redirect("/admin"), Scope: ScopeExempt},
		{Method: http.MethodGet, Path: "/admin", Handler: hs.dashboard.Handle, Perms: []string{auth.PermPostsModerate}, Scope: ScopeExempt},
		{Method: http.MethodGet, Path: "/admin/health-cards", Handler: hs.health.Handle, Perms: []string{auth.PermPostsModerate}, Scope: ScopeExempt},

		{Method: http.MethodGet, Path: "/api/health", Handler: hs.health.Handle, Scope: ScopeExempt},
		{Method: http.MethodGet, Path: "/api/version", Handler: hs.version.Handle, Scope: ScopeExempt},
		{Method: http.MethodGet, Path: api.PathLinkPreview, Handler: hs.linkPreview.Handle, Scope: ScopeLinkPreview},
		{Method: http.MethodGet, Path: api.PathAvatarImage, Handler: handlers.AvatarImage{}.Handle, Scope: ScopeAvatar},
		{Method: http.MethodGet, Path: api.PathOGImage, Handler: hs.ogImage.Handle, Scope: ScopeOGImage},
		// The viewer is a page, not an API route (interface.md part 8 limits
		// /api only), and renders no image itself: the images it loads count
		// against og-image's per-IP limit.
		{Method: http.MethodGet, Path: api.PathOGViewer, Handler: hs.ogViewer.Handle, Scope: ScopeExempt},
		{Method: http.MethodGet, Path: "/api/metrics", Handler: metricsHandler(d.Metrics), Perms: []string{auth.PermAdminRead}, MetricsToken: true, Scope: ScopeExempt},

		{Method: http.MethodGet, Path: "/api/auth/signin", Handler: hs.signIn.Page, Scope: ScopeGeneral},
		{Method: http.MethodPost, Path: "/api/auth/signin", Handler: hs.signIn.Handle, Scope: ScopeGeneral},
		{Method: http.MethodGet, Path: "/api/auth/signin/:provider", Handler: hs.oauth.Begin, Scope: ScopeGeneral},
		{Method: http.MethodGet, Path: "/api/auth/callback/:provider", Handler: hs.oauth.Callback, Scope: ScopeGeneral},
		{Method: http.MethodGet, Path: "/api/auth/session", Handler: hs.session.Handle, Scope: ScopeGeneral},
		{Method: http.MethodGet, Path: "/api/auth/providers", Handler: hs.providers.Handle, Scope: ScopeGeneral},
		{Method: http.MethodGet, Path: "/api/auth/signout", Handler: hs.signOut.Page, Scope: ScopeGeneral},
		{Method: http.MethodPost, Path: "/api/auth/signout", Handler: hs.signOut.Handle, Scope: ScopeGeneral},

		// The collector checks the session (403, not 401) and counts events, not requests, itself.
		{Method: http.MethodPost, Path: api.PathAnalyticsCollect, Handler: hs.collect.Handle, SignIn: false, Scope: ScopeExempt},

		v1(http.MethodGet, "/tokens", hs.tokens.List, "token.list", "", auth.PermAdminSuper),
		v1(http.MethodPost, "/tokens", hs.tokens.Create, "token.create", "token", auth.PermAdminSuper),
		v1(http.MethodDelete, "/tokens/:id", hs.tokens.Revoke, "token.revoke", "token", auth.PermAdminSuper),
		v1(http.MethodGet, "/audit-logs", hs.audit.List, "audit.view", ""),
		v1(http.MethodGet, "/audit-logs/verify", hs.audit.Verify, "audit.verify", ""),
		v1(http.MethodPost, "/locks", hs.locks.Acquire, "lock.acquire", ""),
		v1(http.MethodDelete, "/locks/:type/:id", hs.locks.Release, "lock.release", ""),
	}
}

// handlerSet holds the handlers, built once from the dependencies.
type handlerSet struct {
	linkPreview handlers.LinkPreview
	health      handlers.Health
	version     handlers.Version
	dashboard   handlers.Dashboard
	signIn      handlers.SignIn
	oauth       handlers.OAuth
	signOut     handlers.SignOut
	session     handlers.Session
	providers   handlers.Providers
	tokens      handlers.Tokens
	audit       handlers.AuditLogs
	locks       handlers.Locks
	collect     handlers.CollectEvent
	ogImage     handlers.OGImage
	ogViewer    handlers.OGViewer
}

func register(e *echo.Echo, p *pipeline, rs []Route) {
	for _, r := range rs {
		e.Add(r.Method, r.Path, r.Handler, p.chain(r)...)
	}
}

func redirect(to string) echo.HandlerFunc {
	return func(c echo.Context) error { return c.Redirect(http.StatusFound, to) }
}
