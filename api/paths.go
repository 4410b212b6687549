package api

import "strconv"

// Paths of Plaza's routes, shared by the route table, the views and the
// tests. A path with a :name segment is a route pattern; the functions
// below build the concrete URLs.
const (
	PathRoot                    = "/"
	PathConsole                 = "/admin"
	PathConsoleHealth           = "/admin/health-cards"
	PathConsoleUsers            = "/admin/users"
	PathConsoleUser             = PathConsoleUsers + "/:id"
	PathConsoleModeration       = "/admin/moderation"
	PathConsoleModeratePost     = PathConsoleModeration + "/:id"
	PathConsoleBulkModerate     = PathConsoleModeration + "/bulk"
	PathConsoleUndoModeration   = PathConsoleModeratePost + "/undo"
	PathConsolePostContext      = PathConsoleModeratePost + "/context"
	PathConsoleModerationEvents = PathConsoleModeration + "/events"
	PathConsoleClaimPost        = PathConsoleModeration + "/:id/claim"
	PathConsolePost             = "/admin/posts/:id"
	PathConsoleReports          = "/admin/reports"
	PathConsoleModerationReport = PathConsoleReports + "/moderation"
	PathConsoleSystem           = "/admin/system"
	PathConsoleBackups          = PathConsoleSystem + "/backups"
	PathConsoleBroadcasts       = "/admin/broadcasts"
	PathConsoleFlags            = "/admin/feature-flags"
	PathConsoleAudit            = "/admin/audit"
	PathConsoleTokens           = "/admin/tokens"
	PathConsoleBlocks           = "/admin/blocks"
	PathConsoleRegistration     = "/admin/registration"
	PathConsoleInvitations      = "/admin/invitations"
	PathConsoleInvitation       = PathConsoleInvitations + "/:id"
	PathConsoleInvitationRevoke = PathConsoleInvitation + "/revoke"
	PathSignUpPage              = "/signup"
	PathConsoleNewAccounts      = "/admin/new-accounts"
	PathConsoleWebhooks         = "/admin/webhooks"
	PathConsoleInbox            = "/admin/inbox"
	PathConsoleInboxBadge       = "/admin/inbox/badge"
	PathConsoleAvatar           = "/admin/avatar"
	PathConsoleAvatars          = "/admin/avatars"
	PathStatic                  = "/static"
	PathOGViewer                = "/og-image-viewer"
	PathHealth                  = "/api/health"
	PathVersion                 = "/api/version"
	PathMetrics                 = "/api/metrics"
	PathLinkPreview             = "/api/link-preview"
	PathAvatarImage             = "/api/avatar-image"
	PathOGImage                 = "/api/og-image"
	PathAnalyticsCollect        = "/api/analytics/collect"
	PathSignIn                  = "/api/auth/signin"
	PathSignInProvider          = "/api/auth/signin/:provider"
	PathCallbackProvider        = "/api/auth/callback/:provider"
	PathProviderLinks           = "/api/auth/links"
	PathProviderLink            = "/api/auth/links/:provider"
	PathSession                 = "/api/auth/session"
	PathProviders               = "/api/auth/providers"
	PathSignOut                 = "/api/auth/signout"
	PathSessions                = "/api/auth/sessions"
	PathPassword                = "/api/auth/password"
	PathPasswordForgot          = "/api/auth/password/forgot"
	PathPasswordReset           = "/api/auth/password/reset"
	PathForgotPasswordPage      = "/forgot-password"
	PathResetPasswordPage       = "/reset-password"
	PathEmailVerify             = "/api/auth/email/verify"
	PathRegistration            = "/api/auth/registration"
	PathEmailResend             = "/api/auth/email/resend"
	PathEmailChange             = "/api/auth/email/change"
	PathVerifyEmailPage         = "/verify-email"
	PathSessionOne              = PathSessions + "/:id"
	PathConsoleAccountSessions  = "/admin/account/sessions"
	PathConsoleUserSessions     = PathConsoleUser + "/sessions"
	PathAdminV1UserSessions     = PathAdminV1User + "/sessions"
	PathAdminV1UserSession      = PathAdminV1UserSessions + "/:sessionId"
	PathTwoFactorSetup          = "/api/auth/2fa/setup"
	PathTwoFactorEnable         = "/api/auth/2fa/enable"
	PathTwoFactorDisable        = "/api/auth/2fa/disable"
	PathConfirm                 = "/api/auth/confirm"
	PathConsoleTwoFactor        = "/admin/account/2fa"
	PathAdminV1                 = "/api/v1/admin"
	PathAdminTokens             = PathAdminV1 + "/tokens"
	PathAdminToken              = PathAdminTokens + "/:id"
	PathAdminAuditLogs          = PathAdminV1 + "/audit-logs"
	PathAdminWebhooks           = PathAdminV1 + "/webhooks"
	PathAdminWebhook            = PathAdminWebhooks + "/:id"
	PathAdminWebhookRotate      = PathAdminWebhook + "/rotate-secret"
	PathAdminWebhookTest        = PathAdminWebhook + "/test"
	PathAdminWebhookDeliveries  = PathAdminWebhook + "/deliveries"
	PathAdminWebhookRetry       = PathAdminWebhookDeliveries + "/:deliveryId/retry"
	PathAdminWebhookCancel      = PathAdminWebhookDeliveries + "/:deliveryId/cancel"
	PathAdminAuditVerify        = PathAdminAuditLogs + "/verify"
	PathAdminAuditExport        = PathAdminAuditLogs + "/export"
	PathAdminLocks              = PathAdminV1 + "/locks"
	PathAdminV1Users            = PathAdminV1 + "/users"
	PathAdminV1User             = PathAdminV1Users + "/:id"
	PathAdminV1UserBan          = PathAdminV1User + "/ban"
	PathAdminV1UserSilence      = PathAdminV1User + "/silence"
	PathAdminV1UserUnsilence    = PathAdminV1User + "/unsilence"
	PathAdminV1UserNotes        = PathAdminV1User + "/notes"
	PathAdminV1BulkUpdate       = PathAdminV1Users + "/bulk-update"
	PathAdminV1Posts            = PathAdminV1 + "/posts"
	PathAdminV1Flags            = PathAdminV1 + "/feature-flags"
	PathAdminV1Flag             = PathAdminV1Flags + "/:name"
	PathAdminV1Reasons          = PathAdminV1 + "/moderation/reasons"
	PathAdminV1NewAccountPosts  = PathAdminV1 + "/settings/new-account-posts"
	PathAdminV1Broadcast        = PathAdminV1 + "/notifications/broadcast"
	PathAdminV1Analytics        = PathAdminV1 + "/analytics"
	PathAdminV1Maintenance      = PathAdminV1 + "/system/maintenance"
	PathAdminV1Jobs             = PathAdminV1 + "/system/jobs"
	PathAdminV1Job              = PathAdminV1Jobs + "/:jobId"
	PathAdminV1Backups          = PathAdminV1 + "/system/backups"
	PathAdminV1Backup           = PathAdminV1Backups + "/:file"
	PathAdminV1ActivityRep      = PathAdminV1 + "/reports/user-activity"
	PathAdminV1ModerationRp     = PathAdminV1 + "/reports/moderation"
	PathAdminV1Broadcasts       = PathAdminV1 + "/notifications/broadcasts"
	PathFeatureFlags            = "/api/feature-flags"
	PathAdminV1Moderate         = PathAdminV1Posts + "/:id/moderate"
	PathAdminV1BulkModerate     = PathAdminV1Posts + "/bulk-moderate"
	PathAdminV1UndoModeration   = PathAdminV1Posts + "/:id/moderate/undo"
	PathAdminLock               = PathAdminLocks + "/:type/:id"
	PathAdminV1Blocks           = PathAdminV1 + "/blocks"
	PathAdminV1Registration     = PathAdminV1 + "/registration"
	PathAdminV1Block            = PathAdminV1Blocks + "/:id"
	PathAdminV1Invitations      = PathAdminV1 + "/invitations"
	PathAdminV1Invitation       = PathAdminV1Invitations + "/:id"
	PathAdminUnversioned        = "/api/admin"
	PathAdminUsers              = PathAdminUnversioned + "/users"
	PathAdminUserBan            = PathAdminUsers + "/:id/ban"
	PathAdminUserUnban          = PathAdminUsers + "/:id/unban"
	PathAdminUserSilence        = PathAdminUsers + "/:id/silence"
	PathAdminUserUnsilence      = PathAdminUsers + "/:id/unsilence"
	PathAdminStats              = PathAdminUnversioned + "/stats"
	// The desk's applications (docs/console.md, "Applications").
	PathConsoleApplications       = PathConsoleModeration + "/applications"
	PathConsoleApproveApplication = PathConsoleApplications + "/:id/approve"
	PathConsoleRejectApplication  = PathConsoleApplications + "/:id/reject"
	PathConsoleBulkApplications   = PathConsoleApplications + "/bulk"
	PathConsoleClaimApplication   = PathConsoleApplications + "/:id/claim"
	// Applications (docs/api.md, "Applications").
	PathAdminV1Applications       = PathAdminV1 + "/applications"
	PathAdminV1ApproveApplication = PathAdminV1Applications + "/:id/approve"
	PathAdminV1RejectApplication  = PathAdminV1Applications + "/:id/reject"
	PathAdminV1BulkApplications   = PathAdminV1Applications + "/bulk"
)

