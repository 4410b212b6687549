package web

import (
	"net/http"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/openapi"
	"github.com/plazahq/plaza/models"
)

// consoleRoutes is the console: its pages run the same handlers as the API
// routes they show, under the same permissions and audit actions
// (docs/console.md); the og-image viewer and the static files.
func consoleRoutes(hs handlerSet) []Route {
	console := api.FamilyConsole
	moderate := []string{access.PermPostsModerate}
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
		ConsolePage("/api/v1/admin/users/{id}/related", Route{Path: api.PathConsoleUserRelated, Handler: hs.v1Users.Related, Action: policy.ViewRelatedAccounts,
			Audit: Audit{Action: "users.related", Target: "user"},
			Doc:   Doc{Summary: "The user page's related accounts card", Query: api.V1RelatedQuery{}, Response: api.V1Of[api.V1RelatedAccounts]{}}}),
		ConsolePage("/api/v1/admin/purges/{id}", Route{Path: api.PathConsolePurge, Handler: hs.purges.Get, Audit: Audit{Action: "users.purge_view", Target: "purge"},
			Doc: Doc{Summary: "The console's page of one purge", Response: api.V1Of[api.V1Purge]{}}}),
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
			Audit: Audit{Action: "posts.bulk_moderate"},
			Doc: Doc{Summary: "The moderation queue's decision on up to 200 posts", Body: api.V1BulkModeration{}, Response: api.V1Of[api.V1BulkModerationResult]{},
				Description: "POST /api/v1/admin/posts/bulk-moderate for the console, moderators included: no body and an HX-Trigger toast for htmx.",
				Errors: map[int]string{
					http.StatusForbidden: "Delete without admin:delete, or a last confirmation over 10 minutes old (SUDO_REQUIRED).",
					http.StatusNotFound:  "An id no post has; nothing changed.",
					http.StatusLocked:    "Another admin holds one of the posts' edit locks (lockedBy, lockedAt).",
				}}},
		{Method: http.MethodPost, Path: api.PathConsoleModeratePost, Handler: hs.v1Posts.Moderate, Action: policy.ModeratePost, Family: console, Scope: ScopeExempt,
			Audit: Audit{Action: "post.moderate", Target: "post"},
			Doc: Doc{Summary: "The moderation queue's decision on one post", Body: api.V1ModerationRequest{},
				Response:    openapi.OneOf(api.V1Of[api.V1Post]{}, api.V1Of[api.V1DeletedPost]{}),
				Description: "POST /api/v1/admin/posts/{id}/moderate for the console, moderators included: no body and an HX-Trigger toast for htmx.",
				Errors: map[int]string{
					http.StatusForbidden: "Delete without admin:delete.",
					http.StatusNotFound:  "No such post.",
					http.StatusLocked:    "Another admin holds the post's edit lock (lockedBy, lockedAt).",
				}}},
		{Method: http.MethodPost, Path: api.PathConsoleUndoModeration, Handler: hs.v1Posts.Undo, Action: policy.UndoModeration, Family: console, Scope: ScopeExempt,
			Audit: Audit{Action: "post.moderate_undo", Target: "post"},
			Doc: Doc{Summary: "Undo your last decision on a post from the moderation queue", Response: api.V1Of[api.V1UndoResult]{},
				Description: "POST /api/v1/admin/posts/{id}/moderate/undo for the console, moderators included: no body and an HX-Trigger toast for htmx.",
				Errors: map[int]string{
					http.StatusNotFound:            "No such post.",
					http.StatusUnprocessableEntity: "No decision of yours on this post from the last 10 minutes to undo, or a reporter has reported it again since.",
					http.StatusLocked:              "Another admin holds the post's edit lock (lockedBy, lockedAt).",
				}}},
		{Method: http.MethodGet, Path: api.PathConsolePostContext, Handler: hs.v1Posts.Context, Family: console, Scope: ScopeExempt, Permissions: moderate,
			Doc: Doc{Summary: "What a moderator reads before deciding on a post", Response: api.V1Of[api.V1PostContext]{}, ContentType: "text/html",
				Description: "The whole post, its open reports with their reporters' comments and accuracy, and the author's standing: the panel a queue row opens (htmx), or JSON.",
				Errors:      map[int]string{http.StatusNotFound: "No such post."}}},
		// A post's own page, where titles elsewhere in the console lead;
		// reading it asks what reading the post asks (actions.SeePost).
		{Method: http.MethodGet, Path: api.PathConsolePost, Handler: hs.v1Posts.Page, Family: console, Scope: ScopeExempt, Permissions: moderate,
			Audit: Audit{Action: "post.view", Target: "post"},
			Doc: Doc{Summary: "The console's page of one post", Response: api.V1Of[api.V1PostPage]{}, ContentType: "text/html",
				Description: "The whole post with its latest reports and every moderation decision on it, newest first: HTML for a browser and htmx, or JSON.",
				Errors:      map[int]string{http.StatusNotFound: "No such post, or one the caller may not see."}}},
		{Method: http.MethodPost, Path: api.PathConsoleClaimPost, Handler: hs.claims.Claim, Action: policy.ClaimPost, Family: console, Scope: ScopeExempt,
			Audit: Audit{Action: "post.claim", Target: "post"},
			Doc: Doc{Summary: "Claim a post of the moderation queue", Response: api.V1Of[api.V1Claim]{},
				Description: "The caller reviews the post: others see who, until the claim expires (5 minutes) unless renewed by claiming again. A decision on the post ends it. htmx gets the row's claim note.",
				Errors: map[int]string{
					http.StatusNotFound: "No such post.",
					http.StatusLocked:   "Another moderator's claim holds.",
				}}},
		{Method: http.MethodDelete, Path: api.PathConsoleClaimPost, Handler: hs.claims.Release, Action: policy.ReleasePost, Family: console, Scope: ScopeExempt,
			Audit: Audit{Action: "post.release", Target: "post"},
			Doc: Doc{Summary: "Let a claimed post of the moderation queue go", Response: api.V1Of[api.V1Released]{},
				Description: "Ends the caller's claim; another moderator's stays (released: false). htmx gets the row's claim note.",
				Errors:      map[int]string{http.StatusNotFound: "No such post."}}},
		// The desk's Applications tab: its page and decisions are console
		// routes running the applications' handlers, so that moderators
		// decide them too (docs/console.md, "Applications").
		ConsolePage("/api/v1/admin/applications", Route{Path: api.PathConsoleApplications, Handler: hs.apps.List, Permissions: moderate,
			Audit: Audit{Action: "applications.list"},
			Doc:   Doc{Summary: "The moderation desk's applications", Query: api.V1ApplicationsQuery{}, Response: api.V1PageOf[api.V1Application]{}}}),
		{Method: http.MethodPost, Path: api.PathConsoleApproveApplication, Handler: hs.apps.Approve, Action: policy.ApproveApplication, Family: console, Scope: ScopeExempt,
			Audit: Audit{Action: string(policy.ApproveApplication), Target: "user"},
			Doc: Doc{Summary: "The desk's approval of an application", Body: api.V1ApproveApplication{}, BodyOptional: true, Response: api.V1Of[api.V1Application]{},
				Description: "POST /api/v1/admin/applications/{id}/approve for the console, moderators included: no body and an HX-Trigger toast for htmx.",
				Errors:      applicationErrors}},
		{Method: http.MethodPost, Path: api.PathConsoleRejectApplication, Handler: hs.apps.Reject, Action: policy.RejectApplication, Family: console, Scope: ScopeExempt,
			Audit: Audit{Action: string(policy.RejectApplication), Target: "user"},
			Doc: Doc{Summary: "The desk's rejection of an application", Body: api.V1RejectApplication{}, Response: api.V1Of[api.V1Application]{},
				Description: "POST /api/v1/admin/applications/{id}/reject for the console, moderators included: no body and an HX-Trigger toast for htmx.",
				Errors:      applicationErrors}},
		{Method: http.MethodPost, Path: api.PathConsoleBulkApplications, Handler: hs.apps.Bulk, Action: policy.BulkDecideApplications, Family: console, Scope: ScopeExempt,
			Audit: Audit{Action: string(policy.BulkDecideApplications)},
			Doc: Doc{Summary: "The desk's decision on up to 200 applications", Body: api.V1BulkApplications{}, Response: api.V1Of[api.V1BulkApplicationsResult]{},
				Description: "POST /api/v1/admin/applications/bulk for the console, moderators included: no body and an HX-Trigger toast for htmx.",
				Errors:      bulkApplicationErrors}},
		{Method: http.MethodPost, Path: api.PathConsoleClaimApplication, Handler: hs.apps.Claim, Action: policy.ClaimApplication, Family: console, Scope: ScopeExempt,
			Audit: Audit{Action: string(policy.ClaimApplication), Target: "user"},
			Doc: Doc{Summary: "Claim an application of the moderation desk", Response: api.V1Of[api.V1ApplicationClaim]{},
				Description: "As a post's claim: others see who is reviewing it until the claim expires (5 minutes) unless renewed. A decision ends it. htmx gets the row's claim note.",
				Errors: map[int]string{
					http.StatusNotFound: "No application has this id.",
					http.StatusConflict: "The application is decided already.",
					http.StatusLocked:   "Another moderator's claim holds.",
				}}},
		{Method: http.MethodDelete, Path: api.PathConsoleClaimApplication, Handler: hs.apps.Release, Action: policy.ReleaseApplication, Family: console, Scope: ScopeExempt,
			Audit: Audit{Action: string(policy.ReleaseApplication), Target: "user"},
			Doc: Doc{Summary: "Let a claimed application of the moderation desk go", Response: api.V1Of[api.V1ApplicationReleased]{},
				Description: "Ends the caller's claim; another moderator's stays (released: false). htmx gets the row's claim note.",
				Errors:      map[int]string{http.StatusNotFound: "No application has this id."}}},
		// A console page's stream, not an API: a bearer token is refused.
		{Method: http.MethodGet, Path: api.PathConsoleModerationEvents, Handler: hs.queueEvents.Stream, Family: console, Scope: ScopeExempt,
			Permissions: moderate,
			Doc: Doc{Summary: "The moderation queue's live news (server-sent events)", ContentType: "text/event-stream",
				Description: "Events queue (count awaiting a decision), report, decision, claim, application (a new application) and resync, each with a JSON data line; a comment every 25 s. A console session's stream: a bearer token gets 403.",
				Errors: map[int]string{http.StatusForbidden: "A bearer token.",
					http.StatusTooManyRequests:    "RATE_LIMITED: the caller has MODERATION_STREAMS_PER_USER streams open on this instance; with Retry-After.",
					http.StatusServiceUnavailable: "SERVER_ERROR: the instance has MODERATION_STREAMS_MAX streams open; with Retry-After."}}},
		ConsolePage("/api/v1/admin/reports/user-activity (or CSV)", Route{Path: api.PathConsoleReports, Handler: hs.reports.UserActivity, Audit: Audit{Action: "report.user_activity"},
			Doc: Doc{Summary: "The console's user-activity report", Query: api.V1ActivityQuery{}, Response: api.V1PagedOf[api.V1ActivityReport]{}}}),
		ConsolePage("/api/v1/admin/reports/moderation (or CSV)", Route{Path: api.PathConsoleModerationReport, Handler: hs.reports.Moderation, Audit: Audit{Action: "report.moderation"},
			Doc: Doc{Summary: "The console's moderation report", Query: api.V1ModerationReportQuery{}, Response: api.V1Of[api.V1ModerationReport]{}}}),
		ConsolePage("/api/v1/admin/feature-flags", Route{Path: api.PathConsoleFlags, Handler: hs.flags.List, Audit: Audit{Action: "feature_flags.list"},
			Doc: Doc{Summary: "The console's feature flags page", Query: api.V1PageQuery{}, Response: api.V1PageOf[api.V1FeatureFlag]{}}}),
		ConsolePage("/api/v1/admin/webhooks", Route{Path: api.PathConsoleWebhooks, Handler: hs.webhooks.List, Audit: Audit{Action: "webhook.list"},
			Doc: Doc{Summary: "The console's webhooks page", Response: api.V1Of[[]api.Webhook]{}}}),
		ConsolePage("/api/v1/admin/tokens", Route{Path: api.PathConsoleTokens, Handler: hs.tokens.List, Permissions: []string{access.PermAdminSuper}, Audit: Audit{Action: "token.list"},
			Doc: Doc{Summary: "The console's API tokens page", Response: api.V1Of[[]api.Token]{}}}),
		ConsolePage("/api/v1/admin/registration", Route{Path: api.PathConsoleRegistration, Handler: hs.reg.Get, Audit: Audit{Action: "registration.view"},
			Doc: Doc{Summary: "The console's registration page", Response: api.V1Of[api.RegistrationRules]{}}}),
		{Method: http.MethodPost, Path: api.PathConsoleRegistration, Handler: hs.reg.Set, Action: policy.SetRegistration, Family: console, Scope: ScopeExempt,
			Audit: Audit{Action: string(policy.SetRegistration), Target: "settings"},
			Doc: Doc{Summary: "Change how new accounts open from the console", Body: api.RegistrationChange{}, Response: api.V1Of[api.RegistrationRules]{},
				Description: "PUT /api/v1/admin/registration for the console; JSON or the page's forms."}},
		ConsolePage("/api/v1/admin/settings/new-account-posts", Route{Path: api.PathConsoleNewAccounts, Handler: hs.newAccounts.Get, Audit: Audit{Action: "new_account_posts.view"},
			Doc: Doc{Summary: "The console's \"New accounts\" page", Query: api.NewAccountsPageQuery{}, Response: api.V1Of[api.NewAccountPosts]{}}}),
		{Method: http.MethodPost, Path: api.PathConsoleNewAccounts, Handler: hs.newAccounts.Set, Action: policy.UpdateNewAccountPosts, Family: console, Scope: ScopeExempt,
			Audit: Audit{Action: string(policy.UpdateNewAccountPosts), Target: "settings"},
			Doc: Doc{Summary: "Change the hold of new accounts' posts from the console", Body: api.NewAccountPostsChange{}, Response: api.V1Of[api.NewAccountPosts]{},
				Description: "PUT /api/v1/admin/settings/new-account-posts for the console; JSON or the page's form. " +
					"htmx gets the card back with a toast; a browser's plain form the page (303 to it once saved, or the form with the refusal).",
				Errors: map[int]string{http.StatusUnprocessableEntity: "holdFirst is not 0 to 50, holdDays not 0 to 90 (or not a number), or the body sets nothing."},
				Others: []Outcome{{Status: http.StatusSeeOther, Description: "A browser's plain form, once saved: to the page, which says so."}}}},
		ConsolePage("/api/v1/admin/blocks", Route{Path: api.PathConsoleBlocks, Handler: hs.blocks.List, Audit: Audit{Action: "blocks.list"},
			Doc: Doc{Summary: "The console's blocks page", Query: api.V1BlocksQuery{}, Response: api.V1PageOf[api.V1Block]{}}}),
		// Invitations are for all staff the policy lets in, moderators
		// included: the page, one invitation's, and the console's twins of
		// the versioned family's writes, with the same audit actions.
		ConsolePage("/api/v1/admin/invitations", Route{Path: api.PathConsoleInvitations, Handler: hs.invitations.List, Action: policy.SeeInvitations,
			Audit: Audit{Action: string(policy.SeeInvitations)},
			Doc:   Doc{Summary: "The console's invitations page", Query: api.InvitationsQuery{}, Response: api.V1PageOf[api.Invitation]{}}}),
		ConsolePage("/api/v1/admin/invitations/{id}", Route{Path: api.PathConsoleInvitation, Handler: hs.invitations.Get, Action: policy.ViewInvitation,
			Audit: Audit{Action: string(policy.ViewInvitation), Target: "invitation"},
			Doc: Doc{Summary: "The console's page of one invitation: who used it", Response: api.V1Of[api.InvitationDetail]{},
				Errors: map[int]string{http.StatusNotFound: "No such invitation."}}}),
		{Method: http.MethodPost, Path: api.PathConsoleInvitations, Handler: hs.invitations.Create, Action: policy.CreateInvitation, Family: console, Scope: ScopeExempt,
			Audit: Audit{Action: string(policy.CreateInvitation), Target: "invitation"},
			Doc: Doc{Summary: "Make an invitation from the console", Body: api.InvitationRequest{}, Response: api.V1Of[api.NewInvitation]{},
				Status:      http.StatusCreated,
				Description: "POST /api/v1/admin/invitations for the console, moderators included: htmx gets the panel that shows the link this once."}},
		{Method: http.MethodPost, Path: api.PathConsoleInvitationRevoke, Handler: hs.invitations.Revoke, Action: policy.RevokeInvitation, Family: console, Scope: ScopeExempt,
			Audit: Audit{Action: string(policy.RevokeInvitation), Target: "invitation"},
			Doc: Doc{Summary: "Revoke an invitation from the console", Response: api.V1Of[api.Invitation]{},
				Description: "DELETE /api/v1/admin/invitations/{id} for the console, moderators included (their own invitations): no body and an HX-Trigger toast for htmx.",
				Errors:      map[int]string{http.StatusForbidden: "Someone else's invitation, for anyone but an admin.", http.StatusNotFound: "No such invitation.", http.StatusConflict: "It is revoked already."}}},
		ConsolePage("/api/v1/admin/mail", Route{Path: api.PathConsoleMail, Handler: hs.mail.List, Audit: Audit{Action: "mail.list"},
			Doc: Doc{Summary: "The console's mail page", Query: api.V1MailQuery{}, Response: api.V1PageOf[api.V1MailMessage]{},
				Description: "Held messages the viewer may read show their text; one carrying a token only to its recipient's own account."}}),
		ConsolePage("/api/notifications", Route{Path: api.PathConsoleInbox, Handler: hs.inbox.List, Action: policy.SeeOwnAccount, Permissions: moderate,
			Doc: Doc{Summary: "The console's inbox: your notifications", Query: api.InboxQuery{}, Response: api.Inbox{}}}),
		// The console's avatars, cached by the browser (the public
		// avatar-image may not be) and gzipped with the console's pages.
		{Method: http.MethodGet, Path: api.PathConsoleAvatar, Handler: hs.avatar.Console, Family: console, Scope: ScopeExempt, Permissions: moderate,
			Quiet: true, Compress: true,
			Doc: Doc{Summary: "An avatar for the console's pages (SVG)", Query: api.AvatarQuery{}, ContentType: "image/svg+xml",
				Description: "The image of GET /api/avatar-image, which the browser may keep for a year: the same seed and size always draw the same bytes.",
				Errors:      map[int]string{http.StatusBadRequest: "seed is missing, or size is not an integer from 50 to 1000."}}},
		// A page of a list's avatars as one cached, compressed document.
		{Method: http.MethodGet, Path: api.PathConsoleAvatars, Handler: hs.avatar.ConsoleSheet, Family: console, Scope: ScopeExempt, Permissions: moderate,
			Quiet: true, Compress: true,
			Doc: Doc{Summary: "Avatars for a list in the console, as one SVG of symbols", Query: api.AvatarSheetQuery{}, ContentType: "image/svg+xml",
				Description: "The i-th seed's avatar is the symbol a<i>, drawn as GET /api/avatar-image draws it; the browser may keep the sheet for a year.",
				Errors:      map[int]string{http.StatusBadRequest: "seeds is missing, holds an empty seed, or names over 100."}}},
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
	}
}
