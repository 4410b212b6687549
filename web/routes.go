package web

import (
	"net/http"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/handlers"
	"github.com/plazahq/plaza/internal/access"
)

// Route is one line of the URL space: who answers a method and path, and
// everything the pipeline must know about it. Admin routes must declare
// permissions, a rate-limit scope and an audit action
// (TestAdminRoutesAreGuarded).
type Route struct {
	Method  string
	Path    string
	Handler echo.HandlerFunc
	// Family picks the error envelope, and HTML pages for the console.
	Family api.Family
	// Scope is what each request counts against; ScopeExempt counts nothing.
	Scope Scope
	// Meter is a scope the handler counts itself, through the Meter the
	// pipeline gives it: the collector's events, sign-in's failures.
	Meter Scope
	// Permissions are all required; none means a public route, unless
	// SignIn asks for any signed-in caller. A route never restates the
	// permission of its action's rule: the unversioned admin family and
	// the console get it from the rule (derivePermissions), the versioned
	// family from its gate (AdminV1), where a route may only say
	// admin:super.
	Permissions []string
	SignIn      bool
	// Gate is the versioned family's gate (AdminV1): the permission its
	// method needs, or admin:super, asked with the admin role.
	Gate string
	// Action is the rule-bearing action the route is a door to: its
	// handler calls that action, which asks the policy table, and the
	// policy matrix test walks every door of every action.
	Action policy.Action
	// Reads are the read actions whose answers decide what the route
	// shows (unpublished posts, private profiles): the policy matrix walks
	// every caller through each.
	Reads []policy.Action
	// MetricsToken lets METRICS_TOKEN stand in for Permissions.
	MetricsToken bool
	// Caller makes the pipeline read the caller (session or token) for a
	// route that needs it without requiring one.
	Caller bool
	// Audit names the audit action of every request; the zero value means
	// the route is not audited.
	Audit Audit
	// Blockable refuses requests from a blocked address (403 IP_BLOCKED).
	// Every unsafe route outside the admin families is blockable
	// (blockUnsafeRoutes), and a GET route may ask for it (sign-in with a
	// provider). Admin routes never are, so that a block can be undone.
	Blockable bool
	// BlockExempt keeps a non-admin route out of the block rules: neither
	// refused nor ending a session seen from a blocked address. Only
	// sign-out, so that a blocked user can still end its own session.
	BlockExempt bool
	// Quiet marks a high-volume public route (images crawlers fetch by the
	// thousand): its successes write no access-log line; metrics count them.
	Quiet bool
	// Compress compresses a quiet route's answers (brotli or gzip) for
	// clients that accept it (the console's avatars); routes that are not
	// quiet always are.
	Compress bool
	// Doc describes the route in the OpenAPI document (/api/openapi.json).
	Doc Doc

	unmatched bool     // a catch-all answering paths no route matches
	declared  []string // Permissions as the route table wrote them
}

// Audit is a route's audit action and the type of the resource its :id
// path parameter names.
type Audit struct {
	Action string
	Target string
	// Optional audits only the requests whose handler keeps the entry
	// (audit.Draft.Keep): on the general API's users and posts, those where
	// an admin or moderator acts on someone else's resource.
	Optional bool
}

// Doc is what the OpenAPI document says of a route beyond what the other
// fields tell: the rest (security, errors, rate-limit headers, path
// parameters) follows from Family, Permissions, SignIn and Scope
// (web/openapi.go).
type Doc struct {
	Summary     string
	Description string
	// Query is a struct whose `query` tags name the query parameters.
	Query any
	// Body is the request body's type: JSON, and a form too when the type
	// has `formData` tags. It is required unless BodyOptional says the
	// handler also takes a request without one.
	Body         any
	BodyOptional bool
	// Response is the success body's type; Status its status (0: 200).
	Response any
	Status   int
	// ContentType is a non-JSON success's media type (image/png,
	// text/html), or several separated by commas; with Response set, other
	// renderings of the same success.
	ContentType string
	// Lines is the type of each line of an application/x-ndjson success.
	Lines any
	// Errors are the statuses the handler itself answers in the family's
	// error shape, beyond those the route's other fields imply, with what
	// each means.
	Errors map[int]string
	// Others are answers that are neither the success nor errors.
	Others []Outcome
	// SessionOnly says the handler itself asks for a signed-in session
	// (the cookie, not a bearer token): the document's security then names
	// the session alone.
	SessionOnly bool
}