// PathAdminV1UserPasswordReset is where staff open a user's password reset.
const PathAdminV1UserPasswordReset = PathAdminV1User + "/password-reset"

// SignInProviderPath is where an external sign-in with provider starts.
func SignInProviderPath(provider string) string { return PathSignIn + "/" + provider }

// CallbackPath is where provider sends the user back.
func CallbackPath(provider string) string { return "/api/auth/callback/" + provider }

// AdminTokenPath is one admin token's URL, by jti.
func AdminTokenPath(jti string) string { return PathAdminTokens + "/" + jti }

// AdminV1BlockPath is one block's URL.
func AdminV1BlockPath(id string) string { return PathAdminV1Blocks + "/" + id }

// ConsoleInvitationPath is the console's page of one invitation.
func ConsoleInvitationPath(id string) string { return PathConsoleInvitations + "/" + id }

// ConsoleInvitationRevokePath is where the console revokes invitation id.
func ConsoleInvitationRevokePath(id string) string { return ConsoleInvitationPath(id) + "/revoke" }

// ConsoleUserPath is one user's page in the console.
func ConsoleUserPath(id int64) string { return PathConsoleUsers + "/" + itoa(id) }

// ConsolePostPath is one post's page in the console.
func ConsolePostPath(id string) string { return "/admin/posts/" + id }

