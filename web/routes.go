package web

import (
	"net/http"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/handlers"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/internal/openapi"
	"github.com/plazahq/plaza/internal/policy"
	"github.com/plazahq/plaza/models"
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
	// SignIn asks for any signed-in caller.
	Permissions []string
	SignIn      bool
	// Action is the rule-bearing action the route is a door to: its
	// handler calls that action, which asks the policy table, and the
	// policy matrix test walks every door of every action.
	Action policy.Action
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
	// Doc describes the route in the OpenAPI document (/api/openapi.json).
	Doc Doc

	unmatched bool // a catch-all answering paths no route matches
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
	// has `formData` tags.
	Body any
	// Response is the success body's type; Status its status (0: 200).
	Response any
	Status   int
	// ContentType is a non-JSON success's media type (image/png,
	// text/html), or several separated by commas; with Response set, other
	// renderings of the same success.
	ContentType string
	// Errors are the statuses the handler itself answers in the family's
	// error shape, beyond those the route's other fields imply, with what
	// each means.
	Errors map[int]string
	// Others are answers that are neither the success nor errors.
	Others []Outcome
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

// AdminV1 completes a versioned admin route: its family and tier scope,
// and the permission its method needs (or, for a door to an action, the
// permission the policy table gives the action) ahead of
// any the route adds.
func AdminV1(r Route) Route {
	perm := map[string]string{
		http.MethodGet: auth.PermAdminRead, http.MethodPost: auth.PermAdminWrite, http.MethodPut: auth.PermAdminWrite,
		http.MethodPatch: auth.PermAdminWrite, http.MethodDelete: auth.PermAdminDelete,
	}[r.Method]
	if rule, ok := policy.Table[r.Action]; ok && rule.Permission != "" {
		perm = rule.Permission // the action's own permission, the same at every door
	}
	r.Family = api.FamilyV1
	if r.Scope == "" {
		r.Scope = ScopeAdminV1
	}
	r.Permissions = append([]string{perm}, r.Permissions...)
	return r
}

// ConsolePage completes a console page that shows what the API route
// apiRoute answers, from the same handler: the console family, no rate
// scope of its own, admin:read unless the route names its permissions,
// and HTML in its documentation.
func ConsolePage(apiRoute string, r Route) Route {
	r.Method, r.Family = http.MethodGet, api.FamilyConsole
	if r.Scope == "" {
		r.Scope = ScopeExempt
	}
	if len(r.Permissions) == 0 {
		r.Permissions = []string{auth.PermAdminRead}
	}
	r.Doc.ContentType = "text/html"
	r.Doc.Description = strings.TrimSpace("HTML for a browser and htmx; the same JSON as GET " + apiRoute + " otherwise. " + r.Doc.Description)
	return r
}

// routes is Plaza's whole URL space.
func routes(d Deps, hs handlerSet) []Route {
	console, general, public := api.FamilyConsole, api.FamilyGeneral, api.FamilyPublic
	moderate := []string{auth.PermPostsModerate}
	manage := []string{auth.PermUsersManage}
	lockedByAdmin := map[int]string{http.StatusLocked: "An admin acting on someone else's account or post while another admin holds its edit lock."}
	return []Route{
		{Method: http.MethodGet, Path: api.PathRoot, Handler: redirect(api.PathConsole), Family: console, Scope: ScopeExempt,
			Doc: Doc{Summary: "To the console", Status: http.StatusFound}},
		{Method: http.MethodGet, Path: api.PathConsole, Handler: hs.dashboard.Handle, Family: console, Scope: ScopeExempt, Permissions: moderate,
			Doc: Doc{Summary: "The console's dashboard", ContentType: "text/html"}},
		{Method: http.MethodGet, Path: api.PathConsoleHealth, Handler: hs.health.Handle, Family: console, Scope: ScopeExempt, Permissions: moderate,
			Doc: Doc{Summary: "The dashboard's status cards", Description: "The cards for htmx; the same result as /api/health as JSON otherwise.",
				Response: api.Health{}, ContentType: "text/html", Others: []Outcome{healthDown}}},
		// The console's pages run the same handlers as the API routes they
		// show, under the same permissions and audit actions (docs/console.md).
		ConsolePage("/api/v1/admin/users", Route{Path: api.PathConsoleUsers, Handler: hs.v1Users.List, Audit: Audit{Action: "users.list"},
			Doc: Doc{Summary: "The console's users page", Query: api.V1UsersQuery{}, Response: api.V1PageOf[api.V1User]{}}}),
		ConsolePage("/api/v1/admin/users/{id}", Route{Path: api.PathConsoleUser, Handler: hs.v1Users.Get, Audit: Audit{Action: models.ViewUserAction, Target: "user"},
			Doc: Doc{Summary: "The console's page of one user", Response: api.V1Of[api.V1UserDetail]{}}}),
		ConsolePage("/api/v1/admin/audit-logs", Route{Path: api.PathConsoleAudit, Handler: hs.audit.List, Audit: Audit{Action: "audit.view"},
			Doc: Doc{Summary: "The console's audit log", Query: api.AuditLogQuery{}, Response: api.V1PageOf[api.AuditEntry]{}}}),
		ConsolePage("/api/v1/admin/system/jobs", Route{Path: api.PathConsoleSystem, Handler: hs.system.Jobs, Audit: Audit{Action: "system.jobs"},
			Doc: Doc{Summary: "The console's jobs and backups page", Query: api.V1PageQuery{}, Response: api.V1PageOf[api.V1Job]{}}}),
		ConsolePage("/api/v1/admin/system/backups", Route{Path: api.PathConsoleBackups, Handler: hs.backups.List, Audit: Audit{Action: "backup.list"},
			Doc: Doc{Summary: "The console's list of backups", Response: api.V1Of[[]api.V1Backup]{}}}),
		ConsolePage("/api/v1/admin/notifications/broadcasts", Route{Path: api.PathConsoleBroadcasts, Handler: hs.broadcasts.List, Audit: Audit{Action: "notification.list"},
			Doc: Doc{Summary: "The console's broadcasts page", Query: api.V1PageQuery{}, Response: api.V1PageOf[api.V1Broadcast]{}}}),
		// The moderation queue is for moderators too, who hold posts:moderate
		// and not the v1 family's admin:read and admin:write: its page and
		// its actions are console routes of their own running the v1 posts
		// handlers, with the same audit actions (docs/console.md).
		ConsolePage("/api/v1/admin/posts", Route{Path: api.PathConsoleModeration, Handler: hs.v1Posts.List, Permissions: moderate, Audit: Audit{Action: "posts.list"},
			Doc: Doc{Summary: "The console's moderation queue", Query: api.V1PostsQuery{}, Response: api.V1PageOf[api.V1Post]{}, Description: "Sorted by report count unless sort is given."}}),
		{Method: http.MethodPost, Path: api.PathConsoleBulkModerate, Handler: hs.v1Posts.BulkModerate, Action: policy.BulkModerate, Family: console, Scope: ScopeExempt,
			Permissions: moderate, Audit: Audit{Action: "posts.bulk_moderate"},
			Doc: Doc{Summary: "The moderation queue's decision on up to 200 posts", Body: api.V1BulkModeration{}, Response: api.V1Of[api.V1BulkModerationResult]{},
				Description: "POST /api/v1/admin/posts/bulk-moderate for the console, moderators included: no body and an HX-Trigger toast for htmx.",
				Errors: map[int]string{
					http.StatusForbidden: "Delete without admin:delete, or a last confirmation over 10 minutes old (SUDO_REQUIRED).",
					http.StatusNotFound:  "An id no post has; nothing changed.",
					http.StatusLocked:    "Another admin holds one of the posts' edit locks (lockedBy, lockedAt).",
				}}},
		{Method: http.MethodPost, Path: api.PathConsoleModeratePost, Handler: hs.v1Posts.Moderate, Action: policy.ModeratePost, Family: console, Scope: ScopeExempt,
			Permissions: moderate, Audit: Audit{Action: "post.moderate", Target: "post"},
			Doc: Doc{Summary: "The moderation queue's decision on one post", Body: api.V1ModerationRequest{},
				Response:    openapi.OneOf(api.V1Of[api.V1Post]{}, api.V1Of[api.V1DeletedPost]{}),
				Description: "POST /api/v1/admin/posts/{id}/moderate for the console, moderators included: no body and an HX-Trigger toast for htmx.",
				Errors: map[int]string{
					http.StatusForbidden: "Delete without admin:delete.",
					http.StatusNotFound:  "No such post.",
					http.StatusLocked:    "Another admin holds the post's edit lock (lockedBy, lockedAt).",
				}}},
		ConsolePage("/api/v1/admin/reports/user-activity (or CSV)", Route{Path: api.PathConsoleReports, Handler: hs.reports.UserActivity, Audit: Audit{Action: "report.user_activity"},
			Doc: Doc{Summary: "The console's user-activity report", Query: api.V1ActivityQuery{}, Response: api.V1PagedOf[api.V1ActivityReport]{}}}),
		ConsolePage("/api/v1/admin/reports/moderation (or CSV)", Route{Path: api.PathConsoleModerationReport, Handler: hs.reports.Moderation, Audit: Audit{Action: "report.moderation"},
			Doc: Doc{Summary: "The console's moderation report", Query: api.V1ModerationReportQuery{}, Response: api.V1Of[api.V1ModerationReport]{}}}),
		ConsolePage("/api/v1/admin/feature-flags", Route{Path: api.PathConsoleFlags, Handler: hs.flags.List, Audit: Audit{Action: "feature_flags.list"},
			Doc: Doc{Summary: "The console's feature flags page", Response: api.V1Of[[]api.V1FeatureFlag]{}}}),
		ConsolePage("/api/v1/admin/webhooks", Route{Path: api.PathConsoleWebhooks, Handler: hs.webhooks.List, Audit: Audit{Action: "webhook.list"},
			Doc: Doc{Summary: "The console's webhooks page", Response: api.V1Of[[]api.Webhook]{}}}),
		ConsolePage("/api/v1/admin/tokens", Route{Path: api.PathConsoleTokens, Handler: hs.tokens.List, Permissions: []string{auth.PermAdminSuper}, Audit: Audit{Action: "token.list"},
			Doc: Doc{Summary: "The console's API tokens page", Response: api.V1Of[[]api.Token]{}}}),
		ConsolePage("/api/v1/admin/blocks", Route{Path: api.PathConsoleBlocks, Handler: hs.blocks.List, Audit: Audit{Action: "blocks.list"},
			Doc: Doc{Summary: "The console's blocks page", Query: api.V1BlocksQuery{}, Response: api.V1PageOf[api.V1Block]{}}}),
		ConsolePage("/api/notifications", Route{Path: api.PathConsoleInbox, Handler: hs.inbox.List, Permissions: moderate,
			Doc: Doc{Summary: "The console's inbox: your notifications", Query: api.InboxQuery{}, Response: api.Inbox{}}}),
		{Method: http.MethodGet, Path: api.PathConsoleInboxBadge, Handler: hs.inbox.Badge, Family: console, Scope: ScopeExempt, Permissions: moderate,
			Doc: Doc{Summary: "Your unread notifications, for the console's bell", Response: api.UnreadCount{}, ContentType: "text/html"}},
		// The viewer is a page, not an API route (the rate limits cover
		// /api only), and renders no image itself: the images it loads count
		// against og-image's per-IP limit.
		{Method: http.MethodGet, Path: api.PathOGViewer, Handler: hs.ogViewer.Handle, Family: console, Scope: ScopeExempt,
			Doc: Doc{Summary: "The og-image viewer", Query: api.OGViewerQuery{}, ContentType: "text/html"}},
		{Method: http.MethodGet, Path: api.PathStatic + "/*", Handler: hs.static, Family: console, Scope: ScopeExempt, Quiet: true,
			Doc: Doc{Summary: "Static files", Description: "The embedded static/ folder: the console's CSS and scripts, the API reference's viewer.",
				ContentType: "text/css, text/javascript", Errors: map[int]string{http.StatusNotFound: "No such file."}}},

		{Method: http.MethodGet, Path: api.PathHealth, Handler: hs.health.Handle, Family: public, Scope: ScopeExempt,
			Doc: Doc{Summary: "Health", Response: api.Health{}, Others: []Outcome{healthDown}}},
		{Method: http.MethodGet, Path: api.PathVersion, Handler: hs.version.Handle, Family: public, Scope: ScopeExempt,
			Doc: Doc{Summary: "The running version", Response: api.Version{}}},
		{Method: http.MethodGet, Path: api.PathLinkPreview, Handler: hs.linkPreview.Handle, Family: public, Scope: ScopeLinkPreview,
			Doc: Doc{Summary: "A page's preview: title, description, image", Query: api.LinkPreviewQuery{}, Response: api.LinkPreview{},
				Errors: map[int]string{
					http.StatusBadRequest:     "url is missing, malformed, or not http(s).",
					http.StatusForbidden:      "The target resolves to a loopback, private, link-local, multicast or unspecified address.",
					http.StatusBadGateway:     "The target answered with an HTTP error (details: its status text) or could not be reached.",
					http.StatusGatewayTimeout: "The target did not answer in 10 seconds.",
				}}},
		{Method: http.MethodGet, Path: api.PathAvatarImage, Handler: hs.avatar.Handle, Family: api.FamilyAvatar, Scope: ScopeAvatar, Quiet: true,
			Doc: Doc{Summary: "An avatar (SVG)", Query: api.AvatarQuery{}, ContentType: "image/svg+xml",
				Errors: map[int]string{http.StatusBadRequest: "seed is missing, or size is not an integer from 50 to 1000."}}},
		{Method: http.MethodGet, Path: api.PathOGImage, Handler: hs.ogImage.Handle, Family: public, Scope: ScopeOGImage, Quiet: true,
			Doc: Doc{Summary: "A social-sharing image (1200×630)", Query: api.OGImageParams{}, ContentType: "image/png, image/svg+xml",
				Description: "PNG unless type=svg. A failed drawing answers 200 with a fallback SVG.",
				Errors:      map[int]string{http.StatusBadRequest: "A parameter is too long or not one of its values."},
				Others:      []Outcome{{Status: http.StatusFound, Description: "A person's browser without direct=true: to /og-image-viewer with the same query."}}}},
		// The collector answers 403 itself without a session,
		// and counts events, not requests.
		{Method: http.MethodPost, Path: api.PathAnalyticsCollect, Handler: hs.collect.Handle, Family: api.FamilyCollector,
			Scope: ScopeExempt, Meter: ScopeAnalyticsEvents, Blockable: true,
			Doc: Doc{Summary: "Record analytics events", Description: "One event, or a batch of 1 to 100; stored before the answer. " +
				"Needs a signed-in session (the cookie; a bearer token is not a session). Bodies up to 256 KiB.",
				Body: openapi.OneOf(api.CollectEvent{}, api.CollectBatch{}), Status: http.StatusAccepted,
				Response: openapi.OneOf(api.CollectAccepted{}, api.CollectBatchAccepted{}),
				Errors: map[int]string{
					http.StatusBadRequest:            "Malformed JSON, or events that break the schema: details name every bad path.",
					http.StatusForbidden:             "No signed-in session.",
					http.StatusRequestEntityTooLarge: "The body is over 256 KiB.",
					http.StatusServiceUnavailable:    "The events could not be stored now; nothing was kept. Retry after a second.",
				}}},
		{Method: http.MethodGet, Path: api.PathMetrics, Handler: metricsHandler(d.Metrics, d.Logger), Family: general, Scope: ScopeExempt,
			Permissions: []string{auth.PermAdminRead}, MetricsToken: true,
			Doc: Doc{Summary: "Prometheus metrics", ContentType: "text/plain"}},

		{Method: http.MethodGet, Path: api.PathSignIn, Handler: hs.signIn.Page, Family: general, Scope: ScopeGeneral,
			Doc: Doc{Summary: "The sign-in page", Query: api.CallbackQuery{}, ContentType: "text/html"}},
		{Method: http.MethodPost, Path: api.PathSignIn, Handler: hs.signIn.Handle, Family: general, Scope: ScopeGeneral, Meter: ScopeSignIn, Blockable: true,
			Audit: Audit{Action: "auth.second_factor", Target: "user", Optional: true},
			Doc: Doc{Summary: "Sign in with email and password", Body: api.SignInRequest{}, Response: api.Session{},
				Description: "Sets the session cookie. A browser's form is answered with a redirect, or the page again with the message (401); " +
					"an account enrolled in two-factor sign-in gets a page asking for its code (form field code), JSON callers send totp or recoveryCode. " +
					"Failed codes and used recovery codes are audited.",
				Errors: map[int]string{http.StatusUnauthorized: "Wrong email or password, a banned or deactivated account; " +
					"TOTP_REQUIRED: an enrolled account without totp or recoveryCode; TOTP_INVALID: a wrong or already used code."},
				Others: []Outcome{{Status: http.StatusSeeOther, Description: "A browser's form: to callbackUrl (this site only) or /admin."}}}},
		{Method: http.MethodGet, Path: api.PathSignInProvider, Handler: hs.oauth.Begin, Family: general, Scope: ScopeGeneral, Blockable: true,
			Doc: Doc{Summary: "Start signing in with a provider", Query: api.CallbackQuery{}, Status: http.StatusFound}},
		{Method: http.MethodGet, Path: api.PathCallbackProvider, Handler: hs.oauth.Callback, Family: general, Scope: ScopeGeneral, Blockable: true,
			Doc: Doc{Summary: "Finish signing in with a provider", Query: api.OAuthCallbackQuery{}, Status: http.StatusSeeOther,
				Description: "Sets the session cookie and sends the browser on to the callbackUrl sign-in began with, or /admin.",
				Errors: map[int]string{
					http.StatusUnauthorized: "The sign-in was refused, expired, not started here, or the account cannot sign in (browsers get the sign-in page).",
					http.StatusBadGateway:   "The provider's user API did not answer.",
				}}},
		{Method: http.MethodGet, Path: api.PathSession, Handler: hs.session.Handle, Family: general, Scope: ScopeGeneral,
			Doc: Doc{Summary: "The current session", Response: openapi.OneOf(api.Session{}, api.NoSession{}),
				Description: "{user, expires} when signed in with the session cookie, {} otherwise."}},
		{Method: http.MethodGet, Path: api.PathProviders, Handler: hs.providers.Handle, Family: general, Scope: ScopeGeneral,
			Doc: Doc{Summary: "The enabled sign-in providers, by id", Response: api.Providers{}}},
		{Method: http.MethodGet, Path: api.PathSignOut, Handler: hs.signOut.Page, Family: general, Scope: ScopeGeneral, BlockExempt: true,
			Doc: Doc{Summary: "The sign-out page", ContentType: "text/html"}},
		{Method: http.MethodPost, Path: api.PathSignOut, Handler: hs.signOut.Handle, Family: general, Scope: ScopeGeneral, BlockExempt: true,
			Doc: Doc{Summary: "Sign out", Response: api.SignedOut{},
				Others: []Outcome{{Status: http.StatusSeeOther, Description: "A browser: to the sign-in page."}}}},

		// One's own sessions: listed for the session cookie or a bearer token
		// (which is no session, so none of its owner's is current); ended
		// only from a session.
		{Method: http.MethodGet, Path: api.PathSessions, Handler: hs.sessions.Mine, Family: general, Scope: ScopeGeneral, SignIn: true,
			Doc: Doc{Summary: "Your signed-in sessions", Response: api.UserSessions{},
				Description: "Live sessions, most recently used first; the one this request came with is current."}},
		{Method: http.MethodDelete, Path: api.PathSessions, Handler: hs.sessions.RevokeOthers, Action: policy.RevokeOwnSession, Family: general, Scope: ScopeGeneral, SignIn: true,
			Doc: Doc{Summary: "Sign out all your other sessions", Response: api.SessionsRevoked{},
				Description: "Every session of yours but the one this request came with ends at once, on every instance.",
				Errors:      map[int]string{http.StatusForbidden: "A bearer token: this needs a session."}}},
		{Method: http.MethodDelete, Path: api.PathSessionOne, Handler: hs.sessions.RevokeMine, Action: policy.RevokeOwnSession, Family: general, Scope: ScopeGeneral, SignIn: true,
			Doc: Doc{Summary: "Revoke one of your sessions", Response: api.SessionsRevoked{},
				Description: "By the id the list gives; revoking the current session signs you out.",
				Errors:      map[int]string{http.StatusForbidden: "A bearer token: this needs a session.", http.StatusNotFound: "No live session of yours has this id."}}},
		{Method: http.MethodPost, Path: api.PathPassword, Handler: hs.password.Handle, Action: policy.ChangePassword, Family: general, Scope: ScopeGeneral, Meter: ScopeSignIn, SignIn: true,
			Doc: Doc{Summary: "Change your password", Body: api.PasswordChange{}, Response: api.PasswordChanged{},
				Description: "Every other session of yours ends in the same transaction; the one this request came with stays. " +
					"A wrong current password counts as a failed sign-in for your email.",
				Errors: map[int]string{
					http.StatusForbidden:       "The current password is wrong, or the account has none (it signs in through a provider).",
					http.StatusTooManyRequests: "Too many failed sign-ins or password checks for this email or IP.",
				}}},
		ConsolePage("/api/auth/sessions", Route{Path: api.PathConsoleAccountSessions, Handler: hs.sessions.Mine, Permissions: moderate,
			Doc: Doc{Summary: "The console's \"Your sessions\" page", Response: api.UserSessions{}}}),
		ConsolePage("/api/v1/admin/users/{id}/sessions", Route{Path: api.PathConsoleUserSessions, Handler: hs.sessions.List, Action: policy.ViewUserSessions,
			Audit: Audit{Action: "user.sessions", Target: "user"},
			Doc:   Doc{Summary: "The user page's sessions card", Response: api.V1Of[[]api.UserSession]{}}}),
		// Two-factor sign-in and re-confirmation (docs/api.md, "Two-factor
		// sign-in"): for the signed-in session, unenrolled staff included.
		{Method: http.MethodPost, Path: api.PathTwoFactorSetup, Handler: hs.twoFactor.Setup, Action: policy.SetUpTwoFactor, Family: general, Scope: ScopeGeneral, Meter: ScopeSignIn, SignIn: true,
			Audit: Audit{Action: "two_factor.setup", Target: "user"},
			Doc: Doc{Summary: "Start enrolling in two-factor sign-in", Body: api.TwoFactorSetupRequest{}, Response: api.TwoFactorSetup{},
				Description: "Needs the account's password (a wrong one counts as a failed sign-in). A new TOTP secret, its otpauth URL and QR code; " +
					"it works only once a code from the app enables it.",
				Errors: map[int]string{
					http.StatusForbidden: "A bearer token: enrolment needs a session. SUDO_REQUIRED: an account without a password " +
						"(it signs in through a provider) whose sign-in is over 10 minutes old.",
					http.StatusConflict:            "Two-factor sign-in is already on.",
					http.StatusUnprocessableEntity: "The password is missing or wrong.",
				}}},
		{Method: http.MethodPost, Path: api.PathTwoFactorEnable, Handler: hs.twoFactor.Enable, Action: policy.EnableTwoFactor, Family: general, Scope: ScopeGeneral, Meter: ScopeSignIn, SignIn: true,
			Audit: Audit{Action: "two_factor.enable", Target: "user"},
			Doc: Doc{Summary: "Turn two-factor sign-in on with a code from the app", Body: api.TwoFactorCode{}, Response: api.TwoFactorEnabled{},
				Description: "Answers the ten one-time recovery codes, shown this once. A wrong code counts as a failed sign-in. " +
					"Turning it on confirms nothing: dangerous actions after it still ask for a confirmation once the last one is over 10 minutes old.",
				Errors: map[int]string{http.StatusForbidden: "A bearer token: enrolment needs a session.", http.StatusNotFound: "No setup under way.",
					http.StatusConflict: "Two-factor sign-in is already on."}}},
		{Method: http.MethodPost, Path: api.PathTwoFactorDisable, Handler: hs.twoFactor.Disable, Action: policy.DisableTwoFactor, Family: general, Scope: ScopeGeneral, Meter: ScopeSignIn, SignIn: true,
			Audit: Audit{Action: "two_factor.disable", Target: "user"},
			Doc: Doc{Summary: "Turn two-factor sign-in off", Body: api.TwoFactorDisable{}, Response: api.TwoFactorDisabled{},
				Description: "Needs the password (422 when wrong, counted as a failed sign-in); the recovery codes go too.",
				Errors: map[int]string{http.StatusForbidden: "A bearer token: this needs a session; or an account without a password, " +
					"which an operator resets instead (plaza user reset-2fa)."}}},
		{Method: http.MethodPost, Path: api.PathConfirm, Handler: hs.twoFactor.Confirm, Family: general, Scope: ScopeGeneral, Meter: ScopeSignIn, SignIn: true,
			Audit: Audit{Action: "auth.confirm", Target: "user", Optional: true},
			Doc: Doc{Summary: "Confirm it's you before dangerous actions", Body: api.Confirmation{}, Response: api.Confirmed{},
				Description: "The password, or a code for an enrolled account: routes marked for it then work for 10 minutes. " +
					"A wrong answer is 422, counted as a failed sign-in, and audited.",
				Errors: map[int]string{http.StatusForbidden: "A bearer token: confirmation is for sessions."}}},
		{Method: http.MethodGet, Path: api.PathConfirm, Handler: hs.twoFactor.Confirmation, Family: general, Scope: ScopeGeneral, SignIn: true,
			Doc: Doc{Summary: "Whether dangerous actions need a new confirmation", Response: api.Confirmed{},
				Errors: map[int]string{http.StatusForbidden: "A bearer token: confirmation is for sessions."}}},
		{Method: http.MethodGet, Path: api.PathConsoleTwoFactor, Handler: hs.twoFactor.Page, Family: console, Scope: ScopeExempt, SignIn: true,
			Doc: Doc{Summary: "The console's two-factor sign-in page", Response: api.TwoFactorStatus{}, ContentType: "text/html",
				Description: "Set up (QR code, key, code), the recovery codes once, or turning it off. Reachable by staff who have not enrolled yet."}},

		// The API's own description (docs/api.md, "The OpenAPI document").
		{Method: http.MethodGet, Path: api.PathOpenAPI, Handler: hs.openAPI.Handle, Family: general, Scope: ScopeExempt,
			Doc: Doc{Summary: "This OpenAPI 3.1 document", Response: api.OpenAPIDocument{}}},
		{Method: http.MethodGet, Path: api.PathAPIDocs, Handler: hs.apiDocs.Handle, Family: general, Scope: ScopeExempt,
			Doc: Doc{Summary: "The API reference, browsable", ContentType: "text/html"}},

		// Search: anyone may search; the caller decides what is visible.
		{Method: http.MethodGet, Path: api.PathSearch, Handler: hs.search.All, Family: general, Scope: ScopeGeneral, Caller: true,
			Doc: Doc{Summary: "Search users and posts, ranked", Query: api.SearchQuery{}, Response: api.SearchResults{}}},
		{Method: http.MethodGet, Path: api.PathSearchUsers, Handler: hs.search.Users, Family: general, Scope: ScopeGeneral, Caller: true,
			Doc: Doc{Summary: "Search users, ranked", Query: api.SearchQuery{}, Response: api.SearchResults{}}},
		{Method: http.MethodGet, Path: api.PathSearchPosts, Handler: hs.search.Posts, Family: general, Scope: ScopeGeneral, Caller: true,
			Doc: Doc{Summary: "Search posts, ranked", Query: api.SearchQuery{}, Response: api.SearchResults{}}},

		// The unversioned admin family (docs/api.md, "Unversioned admin").
		{Method: http.MethodGet, Path: api.PathAdminUsers, Handler: hs.adminUsers.List, Family: api.FamilyAdmin, Scope: ScopeAdminUsers,
			Permissions: manage, Audit: Audit{Action: "users.list"},
			Doc: Doc{Summary: "List users with roles, subscriptions and timeouts", Query: api.AdminUsersQuery{}, Response: api.AdminUserList{}}},
		{Method: http.MethodPost, Path: api.PathAdminUserBan, Handler: hs.adminUsers.Ban, Action: policy.BanUser, Family: api.FamilyAdmin, Scope: ScopeAPIAdmin,
			Permissions: manage, Audit: Audit{Action: "user.ban", Target: "user"},
			Doc: Doc{Summary: "Ban a user", Body: api.AdminBanRequest{}, Response: api.AdminBanResult{}}},
		{Method: http.MethodPost, Path: api.PathAdminUserUnban, Handler: hs.adminUsers.Unban, Action: policy.BanUser, Family: api.FamilyAdmin, Scope: ScopeAPIAdmin,
			Permissions: manage, Audit: Audit{Action: "user.unban", Target: "user"},
			Doc: Doc{Summary: "End a user's ban", Response: api.AdminBanResult{},
				Errors: map[int]string{http.StatusConflict: "The user is not banned."}}},
		{Method: http.MethodGet, Path: api.PathAdminStats, Handler: hs.adminUsers.Stats, Family: api.FamilyAdmin, Scope: ScopeAPIAdmin,
			Permissions: manage, Audit: Audit{Action: "stats.view"},
			Doc: Doc{Summary: "Platform totals", Response: api.AdminStats{}}},

		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminWebhooks, Handler: hs.webhooks.List, Audit: Audit{Action: "webhook.list"},
			Doc: Doc{Summary: "List webhook endpoints (never their secrets)", Response: api.V1Of[[]api.Webhook]{}}}),
		AdminV1(Route{Method: http.MethodPost, Path: api.PathAdminWebhooks, Handler: hs.webhooks.Create,
			Audit: Audit{Action: "webhook.create", Target: "webhook"},
			Doc: Doc{Summary: "Register a webhook endpoint", Description: "The signing secret is shown this once. " +
				"The URL must be http(s), without credentials, and not name a loopback, private or link-local address.",
				Body: api.WebhookRequest{}, Response: api.V1Of[api.WebhookWithSecret]{}, Status: http.StatusCreated,
				Errors: map[int]string{http.StatusUnprocessableEntity: "A URL the address policy refuses, an unknown event, none."}}}),
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminWebhook, Handler: hs.webhooks.Get, Audit: Audit{Action: "webhook.view"},
			Doc: Doc{Summary: "One webhook endpoint", Response: api.V1Of[api.Webhook]{}, Errors: map[int]string{http.StatusNotFound: "No such webhook (or delivery)."}}}),
		AdminV1(Route{Method: http.MethodPatch, Path: api.PathAdminWebhook, Handler: hs.webhooks.Update,
			Audit: Audit{Action: "webhook.update", Target: "webhook"},
			Doc: Doc{Summary: "Change a webhook endpoint's URL, events, description or active switch", Body: api.WebhookPatch{},
				Response: api.V1Of[api.Webhook]{}, Errors: map[int]string{http.StatusNotFound: "No such webhook (or delivery)."}}}),
		AdminV1(Route{Method: http.MethodDelete, Path: api.PathAdminWebhook, Handler: hs.webhooks.Delete,
			Audit: Audit{Action: "webhook.delete", Target: "webhook"},
			Doc:   Doc{Summary: "Delete a webhook endpoint and its delivery log", Response: api.V1Of[api.DeletedWebhook]{}, Errors: map[int]string{http.StatusNotFound: "No such webhook (or delivery)."}}}),
		AdminV1(Route{Method: http.MethodPost, Path: api.PathAdminWebhookRotate, Handler: hs.webhooks.RotateSecret,
			Audit: Audit{Action: "webhook.rotate_secret", Target: "webhook"},
			Doc: Doc{Summary: "Give a webhook endpoint a new signing secret, shown this once", Response: api.V1Of[api.WebhookWithSecret]{},
				Errors: map[int]string{http.StatusNotFound: "No such webhook (or delivery)."}}}),
		AdminV1(Route{Method: http.MethodPost, Path: api.PathAdminWebhookTest, Handler: hs.webhooks.Test,
			Audit: Audit{Action: "webhook.test", Target: "webhook"},
			Doc: Doc{Summary: "Queue a ping message to a webhook endpoint", Response: api.V1Of[api.WebhookDelivery]{},
				Status: http.StatusAccepted, Errors: map[int]string{http.StatusNotFound: "No such webhook (or delivery)."}}}),
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminWebhookDeliveries, Handler: hs.webhooks.Deliveries, Audit: Audit{Action: "webhook.deliveries"},
			Doc: Doc{Summary: "A webhook endpoint's delivery log, newest first", Query: api.V1PageQuery{},
				Response: api.V1PageOf[api.WebhookDelivery]{}, Errors: map[int]string{http.StatusNotFound: "No such webhook (or delivery)."}}}),
		AdminV1(Route{Method: http.MethodPost, Path: api.PathAdminWebhookRetry, Handler: hs.webhooks.Retry,
			Audit: Audit{Action: "webhook.retry", Target: "webhook"},
			Doc: Doc{Summary: "Queue a delivery again with a fresh round of attempts", Response: api.V1Of[api.WebhookDelivery]{},
				Status: http.StatusAccepted, Errors: map[int]string{http.StatusNotFound: "No such webhook (or delivery)."}}}),
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminTokens, Handler: hs.tokens.List,
			Permissions: []string{auth.PermAdminSuper}, Audit: Audit{Action: "token.list"},
			Doc: Doc{Summary: "List unexpired admin tokens", Response: api.V1Of[[]api.Token]{}}}),
		AdminV1(Route{Method: http.MethodPost, Path: api.PathAdminTokens, Handler: hs.tokens.Create, Action: policy.MintToken,
			Permissions: []string{auth.PermAdminSuper}, Audit: Audit{Action: "token.create", Target: "token"},
			Doc: Doc{Summary: "Mint an admin token", Description: "The JWT is shown this once. A token never carries a permission its maker lacks, and never mints another.",
				Body: api.TokenRequest{}, Response: api.V1Of[api.NewToken]{}, Status: http.StatusCreated}}),
		AdminV1(Route{Method: http.MethodDelete, Path: api.PathAdminToken, Handler: hs.tokens.Revoke, Action: policy.RevokeToken,
			Permissions: []string{auth.PermAdminSuper}, Audit: Audit{Action: "token.revoke", Target: "token"},
			Doc: Doc{Summary: "Revoke an admin token by its jti", Response: api.V1Of[api.RevokedToken]{}}}),
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminV1Users, Handler: hs.v1Users.List, Audit: Audit{Action: "users.list"},
			Doc: Doc{Summary: "List users", Query: api.V1UsersQuery{}, Response: api.V1PageOf[api.V1User]{},
				Description: "Filtered by status, highest role and a substring of the username or email; sorted as asked, then by id."}}),
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminV1User, Handler: hs.v1Users.Get, Audit: Audit{Action: models.ViewUserAction, Target: "user"},
			Doc: Doc{Summary: "One user in full", Response: api.V1Of[api.V1UserDetail]{},
				Description: "The record with the profile, every role, the ban history, the latest 10 posts and the latest 20 audit entries about the user."}}),
		AdminV1(Route{Method: http.MethodPut, Path: api.PathAdminV1User, Handler: hs.v1Users.Update, Action: policy.UpdateUser, Audit: Audit{Action: "user.update", Target: "user"},
			Doc: Doc{Summary: "Change a user's status, role, verification or notes", Body: api.V1UserUpdate{}, Response: api.V1Of[api.V1User]{},
				Description: "Every field optional, at least one. The audit entry keeps the fields before and after.",
				Errors: map[int]string{
					http.StatusForbidden: "Your own status or role, or a super admin's user unless you are one.",
					http.StatusLocked:    "Another admin holds the user's edit lock (lockedBy, lockedAt).",
				}}}),
		AdminV1(Route{Method: http.MethodPost, Path: api.PathAdminV1BulkUpdate, Handler: hs.v1Users.BulkUpdate, Action: policy.BulkUpdateUsers,
			Permissions: []string{auth.PermAdminSuper}, Audit: Audit{Action: "users.bulk_update"},
			Doc: Doc{Summary: "Change up to 500 users at once", Body: api.V1BulkUpdate{}, Response: api.V1Of[api.V1BulkResult]{},
				Description: "All or nothing, in one transaction with one audit entry that keeps each user's fields before and after.",
				Errors: map[int]string{
					http.StatusForbidden: "Your own status or role among the changes.",
					http.StatusNotFound:  "An id no user has; nothing changed.",
					http.StatusLocked:    "Another admin holds one of the users' edit locks (lockedBy, lockedAt).",
				}}}),
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminV1UserNotes, Handler: hs.v1Users.Notes, Audit: Audit{Action: "user.notes", Target: "user"},
			Doc: Doc{Summary: "Staff notes on a user, newest first", Response: api.V1Of[[]api.V1Note]{}}}),
		AdminV1(Route{Method: http.MethodPost, Path: api.PathAdminV1UserNotes, Handler: hs.v1Users.AddNote, Audit: Audit{Action: "user.note", Target: "user"},
			Doc: Doc{Summary: "Add a note (or a warning) on a user", Body: api.V1NewNote{}, Response: api.V1Of[api.V1Note]{}, Status: http.StatusCreated,
				Description: "Append-only. A warning counts as a strike in the user's history."}}),
		AdminV1(Route{Method: http.MethodPost, Path: api.PathAdminV1UserBan, Handler: hs.v1Users.Ban, Action: policy.BanUser, Audit: Audit{Action: "user.ban", Target: "user"},
			Doc: Doc{Summary: "Ban or unban a user", Body: api.V1BanRequest{}, Response: api.V1Of[api.V1BanResult]{},
				Description: "A ban replaces the one in force; a temporary one ends by itself. An unban of a user no ban holds changes nothing (ban: null).",
				Errors: map[int]string{
					http.StatusForbidden: "Yourself, or a super admin unless you are one.",
					http.StatusLocked:    "Another admin holds the user's edit lock (lockedBy, lockedAt).",
				}}}),
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminV1UserSessions, Handler: hs.sessions.List, Action: policy.ViewUserSessions, Audit: Audit{Action: "user.sessions", Target: "user"},
			Doc: Doc{Summary: "A user's signed-in sessions", Response: api.V1Of[[]api.UserSession]{},
				Description: "Live sessions, most recently used first; current marks the caller's own session.",
				Errors:      map[int]string{http.StatusForbidden: "A super admin's sessions unless you are one."}}}),
		AdminV1(Route{Method: http.MethodDelete, Path: api.PathAdminV1UserSessions, Handler: hs.sessions.RevokeAll, Action: policy.RevokeUserSession,
			Audit: Audit{Action: "user.revoke_sessions", Target: "user"},
			Doc: Doc{Summary: "Sign a user out everywhere", Response: api.V1Of[api.SessionsRevoked]{},
				Description: "Every session of the user ends at once, on every instance, in the transaction of the audit entry. Admin tokens are not sessions: revoke them apart.",
				Errors:      map[int]string{http.StatusForbidden: "A super admin's sessions unless you are one."}}}),
		AdminV1(Route{Method: http.MethodDelete, Path: api.PathAdminV1UserSession, Handler: hs.sessions.RevokeOne, Action: policy.RevokeUserSession,
			Audit: Audit{Action: "user.revoke_session", Target: "user"},
			Doc: Doc{Summary: "Revoke one of a user's sessions", Response: api.V1Of[api.SessionsRevoked]{},
				Errors: map[int]string{http.StatusForbidden: "A super admin's session unless you are one.",
					http.StatusNotFound: "No such user, or no live session of the user's has this id."}}}),
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminV1Posts, Handler: hs.v1Posts.List, Audit: Audit{Action: "posts.list"},
			Doc: Doc{Summary: "List posts with admin metadata", Query: api.V1PostsQuery{}, Response: api.V1PageOf[api.V1Post]{},
				Description: "Filtered by status, author, open reports and a substring of the title; sorted as asked, then by id."}}),
		AdminV1(Route{Method: http.MethodPost, Path: api.PathAdminV1Moderate, Handler: hs.v1Posts.Moderate, Action: policy.ModeratePost, Audit: Audit{Action: "post.moderate", Target: "post"},
			Doc: Doc{Summary: "Approve, hide, delete or flag a post", Body: api.V1ModerationRequest{},
				Response:    openapi.OneOf(api.V1Of[api.V1Post]{}, api.V1Of[api.V1DeletedPost]{}),
				Description: "Every action is kept as a moderation record. Approve resolves the post's open reports; delete removes the post.",
				Errors: map[int]string{
					http.StatusForbidden: "Delete without admin:delete.",
					http.StatusLocked:    "Another admin holds the post's edit lock (lockedBy, lockedAt).",
				}}}),
		AdminV1(Route{Method: http.MethodPost, Path: api.PathAdminV1BulkModerate, Handler: hs.v1Posts.BulkModerate, Action: policy.BulkModerate,
			Audit: Audit{Action: "posts.bulk_moderate"},
			Doc: Doc{Summary: "One moderation decision for up to 200 posts", Body: api.V1BulkModeration{}, Response: api.V1Of[api.V1BulkModerationResult]{},
				Description: "All or nothing, in one transaction with one audit entry; each post gets its moderation record.",
				Errors: map[int]string{
					http.StatusForbidden: "Delete without admin:delete, or a session whose last confirmation is over 10 minutes old (SUDO_REQUIRED): POST /api/auth/confirm, then retry.",
					http.StatusNotFound:  "An id no post has; nothing changed.",
					http.StatusLocked:    "Another admin holds one of the posts' edit locks (lockedBy, lockedAt).",
				}}}),
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminV1Reasons, Handler: hs.reasons.Get, Audit: Audit{Action: "moderation_reasons.view"},
			Doc: Doc{Summary: "The reason presets for bans and moderation", Response: api.V1Of[api.V1Reasons]{}}}),
		AdminV1(Route{Method: http.MethodPut, Path: api.PathAdminV1Reasons, Handler: hs.reasons.Put, Audit: Audit{Action: "moderation_reasons.update"},
			Doc: Doc{Summary: "Replace the reason presets", Body: api.V1Reasons{}, Response: api.V1Of[api.V1Reasons]{}}}),
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminV1Flags, Handler: hs.flags.List, Audit: Audit{Action: "feature_flags.list"},
			Doc: Doc{Summary: "List feature flags", Response: api.V1Of[[]api.V1FeatureFlag]{}}}),
		AdminV1(Route{Method: http.MethodPut, Path: api.PathAdminV1Flag, Handler: hs.flags.Put, Permissions: []string{auth.PermAdminSuper},
			Audit: Audit{Action: "feature_flag.update", Target: "feature_flag"},
			Doc: Doc{Summary: "Create or change a feature flag", Body: api.V1FlagUpdate{}, Response: api.V1Of[api.V1FeatureFlag]{},
				Description: "200 with a changed flag; 201 with a new one, which starts disabled at 0%.",
				Others:      []Outcome{{Status: http.StatusCreated, Body: api.V1Of[api.V1FeatureFlag]{}, Description: "The flag was created."}},
				Errors:      map[int]string{http.StatusLocked: "Another admin holds the flag's edit lock (lockedBy, lockedAt)."}}}),
		AdminV1(Route{Method: http.MethodDelete, Path: api.PathAdminV1Flag, Handler: hs.flags.Delete, Permissions: []string{auth.PermAdminSuper},
			Audit: Audit{Action: "feature_flag.delete", Target: "feature_flag"},
			Doc: Doc{Summary: "Delete a feature flag", Response: api.V1Of[api.DeletedFlag]{},
				Errors: map[int]string{http.StatusLocked: "Another admin holds the flag's edit lock (lockedBy, lockedAt)."}}}),
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminV1Analytics, Handler: hs.analytics.Get, Audit: Audit{Action: "analytics.view"},
			Doc: Doc{Summary: "Platform analytics over a period", Query: api.V1AnalyticsQuery{}, Response: api.V1Of[api.V1Analytics]{},
				Description: "Only the sections metrics names (all by default), read from counters, indexes and the daily roll-ups, " +
					"never from raw events beyond an hourly series' day or two."}}),
		AdminV1(Route{Method: http.MethodPost, Path: api.PathAdminV1Maintenance, Handler: hs.system.Maintenance, Scope: ScopeAdminSystem,
			Permissions: []string{auth.PermAdminSuper}, Audit: Audit{Action: "system.maintenance", Target: "job"},
			Doc: Doc{Summary: "Queue a maintenance job", Body: api.V1MaintenanceRequest{}, Response: api.V1Of[api.V1QueuedJob]{},
				Status: http.StatusAccepted,
				Description: "The job queue runs it in the background, one job of an action at a time on every instance; " +
					"GET /system/jobs/{jobId} follows its progress and result.",
				Errors: map[int]string{http.StatusConflict: "A job of the action is queued or running."}}}),
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminV1Jobs, Handler: hs.system.Jobs, Audit: Audit{Action: "system.jobs"},
			Doc: Doc{Summary: "Maintenance jobs, latest first", Query: api.V1PageQuery{}, Response: api.V1PageOf[api.V1Job]{}}}),
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminV1Job, Handler: hs.system.Job, Audit: Audit{Action: "system.job", Target: "job"},
			Doc: Doc{Summary: "One maintenance job: status, progress, result or error", Response: api.V1Of[api.V1Job]{}}}),
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminV1Backups, Handler: hs.backups.List, Audit: Audit{Action: "backup.list"},
			Doc: Doc{Summary: "Backups in BACKUP_DIR, newest first", Response: api.V1Of[[]api.V1Backup]{}}}),
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminV1Backup, Handler: hs.backups.Download, Action: policy.DownloadBackup, Permissions: []string{auth.PermAdminSuper},
			Audit: Audit{Action: "backup.download", Target: "backup"},
			Doc: Doc{Summary: "Download a backup", ContentType: "application/octet-stream",
				Description: "Streamed as an attachment. It holds every session token and secret."}}),
		AdminV1(Route{Method: http.MethodDelete, Path: api.PathAdminV1Backup, Handler: hs.backups.Delete, Action: policy.DeleteBackup, Permissions: []string{auth.PermAdminSuper},
			Audit: Audit{Action: "backup.delete", Target: "backup"},
			Doc:   Doc{Summary: "Delete a backup", Response: api.V1Of[api.DeletedBackup]{}}}),
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminV1ActivityRep, Handler: hs.reports.UserActivity, Audit: Audit{Action: "report.user_activity"},
			Doc: Doc{Summary: "Who was active in a window, and how", Query: api.V1ActivityQuery{}, Response: api.V1PagedOf[api.V1ActivityReport]{},
				ContentType: "text/csv",
				Description: "The users with posts, sign-ins or events in the window, in id order, with totals over every row. " +
					"format=csv streams the same rows (every row unless limit or offset is given) as an attachment."}}),
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminV1ModerationRp, Handler: hs.reports.Moderation, Audit: Audit{Action: "report.moderation"},
			Doc: Doc{Summary: "Reports and moderation actions in a window", Query: api.V1ModerationReportQuery{}, Response: api.V1Of[api.V1ModerationReport]{},
				ContentType: "text/csv",
				Description: "format=csv streams the window's moderation actions, one a row, as an attachment."}}),
		AdminV1(Route{Method: http.MethodPost, Path: api.PathAdminV1Broadcast, Handler: hs.broadcasts.Send,
			Audit: Audit{Action: "notification.broadcast", Target: "broadcast"},
			Doc: Doc{Summary: "Send or schedule a notification to many users", Body: api.V1BroadcastRequest{},
				Response: api.V1Of[api.V1Broadcast]{}, Status: http.StatusCreated,
				Description: "An immediate broadcast counts its recipients at once and reaches their inboxes within seconds, " +
					"in steps of 50,000 user ids on the job queue; a scheduled one is sent at its time, once, whichever instance runs it."}}),
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminV1Broadcasts, Handler: hs.broadcasts.List, Audit: Audit{Action: "notification.list"},
			Doc: Doc{Summary: "Broadcasts, newest first, with recipients, deliveries and reads", Query: api.V1PageQuery{},
				Response: api.V1PageOf[api.V1Broadcast]{}}}),
		{Method: http.MethodGet, Path: api.PathNotifications, Handler: hs.inbox.List, Family: general, Scope: ScopeGeneral, SignIn: true,
			Doc: Doc{Summary: "Your notifications, unread first", Query: api.InboxQuery{}, Response: api.Inbox{}}},
		{Method: http.MethodPost, Path: api.PathNotificationRead, Handler: hs.inbox.Read, Family: general, Scope: ScopeGeneral, SignIn: true,
			Doc: Doc{Summary: "Mark one of your notifications read", Response: api.Notification{}}},
		{Method: http.MethodGet, Path: api.PathFeatureFlags, Handler: hs.flags.ForUser, Family: general, Scope: ScopeGeneral, SignIn: true,
			Doc: Doc{Summary: "Every feature flag's answer for you", Response: api.FlagsForUser{},
				Description: "A stable hash of the flag's name and your id decides a rollout, so your answer stays put and raising the percentage only adds users."}},
		// Blocks (docs/api.md, "Blocks"): these routes are never blocked
		// themselves, so that an admin can undo a block.
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminV1Blocks, Handler: hs.blocks.List, Audit: Audit{Action: "blocks.list"},
			Doc: Doc{Summary: "List blocks, newest first", Query: api.V1BlocksQuery{}, Response: api.V1PageOf[api.V1Block]{},
				Description: "Expired blocks stay listed (expired: true) until deleted; they stop applying when they expire."}}),
		AdminV1(Route{Method: http.MethodPost, Path: api.PathAdminV1Blocks, Handler: hs.blocks.Create, Action: policy.CreateBlock,
			Audit: Audit{Action: "block.create", Target: "block"},
			Doc: Doc{Summary: "Block an address range or an email domain", Body: api.V1BlockRequest{}, Response: api.V1Of[api.V1Block]{},
				Status: http.StatusCreated,
				Description: "An ip block refuses from its range sign-in, registration and every change outside the admin routes " +
					"(posts, reports, profiles, passwords, two-factor, sessions, analytics), and ends any non-staff session seen from it; " +
					"an email_domain block refuses registration with an email under the domain or its subdomains. It applies on every instance at once.",
				Errors: map[int]string{http.StatusConflict: "The kind and value are blocked already (CONFLICT, naming the block)."}}}),
		AdminV1(Route{Method: http.MethodDelete, Path: api.PathAdminV1Block, Handler: hs.blocks.Delete, Action: policy.DeleteBlock,
			Audit: Audit{Action: "block.delete", Target: "block"},
			Doc:   Doc{Summary: "Delete a block", Response: api.V1Of[api.DeletedBlock]{}}}),
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminAuditLogs, Handler: hs.audit.List, Audit: Audit{Action: "audit.view"},
			Doc: Doc{Summary: "The audit log, newest first", Query: api.AuditLogQuery{}, Response: api.V1PageOf[api.AuditEntry]{}}}),
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminAuditExport, Handler: hs.audit.Export, Action: policy.ExportAudit, Permissions: []string{auth.PermAdminSuper},
			Audit: Audit{Action: "audit.export"},
			Doc: Doc{Summary: "Export the audit log", Query: api.AuditExportQuery{}, ContentType: "application/x-ndjson, text/csv",
				Description: "Every entry the list's filters select, newest first, streamed as an attachment; the export is itself audited."}}),
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminAuditVerify, Handler: hs.audit.Verify, Audit: Audit{Action: "audit.verify"},
			Doc: Doc{Summary: "Re-walk the audit log's hash chain", Response: api.V1Of[api.AuditVerification]{}}}),
		AdminV1(Route{Method: http.MethodPost, Path: api.PathAdminLocks, Handler: hs.locks.Acquire, Audit: Audit{Action: "lock.acquire"},
			Doc: Doc{Summary: "Take or renew an edit lock (5 minutes)", Body: api.LockRequest{}, Response: api.V1Of[api.Lock]{}, Status: http.StatusCreated,
				Errors: map[int]string{http.StatusLocked: "Another admin holds the lock (lockedBy, lockedAt)."}}}),
		AdminV1(Route{Method: http.MethodDelete, Path: api.PathAdminLock, Handler: hs.locks.Release, Audit: Audit{Action: "lock.release"},
			Doc: Doc{Summary: "Release an edit lock", Response: api.V1Of[api.ReleasedLock]{},
				Errors: map[int]string{http.StatusLocked: "Another admin holds the lock."}}}),

		// General API: users and posts. Writes are audited when an
		// admin or moderator acts on someone else's account or post (Audit.Optional, handlers keepAudit).
		{Method: http.MethodGet, Path: api.PathUsers, Handler: hs.users.List, Family: general, Scope: ScopeGeneral, Caller: true, Doc: Doc{Summary: "List public profiles", Query: api.UserListQuery{}, Response: api.UserList{}}},
		{Method: http.MethodPost, Path: api.PathUsers, Handler: hs.users.Register, Action: policy.Register, Family: general, Scope: ScopeRegister, Blockable: true, Doc: Doc{Summary: "Register", Body: api.Registration{}, Response: api.User{}, Status: http.StatusCreated,
			Description: "An email under a blocked domain is 422 on email."}},
		{Method: http.MethodGet, Path: api.PathUser, Handler: hs.users.Get, Family: general, Scope: ScopeGeneral, Caller: true, Doc: Doc{Summary: "Get a user", Response: api.User{}}},
		{Method: http.MethodPut, Path: api.PathUser, Handler: hs.users.Update, Action: policy.EditProfile, Family: general, Scope: ScopeGeneral, SignIn: true, Audit: Audit{Action: "user.update", Target: "user", Optional: true}, Doc: Doc{Errors: lockedByAdmin, Summary: "Update a profile", Body: api.ProfileUpdate{}, Response: api.User{}}},
		{Method: http.MethodDelete, Path: api.PathUser, Handler: hs.users.Delete, Action: policy.DeleteAccount, Family: general, Scope: ScopeGeneral, SignIn: true, Audit: Audit{Action: "user.delete", Target: "user", Optional: true}, Doc: Doc{Errors: lockedByAdmin, Summary: "Delete an account", Body: api.AccountDeletion{}, Response: api.Deleted{}}},
		{Method: http.MethodGet, Path: api.PathPosts, Handler: hs.posts.List, Family: general, Scope: ScopeGeneral, Caller: true, Doc: Doc{Summary: "List posts", Query: api.PostListQuery{}, Response: api.PostList{}}},
		{Method: http.MethodPost, Path: api.PathPosts, Handler: hs.posts.Create, Family: general, Scope: ScopeGeneral, SignIn: true, Blockable: true, Doc: Doc{Summary: "Write a post", Body: api.NewPost{}, Response: api.Post{}, Status: http.StatusCreated}},
		{Method: http.MethodGet, Path: api.PathPost, Handler: hs.posts.Get, Family: general, Scope: ScopeGeneral, Caller: true, Doc: Doc{Summary: "Get a post", Response: api.Post{}}},
		{Method: http.MethodPut, Path: api.PathPost, Handler: hs.posts.Update, Action: policy.EditPost, Family: general, Scope: ScopeGeneral, SignIn: true, Audit: Audit{Action: "post.update", Target: "post", Optional: true}, Doc: Doc{Errors: lockedByAdmin, Summary: "Update a post", Body: api.PostUpdate{}, Response: api.Post{},
			Description: "Title, content and tags are the author's alone. published on a hidden or flagged post, or on someone else's, is moderation and needs posts:moderate " +
				"(and, for a staff session under REQUIRE_STAFF_2FA, two-factor sign-in: TWO_FACTOR_REQUIRED); unpublishing someone else's post hides it."}},
		{Method: http.MethodDelete, Path: api.PathPost, Handler: hs.posts.Delete, Action: policy.DeletePost, Family: general, Scope: ScopeGeneral, SignIn: true, Audit: Audit{Action: "post.delete", Target: "post", Optional: true}, Doc: Doc{Errors: lockedByAdmin, Summary: "Delete a post", Response: api.Deleted{},
			Description: "The author's own, or anyone's with admin:delete (and, for a staff session under REQUIRE_STAFF_2FA, two-factor sign-in: TWO_FACTOR_REQUIRED)."}},
		{Method: http.MethodPost, Path: api.PathPostReport, Handler: hs.posts.Report, Family: general, Scope: ScopeGeneral, SignIn: true, Doc: Doc{Summary: "Report a post", Body: api.ReportRequest{}, Response: api.Report{}, Status: http.StatusCreated}},
	}
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
		family[r.Path] = r.Family
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
	linkPreview handlers.LinkPreview
	avatar      handlers.AvatarImage
	health      handlers.Health
	version     handlers.Version
	dashboard   handlers.Dashboard
	signIn      handlers.SignIn
	oauth       handlers.OAuth
	signOut     handlers.SignOut
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
	sessions    handlers.UserSessions
	password    handlers.ChangePassword

	openAPI handlers.OpenAPI
	apiDocs handlers.APIDocs
}

// register adds the routes with their pipelines, and the routes that
// answer what the table does not: 405 for a method a path does not take,
// 404 for an unknown path. A GET route answers HEAD too, as crawlers probe
// image URLs with HEAD. It returns each path's family for the error handler.
func register(e *echo.Echo, p *pipeline, rs []Route) map[string]api.Family {
	families := map[string]api.Family{}
	add := func(r Route) {
		e.Add(r.Method, r.Path, compose(r.Handler, p.chain(r)))
		families[r.Path] = r.Family
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