// needsCaller reports whether the route reads its caller: the public image
// and preview routes never load a session or look up a principal.
func (r Route) needsCaller() bool {
	return r.Caller || r.SignIn || len(r.Permissions) > 0 || r.Audit.Action != "" ||
		r.Scope.perCaller() || r.Meter.perCaller()
}

// admin reports whether the route belongs to the admin families or the
// console: staff routes, which blocks never touch, so that an admin whose
// own address a block covers can still lift it.
func (r Route) admin() bool {
	return r.Family == api.FamilyV1 || r.Family == api.FamilyAdmin || r.Family == api.FamilyConsole
}

// checksPasswords reports whether the route's handler runs argon2id on a
// password the caller gives, so that it may answer 503 when too many
// run at once (auth.ErrBusy): the routes counted by sign-in's failure
// throttle, registration and deleting one's own account.
func (r Route) checksPasswords() bool {
	return r.Meter == ScopeSignIn || r.Action == policy.Register || r.Action == policy.DeleteAccount || r.Action == policy.ForgotPassword
}

// blockUnsafeRoutes makes every unsafe route outside the admin families
// blockable unless it is BlockExempt: a route that changes something is
// refused from a blocked address without having to remember to say so.
func blockUnsafeRoutes(rs []Route) []Route {
	for i := range rs {
		if unsafe(rs[i].Method) && !rs[i].admin() && !rs[i].BlockExempt {
			rs[i].Blockable = true
		}
	}
	return rs
}

// asksConfirmation reports whether a session caller may be refused for
// want of a fresh confirmation: the policy rule of the route's action asks
// for one (dangerous actions are decided by action, never by route).
func (r Route) asksConfirmation() bool {
	return r.Action != "" && policy.Table[r.Action].Confirm != policy.ConfirmNever
}

// v1Gate is the permission the versioned family's gate asks by method;
// admin:super satisfies each (access.Permissions.Has).
var v1Gate = map[string]string{
	http.MethodGet: access.PermAdminRead, http.MethodPost: access.PermAdminWrite, http.MethodPut: access.PermAdminWrite,
	http.MethodPatch: access.PermAdminWrite, http.MethodDelete: access.PermAdminDelete,
}

// AdminV1 completes a versioned admin route: its family and tier scope,
// and its gate, the contract's: the admin role and admin:read for GET,
// admin:write for POST, PUT and PATCH, admin:delete for DELETE. A route
// whose action's rule asks admin:super, or that says admin:super itself
// (the platform-wide writes and reads without an action: token lists,
// flags, maintenance), asks admin:super instead, the family's top level.
// Behind the gate the action's policy decides the rest; it takes the gate
// as the staff power its rule names (policy.Check), so a versioned route
// never asks users:manage or posts:moderate.
func AdminV1(r Route) Route {
	r.declared = r.Permissions
	r.Gate = v1Gate[r.Method]
	if policy.Table[r.Action].Permission == access.PermAdminSuper || slices.Contains(r.Permissions, access.PermAdminSuper) {
		r.Gate = access.PermAdminSuper
	}
	r.Family = api.FamilyV1
	if r.Scope == "" {
		r.Scope = ScopeAdminV1
	}
	r.Permissions = []string{r.Gate}
	return r
}

// derivePermissions gives each door of the unversioned admin family and of
// the console the permission its action's rule names, ahead of those the
// route adds: a route never restates it (TestRoutesDeriveTheirPermissions).
// The versioned family's permissions are its gate's (AdminV1).
func derivePermissions(rs []Route) []Route {
	for i := range rs {
		r := &rs[i]
		if r.Family == api.FamilyV1 {
			continue
		}
		r.declared = r.Permissions
		need := policy.Table[r.Action].Permission
		staff := r.Family == api.FamilyAdmin || r.Family == api.FamilyConsole
		if staff && need != "" && !slices.Contains(r.Permissions, need) {
			r.Permissions = append([]string{need}, r.Permissions...)
		}
	}
	return rs
}