// ConsoleModeratePath is where the console's moderation queue moderates
// one post.
func ConsoleModeratePath(id int64) string { return PathConsoleModeration + "/" + itoa(id) }

// ConsoleClaimPath is where a moderator claims one post of the queue
// (POST) or lets it go (DELETE).
func ConsoleClaimPath(id int64) string { return ConsoleModeratePath(id) + "/claim" }

// ConsoleApplicationPath is where the desk decides on (…/approve,
// …/reject) or claims (…/claim) the application of applicant id.
func ConsoleApplicationPath(id string, what string) string {
	return PathConsoleApplications + "/" + id + "/" + what
}

// AdminV1ApplicationPath is where the versioned family approves or
// rejects (what) the application of applicant id.
func AdminV1ApplicationPath(id int64, what string) string {
	return PathAdminV1Applications + "/" + itoa(id) + "/" + what
}

// AdminV1UserPath is one user's URL in the versioned admin family.
func AdminV1UserPath(id int64) string { return PathAdminV1Users + "/" + itoa(id) }

// AdminV1ModeratePath is where one post is moderated.
func AdminV1ModeratePath(id int64) string { return PathAdminV1Posts + "/" + itoa(id) + "/moderate" }

// AdminLockPath is the URL of the lock on one resource.
func AdminLockPath(typ, id string) string { return PathAdminLocks + "/" + typ + "/" + id }

// AdminUserBanPath is where the unversioned family bans a user.
func AdminUserBanPath(id int64) string { return PathAdminUsers + "/" + itoa(id) + "/ban" }

// AdminUserUnbanPath is where the unversioned family unbans a user.
func AdminUserUnbanPath(id int64) string { return PathAdminUsers + "/" + itoa(id) + "/unban" }

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// Paths of the general API's users and posts.
const (
	PathUsers            = "/api/users"
	PathUser             = PathUsers + "/:id"
	PathPosts            = "/api/posts"
	PathPost             = PathPosts + "/:id"
	PathPostReport       = PathPost + "/report"
	PathNotifications    = "/api/notifications"
	PathNotificationRead = PathNotifications + "/:id/read"
	PathNotification     = PathNotifications + "/:id"
)

// Paths of the general API's search.
const (
	PathSearch      = "/api/search"
	PathSearchUsers = PathSearch + "/users"
	PathSearchPosts = PathSearch + "/posts"
)

// UserPath is one user's URL in the general API.
func UserPath(id string) string { return PathUsers + "/" + id }

// PostPath is one post's URL in the general API.
func PostPath(id string) string { return PathPosts + "/" + id }

// PostReportPath is where a post is reported.
func PostReportPath(id string) string { return PostPath(id) + "/report" }

// The API's own description (docs/api.md, "The OpenAPI document").
const (
	PathOpenAPI = "/api/openapi.json"
	PathAPIDocs = "/api/docs"
)

// SessionPath is one of one's own sessions, by its public id.
func SessionPath(id string) string { return PathSessions + "/" + id }

// AdminV1UserSessionsPath is a user's sessions in the versioned admin family.
func AdminV1UserSessionsPath(userID string) string {
	return PathAdminV1Users + "/" + userID + "/sessions"
}

// ConsoleUserSessionsPath is the user page's sessions card.
func ConsoleUserSessionsPath(userID string) string {
	return PathConsoleUsers + "/" + userID + "/sessions"
}

// A user's related accounts: the versioned admin route and the user
// page's card.
const (
	PathAdminV1UserRelated = PathAdminV1User + "/related"
	PathConsoleUserRelated = PathConsoleUser + "/related"
)

// AdminV1UserRelatedPath is a user's related accounts in the versioned
// admin family.
func AdminV1UserRelatedPath(userID string) string {
	return PathAdminV1Users + "/" + userID + "/related"
}

// ConsoleUserRelatedPath is the user page's related accounts card.
func ConsoleUserRelatedPath(userID string) string {
	return PathConsoleUsers + "/" + userID + "/related"
}