// ConsolePage completes a console page that shows what the API route
// apiRoute answers, from the same handler: the console family, no rate
// scope of its own, admin:read unless the route or its action's rule names
// its permissions,
// and HTML in its documentation.
func ConsolePage(apiRoute string, r Route) Route {
	r.Method, r.Family = http.MethodGet, api.FamilyConsole
	if r.Scope == "" {
		r.Scope = ScopeExempt
	}
	if len(r.Permissions) == 0 && policy.Table[r.Action].Permission == "" {
		r.Permissions = []string{access.PermAdminRead}
	}
	r.Doc.ContentType = "text/html"
	r.Doc.Description = strings.TrimSpace("HTML for a browser and htmx; the same JSON as GET " + apiRoute + " otherwise. " + r.Doc.Description)
	return r
}

// routes is Plaza's whole URL space, one function per family, each in
// its own file with every entry's documentation beside it.
func routes(d Deps, hs handlerSet) []Route {
	return derivePermissions(slices.Concat(consoleRoutes(hs), publicRoutes(d, hs), authRoutes(hs),
		generalRoutes(hs), adminRoutes(hs), v1Routes(hs)))
}

// healthDown is health's answer when the database does not answer in 2 s.
var healthDown = Outcome{Status: http.StatusServiceUnavailable, Body: api.Health{},
	Description: "The database did not answer within 2 seconds: status unhealthy, database disconnected."}

// notFoundRoutes answer unknown paths in the family of the routes they sit
// under: anything below /api/v1/admin in the v1 envelope, below a public
// utility in its shape, and so on; unknown pages get the console's page.
func notFoundRoutes(rs []Route) []Route {
	out := []Route{
		{Path: "/*", Family: api.FamilyConsole},
		{Path: "/api/*", Family: api.FamilyGeneral},
		{Path: api.PathAdminV1 + "/*", Family: api.FamilyV1},
		{Path: "/api/admin/*", Family: api.FamilyAdmin},
	}
	seen := map[string]bool{}
	for _, r := range rs {
		if r.Family == api.FamilyGeneral || r.Family == api.FamilyConsole || strings.Contains(r.Path, ":") || seen[r.Path] {
			continue
		}
		seen[r.Path] = true
		out = append(out, Route{Path: r.Path + "/*", Family: r.Family})
	}
	for i := range out {
		out[i].Method, out[i].Handler, out[i].Scope, out[i].unmatched = echo.RouteNotFound, notFound, ScopeExempt, true
		// A signed-in admin's unknown page keeps the console's frame.
		out[i].Caller = out[i].Family == api.FamilyConsole
	}
	return out
}

// methods are the methods a path without a route for them answers with
// 405 and an Allow header, through the pipeline like any other request.
var methods = []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete, http.MethodOptions}

// notAllowedRoutes answer the methods each path does not take.
func notAllowedRoutes(rs []Route) []Route {
	allowed := map[string][]string{}
	var paths []string
	family := map[string]api.Family{}
	for _, r := range rs {
		if allowed[r.Path] == nil {
			paths = append(paths, r.Path)
		}
		allowed[r.Path] = append(allowed[r.Path], r.Method)
		if r.Method == http.MethodGet {
			allowed[r.Path] = append(allowed[r.Path], http.MethodHead)
		}
		if _, ok := family[r.Path]; !ok {
			family[r.Path] = r.Family
		}
	}
	var out []Route
	for _, path := range paths {
		allow := strings.Join(allowed[path], ", ")
		for _, m := range methods {
			if !slices.Contains(allowed[path], m) {
				out = append(out, Route{Method: m, Path: path, Handler: notAllowed(allow), Family: family[path], Scope: ScopeExempt})
			}
		}
	}
	return out
}

func notAllowed(allow string) echo.HandlerFunc {
	return func(c echo.Context) error {
		c.Response().Header().Set(echo.HeaderAllow, allow)
		return echo.ErrMethodNotAllowed
	}
}

// handlerSet holds the handlers, built once from the dependencies.
type handlerSet struct {
	apps        handlers.Applications
	linkPreview handlers.LinkPreview
	avatar      handlers.AvatarImage
	health      handlers.Health
	version     handlers.Version
	dashboard   handlers.Dashboard
	signIn      handlers.SignIn
	oauth       handlers.OAuth
	signOut     handlers.SignOut
	nextAuth    handlers.NextAuth
	twoFactor   handlers.TwoFactor
	session     handlers.Session
	providers   handlers.Providers
	tokens      handlers.Tokens
	audit       handlers.AuditLogs
	locks       handlers.Locks
	adminUsers  handlers.AdminUsers
	v1Users     handlers.V1Users
	v1Posts     handlers.V1Posts
	flags       handlers.FeatureFlags
	reasons     handlers.ModerationReasons
	newAccounts handlers.NewAccounts
	inbox       handlers.Notifications
	broadcasts  handlers.Broadcasts
	webhooks    handlers.Webhooks
	analytics   handlers.Analytics
	reports     handlers.Reports
	system      handlers.System
	backups     handlers.Backups
	search      handlers.Search
	collect     handlers.CollectEvent
	ogImage     handlers.OGImage
	ogViewer    handlers.OGViewer
	static      echo.HandlerFunc
	users       handlers.Users
	posts       handlers.Posts
	blocks      handlers.Blocks
	invitations handlers.Invitations
	purges      handlers.Purges
	mail        handlers.Mail
	alerts      handlers.Alerts
	reg         handlers.Registration
	sessions    handlers.UserSessions
	password    handlers.ChangePassword
	reset       handlers.PasswordReset
	email       handlers.EmailAddress
	claims      handlers.Claims
	queueEvents handlers.QueueEvents

	openAPI handlers.OpenAPI
	apiDocs handlers.APIDocs
}

// familyMap is the family of each route by method and path, and of each
// path by the first route on it: a path's methods may differ (next-auth's
// POST /api/auth/signin/{provider} beside Plaza's GET).
type familyMap map[string]api.Family

func (m familyMap) add(r Route) {
	m[r.Method+" "+r.Path] = r.Family
	if _, ok := m[r.Path]; !ok {
		m[r.Path] = r.Family
	}
}

// of is the family of the route c matched: its method's, else its path's
// (the catch-alls answering unknown paths and methods).
func (m familyMap) of(c echo.Context) (api.Family, bool) {
	method := c.Request().Method
	if method == http.MethodHead {
		method = http.MethodGet
	}
	if f, ok := m[method+" "+c.Path()]; ok {
		return f, true
	}
	f, ok := m[c.Path()]
	return f, ok
}

// register adds the routes with their pipelines, and the routes that
// answer what the table does not: 405 for a method a path does not take,
// 404 for an unknown path. A GET route answers HEAD too, as crawlers probe
// image URLs with HEAD. It returns each route's family for the error handler.
func register(e *echo.Echo, p *pipeline, rs []Route) familyMap {
	families := familyMap{}
	p.gates = gatesOf(rs)
	add := func(r Route) {
		e.Add(r.Method, r.Path, compose(r.Handler, p.chain(r)))
		families.add(r)
	}
	for _, r := range rs {
		add(r)
		if r.Method == http.MethodGet {
			r.Method = http.MethodHead
			add(r)
		}
	}
	for _, r := range append(notAllowedRoutes(rs), notFoundRoutes(rs)...) {
		add(r)
	}
	return families
}

// compose wraps h in its middleware once, at start: echo would wrap a
// route's middleware anew on every request.
func compose(h echo.HandlerFunc, mws []echo.MiddlewareFunc) echo.HandlerFunc {
	for i := len(mws) - 1; i >= 0; i-- {
		h = mws[i](h)
	}
	return h
}

func notFound(echo.Context) error { return echo.ErrNotFound }

func redirect(to string) echo.HandlerFunc {
	return func(c echo.Context) error { return c.Redirect(http.StatusFound, to) }
}
