package web

import (
	"net/http"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/openapi"
	"github.com/plazahq/plaza/models"
)

// v1Routes is the versioned admin family, /api/v1/admin (docs/api.md).
func v1Routes(hs handlerSet) []Route {
	return []Route{
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminWebhooks, Handler: hs.webhooks.List, Audit: Audit{Action: "webhook.list"},
			Doc: Doc{Summary: "List webhook endpoints (never their secrets)", Response: api.V1Of[[]api.Webhook]{}}}),
		AdminV1(Route{Method: http.MethodPost, Path: api.PathAdminWebhooks, Handler: hs.webhooks.Create, Action: policy.CreateWebhook,
			Audit: Audit{Action: "webhook.create", Target: "webhook"},
			Doc: Doc{Summary: "Register a webhook endpoint", Description: "The signing secret is shown this once. " +
				"The URL must be http(s), without credentials, and not name a loopback, private or link-local address.",
				Body: api.WebhookRequest{}, Response: api.V1Of[api.WebhookWithSecret]{}, Status: http.StatusCreated,
				Errors: map[int]string{http.StatusUnprocessableEntity: "A URL the address policy refuses, an unknown event, none."}}}),
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminWebhook, Handler: hs.webhooks.Get, Audit: Audit{Action: "webhook.view"},
			Doc: Doc{Summary: "One webhook endpoint", Response: api.V1Of[api.Webhook]{}, Errors: map[int]string{http.StatusNotFound: "No such webhook (or delivery)."}}}),
		AdminV1(Route{Method: http.MethodPatch, Path: api.PathAdminWebhook, Handler: hs.webhooks.Update, Action: policy.UpdateWebhook,
			Audit: Audit{Action: "webhook.update", Target: "webhook"},
			Doc: Doc{Summary: "Change a webhook endpoint's URL, events, description or active switch", Body: api.WebhookPatch{},
				Response: api.V1Of[api.Webhook]{}, Errors: map[int]string{http.StatusNotFound: "No such webhook (or delivery)."}}}),
		AdminV1(Route{Method: http.MethodDelete, Path: api.PathAdminWebhook, Handler: hs.webhooks.Delete, Action: policy.DeleteWebhook,
			Audit: Audit{Action: "webhook.delete", Target: "webhook"},
			Doc:   Doc{Summary: "Delete a webhook endpoint and its delivery log", Response: api.V1Of[api.DeletedWebhook]{}, Errors: map[int]string{http.StatusNotFound: "No such webhook (or delivery)."}}}),
		AdminV1(Route{Method: http.MethodPost, Path: api.PathAdminWebhookRotate, Handler: hs.webhooks.RotateSecret, Action: policy.RotateWebhookSecret,
			Audit: Audit{Action: "webhook.rotate_secret", Target: "webhook"},
			Doc: Doc{Summary: "Give a webhook endpoint a new signing secret, shown this once", Response: api.V1Of[api.WebhookWithSecret]{},
				Errors: map[int]string{http.StatusNotFound: "No such webhook (or delivery)."}}}),
		AdminV1(Route{Method: http.MethodPost, Path: api.PathAdminWebhookTest, Handler: hs.webhooks.Test, Action: policy.TestWebhook,
			Audit: Audit{Action: "webhook.test", Target: "webhook"},
			Doc: Doc{Summary: "Queue a ping message to a webhook endpoint", Response: api.V1Of[api.WebhookDelivery]{},
				Status: http.StatusAccepted, Errors: map[int]string{http.StatusNotFound: "No such webhook (or delivery)."}}}),
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminWebhookDeliveries, Handler: hs.webhooks.Deliveries, Audit: Audit{Action: "webhook.deliveries"},
			Doc: Doc{Summary: "A webhook endpoint's delivery log, newest first", Query: api.V1PageQuery{},
				Response: api.V1PageOf[api.WebhookDelivery]{}, Errors: map[int]string{http.StatusNotFound: "No such webhook (or delivery)."}}}),
		AdminV1(Route{Method: http.MethodPost, Path: api.PathAdminWebhookRetry, Handler: hs.webhooks.Retry, Action: policy.RetryWebhookDelivery,
			Audit: Audit{Action: "webhook.retry", Target: "webhook"},
			Doc: Doc{Summary: "Queue a delivery again with a fresh round of attempts", Response: api.V1Of[api.WebhookDelivery]{},
				Status: http.StatusAccepted, Errors: map[int]string{http.StatusNotFound: "No such webhook (or delivery)."}}}),
		AdminV1(Route{Method: http.MethodPost, Path: api.PathAdminWebhookCancel, Handler: hs.webhooks.Cancel, Action: policy.CancelWebhookDelivery,
			Audit: Audit{Action: "webhook.cancel_delivery", Target: "webhook"},
			Doc: Doc{Summary: "Cancel a pending delivery: it is never attempted again", Response: api.V1Of[api.WebhookDelivery]{},
				Errors: map[int]string{http.StatusNotFound: "No such webhook (or delivery).",
					http.StatusConflict: "CONFLICT: the delivery is not pending (delivered, failed or already cancelled)."}}}),
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminTokens, Handler: hs.tokens.List,
			Permissions: []string{access.PermAdminSuper}, Audit: Audit{Action: "token.list"},
			Doc: Doc{Summary: "List unexpired admin tokens", Response: api.V1Of[[]api.Token]{}}}),
		AdminV1(Route{Method: http.MethodPost, Path: api.PathAdminTokens, Handler: hs.tokens.Create, Action: policy.MintToken,
			Audit: Audit{Action: "token.create", Target: "token"},
			Doc: Doc{Summary: "Mint an admin token", Description: "The JWT is shown this once. A token never carries a permission its maker lacks, and never mints another.",
				Body: api.TokenRequest{}, Response: api.V1Of[api.NewToken]{}, Status: http.StatusCreated}}),
		AdminV1(Route{Method: http.MethodDelete, Path: api.PathAdminToken, Handler: hs.tokens.Revoke, Action: policy.RevokeToken,
			Audit: Audit{Action: "token.revoke", Target: "token"},
			Doc:   Doc{Summary: "Revoke an admin token by its jti", Response: api.V1Of[api.RevokedToken]{}}}),
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
			Audit: Audit{Action: "users.bulk_update"},
			Doc: Doc{Summary: "Change up to 500 users at once", Body: api.V1BulkUpdate{}, Response: api.V1Of[api.V1BulkResult]{},
				Description: "All or nothing, in one transaction with one audit entry that keeps each user's fields before and after.",
				Errors: map[int]string{
					http.StatusForbidden: "Your own status or role among the changes.",
					http.StatusNotFound:  "An id no user has; nothing changed.",
					http.StatusLocked:    "Another admin holds one of the users' edit locks (lockedBy, lockedAt).",
				}}}),
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminV1UserNotes, Handler: hs.v1Users.Notes, Audit: Audit{Action: "user.notes", Target: "user"},
			Doc: Doc{Summary: "Staff notes on a user, newest first", Response: api.V1Of[[]api.V1Note]{}}}),
		AdminV1(Route{Method: http.MethodPost, Path: api.PathAdminV1UserNotes, Handler: hs.v1Users.AddNote, Action: policy.AddUserNote, Audit: Audit{Action: "user.note", Target: "user"},
			Doc: Doc{Summary: "Add a note (or a warning) on a user", Body: api.V1NewNote{}, Response: api.V1Of[api.V1Note]{}, Status: http.StatusCreated,
				Description: "Append-only. A warning counts as a strike in the user's history."}}),
		AdminV1(Route{Method: http.MethodPost, Path: api.PathAdminV1UserBan, Handler: hs.v1Users.Ban, Action: policy.BanUser, Audit: Audit{Action: "user.ban", Target: "user"},
			Doc: Doc{Summary: "Ban or unban a user", Body: api.V1BanRequest{}, Response: api.V1Of[api.V1BanResult]{},
				Description: "A ban replaces the one in force; a temporary one ends by itself. An unban of a user no ban holds changes nothing (ban: null).",
				Errors: map[int]string{
					http.StatusForbidden: "Yourself, or a super admin unless you are one.",
					http.StatusLocked:    "Another admin holds the user's edit lock (lockedBy, lockedAt).",
				}}}),
		AdminV1(Route{Method: http.MethodPost, Path: api.PathAdminV1UserSilence, Handler: hs.v1Users.Silence, Action: policy.SilenceUser, Audit: Audit{Action: "user.silence", Target: "user"},
			Doc: Doc{Summary: "Silence a user for a time", Body: api.SilenceRequest{}, Response: api.V1Of[api.V1SilenceResult]{},
				Description: "The user stays read-only until the silence ends: they sign in and read, but writing, editing or reporting a post and editing their profile answer 403 USER_SILENCED. A silence replaces the one in force and ends by itself.",
				Errors: map[int]string{
					http.StatusForbidden: "Yourself, or a super admin unless you are one.",
					http.StatusLocked:    "Another admin holds the user's edit lock (lockedBy, lockedAt).",
				}}}),
		AdminV1(Route{Method: http.MethodPost, Path: api.PathAdminV1UserUnsilence, Handler: hs.v1Users.Unsilence, Action: policy.UnsilenceUser, Audit: Audit{Action: "user.unsilence", Target: "user"},
			Doc: Doc{Summary: "Lift a user's silence", Response: api.V1Of[api.V1SilenceResult]{},
				Description: "The silence in force ends now. Of a user no silence holds it changes nothing (silencedUntil: null).",
				Errors: map[int]string{
					http.StatusForbidden: "Yourself, or a super admin unless you are one.",
					http.StatusLocked:    "Another admin holds the user's edit lock (lockedBy, lockedAt).",
				}}}),
		AdminV1(Route{Method: http.MethodPost, Path: api.PathAdminV1UserPasswordReset, Handler: hs.v1Users.PasswordReset, Action: policy.StartPasswordReset,
			Audit: Audit{Action: "user.password_reset", Target: "user"},
			Doc: Doc{Summary: "Send a user a password reset, or create a link to hand over", Response: api.V1Of[api.V1PasswordReset]{},
				Description: "Opens the forgotten password's reset for the user: a single-use token valid 60 minutes, replacing an earlier one. " +
					"With SMTP_URL set the reset mail goes to the user's address and no link is answered (sent: true); " +
					"without it no mail is kept and the link is answered, this once, for you to hand over (url).",
				Errors: map[int]string{http.StatusForbidden: "Without admin:write; yourself; an admin's or a super admin's account unless you are a super admin; " +
					"or a session whose last confirmation is over 10 minutes old (SUDO_REQUIRED): POST /api/auth/confirm, then retry."}}}),
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminV1UserRelated, Handler: hs.v1Users.Related, Action: policy.ViewRelatedAccounts,
			Audit: Audit{Action: "users.related", Target: "user"},
			Doc: Doc{Summary: "The accounts that share an address, a range or a mailbox with a user", Query: api.V1RelatedQuery{},
				Response: api.V1Of[api.V1RelatedAccounts]{},
				Description: "Accounts that signed up or signed in from one of the user's addresses (its sign-up address and those of its latest 200 sign-ins), " +
					"from another address of their /24 (IPv4) or /64 (IPv6), whose email reaches the same mailbox (case, +tags and Gmail's dots aside), " +
					"or that signed up within a minute of the user from its sign-up range; each with its status, posts and the reports against them, " +
					"and why. Most reasons first, then newest; truncated when more than limit are related.",
				Errors: map[int]string{http.StatusForbidden: "A super admin's related accounts unless you are one.",
					http.StatusNotFound: "No such user."}}}),
		AdminV1(Route{Method: http.MethodPost, Path: api.PathAdminV1PurgePreview, Handler: hs.purges.Preview, Action: policy.PreviewPurge,
			Audit: Audit{Action: "users.purge_preview"},
			Doc: Doc{Summary: "Count what a purge of a spam wave's accounts would change", Body: api.V1PurgeRequest{}, Response: api.V1Of[api.V1PurgePreview]{},
				Description: "Changes nothing. The accounts it would ban (every one named that is not banned now), those banned already, " +
					"their published and flagged posts to hide, their live sessions to end, the blocks to create and those held already, " +
					"the accounts the purge would refuse (staff, a role you do not outrank, yourself), and the sign-up ranges and email domains of the accounts named. " +
					"The purge of the same body, sent now, changes exactly these.",
				Errors: map[int]string{http.StatusNotFound: "An id no user has.",
					http.StatusUnprocessableEntity: "No or too many ids, no reason, a range or domain that is no block's value, or a range covering your own address."}}}),
		AdminV1(Route{Method: http.MethodPost, Path: api.PathAdminV1Purge, Handler: hs.purges.Purge, Action: policy.PurgeUsers,
			Audit: Audit{Action: "users.purge"},
			Doc: Doc{Summary: "Purge a spam wave: ban its accounts, hide their posts, block their ranges and domains", Body: api.V1PurgeRequest{},
				Response: api.V1Of[api.V1PurgeResult]{},
				Description: "One transaction and one audit entry (users.purge) keeping each account's status before and after: every account named that is not banned " +
					"now is banned (permanently, with the reason), its published and flagged posts hidden, its sessions ended; the ranges and domains are blocked " +
					"(one blocked already is left as it is). One user.banned webhook per account banned. Undo it within 10 minutes: POST /api/v1/admin/purges/{id}/undo.",
				Errors: map[int]string{
					http.StatusForbidden: "A staff account, an account of a role you do not outrank, or your own among those named (details.refused names each; nothing changed); " +
						"or more accounts to ban than PURGE_CONFIRM_ABOVE from a session whose last confirmation is over 10 minutes old (SUDO_REQUIRED).",
					http.StatusNotFound:            "An id no user has; nothing changed.",
					http.StatusUnprocessableEntity: "No or too many ids, no reason, a range or domain that is no block's value, or a range covering your own address.",
					http.StatusLocked:              "Another admin holds one of the accounts' edit locks (lockedBy, lockedAt).",
				}}}),
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminV1PurgeOne, Handler: hs.purges.Get, Audit: Audit{Action: "users.purge_view", Target: "purge"},
			Doc: Doc{Summary: "One purge: its accounts, what each was, and its blocks", Response: api.V1Of[api.V1Purge]{},
				Errors: map[int]string{http.StatusNotFound: "No such purge."}}}),
		AdminV1(Route{Method: http.MethodPost, Path: api.PathAdminV1PurgeUndo, Handler: hs.purges.Undo, Action: policy.UndoPurge,
			Audit: Audit{Action: "users.purge_undo", Target: "purge"},
			Doc: Doc{Summary: "Undo a purge, whole or for some of its accounts, within 10 minutes", Body: api.V1PurgeUndoRequest{}, BodyOptional: true,
				Response: api.V1Of[api.V1PurgeUndoResult]{},
				Description: "Each account whose ban is still the purge's gets its status back and the ban goes; each post still hidden by the purge, " +
					"with no decision since, gets its status back. An account or post someone changed since is left as it is. Once every account is undone, " +
					"the blocks the purge created go too. Sessions it ended stay ended. No webhook, as an unban sends none.",
				Errors: map[int]string{
					http.StatusForbidden:           "Someone else's purge, unless your role is above theirs.",
					http.StatusNotFound:            "No such purge, or an account it did not ban.",
					http.StatusUnprocessableEntity: "Its 10 minutes are over, or these accounts are undone already.",
				}}}),
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminV1UserSessions, Handler: hs.sessions.List, Action: policy.ViewUserSessions, Audit: Audit{Action: "user.sessions", Target: "user"},
			Doc: Doc{Summary: "A user's signed-in sessions", Response: api.V1Of[[]api.UserSession]{},
				Description: "Live sessions, most recently used first; current marks the caller's own session.",
				Errors:      map[int]string{http.StatusForbidden: "A super admin's sessions unless you are one."}}}),
		AdminV1(Route{Method: http.MethodDelete, Path: api.PathAdminV1UserSessions, Handler: hs.sessions.RevokeAll, Action: policy.RevokeUserSessions,
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
			Doc: Doc{Summary: "Approve, hide, delete, flag or dismiss the reports of a post", Body: api.V1ModerationRequest{},
				Response: openapi.OneOf(api.V1Of[api.V1Post]{}, api.V1Of[api.V1DeletedPost]{}),
				Description: "Every action is kept as a moderation record and says what happens to the post's open reports: " +
					"approve and dismiss dismiss them (not upheld), hide and delete resolve them (upheld), flag keeps them open. " +
					"Delete removes the post; its settled reports stay counted.",
				Errors: map[int]string{
					http.StatusForbidden: "Delete without admin:delete.",
					http.StatusLocked:    "Another admin holds the post's edit lock (lockedBy, lockedAt).",
				}}}),
		AdminV1(Route{Method: http.MethodPost, Path: api.PathAdminV1UndoModeration, Handler: hs.v1Posts.Undo, Action: policy.UndoModeration,
			Audit: Audit{Action: "post.moderate_undo", Target: "post"},
			Doc: Doc{Summary: "Undo your last decision on a post", Response: api.V1Of[api.V1UndoResult]{},
				Description: "Within 10 minutes of it, and not a delete: the post's previous status back and exactly the reports that decision settled open again, kept as an undo record.",
				Errors: map[int]string{
					http.StatusNotFound:            "No such post.",
					http.StatusUnprocessableEntity: "No decision of yours on this post from the last 10 minutes to undo, or a reporter has reported it again since.",
					http.StatusLocked:              "Another admin holds the post's edit lock (lockedBy, lockedAt).",
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
		AdminV1(Route{Method: http.MethodPut, Path: api.PathAdminV1Reasons, Handler: hs.reasons.Put, Action: policy.UpdateModerationReasons, Audit: Audit{Action: "moderation_reasons.update"},
			Doc: Doc{Summary: "Replace the reason presets", Body: api.V1Reasons{}, Response: api.V1Of[api.V1Reasons]{}}}),
		// The hold of new accounts' posts (docs/api.md, "New accounts'
		// posts"); the console's "New accounts" page has its twins.
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminV1NewAccountPosts, Handler: hs.newAccounts.Get, Audit: Audit{Action: "new_account_posts.view"},
			Doc: Doc{Summary: "The hold of new accounts' posts", Response: api.V1Of[api.NewAccountPosts]{},
				Description: "Which posts of new accounts wait for a moderator's approval (status pending) before they appear. Off (0 and 0) until an admin sets it."}}),
		AdminV1(Route{Method: http.MethodPut, Path: api.PathAdminV1NewAccountPosts, Handler: hs.newAccounts.Set, Action: policy.UpdateNewAccountPosts,
			Audit: Audit{Action: string(policy.UpdateNewAccountPosts), Target: "settings"},
			Doc: Doc{Summary: "Change the hold of new accounts' posts", Body: api.NewAccountPostsChange{}, Response: api.V1Of[api.NewAccountPosts]{},
				Description: "A field left out stays as it is. It holds from the next post on, on every instance; posts held already stay in the queue. " +
					"The audit entry has the setting before and after.",
				Errors: map[int]string{http.StatusUnprocessableEntity: "holdFirst is not 0 to 50, holdDays not 0 to 90, or the body sets nothing."}}}),
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminV1Flags, Handler: hs.flags.List, Audit: Audit{Action: "feature_flags.list"},
			Doc: Doc{Summary: "List feature flags, by name", Query: api.V1PageQuery{}, Response: api.V1PageOf[api.V1FeatureFlag]{}}}),
		AdminV1(Route{Method: http.MethodPut, Path: api.PathAdminV1Flag, Handler: hs.flags.Put, Action: policy.UpdateFeatureFlag,
			Audit: Audit{Action: "feature_flag.update", Target: "feature_flag"},
			Doc: Doc{Summary: "Create or change a feature flag", Body: api.V1FlagUpdate{}, Response: api.V1Of[api.V1FeatureFlag]{},
				Description: "200 with a changed flag; 201 with a new one, which starts disabled at 0%.",
				Others:      []Outcome{{Status: http.StatusCreated, Body: api.V1Of[api.V1FeatureFlag]{}, Description: "The flag was created."}},
				Errors:      map[int]string{http.StatusLocked: "Another admin holds the flag's edit lock (lockedBy, lockedAt)."}}}),
		AdminV1(Route{Method: http.MethodDelete, Path: api.PathAdminV1Flag, Handler: hs.flags.Delete, Action: policy.DeleteFeatureFlag,
			Audit: Audit{Action: "feature_flag.delete", Target: "feature_flag"},
			Doc: Doc{Summary: "Delete a feature flag", Response: api.V1Of[api.DeletedFlag]{},
				Errors: map[int]string{http.StatusLocked: "Another admin holds the flag's edit lock (lockedBy, lockedAt)."}}}),
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminV1Analytics, Handler: hs.analytics.Get, Audit: Audit{Action: "analytics.view"},
			Doc: Doc{Summary: "Platform analytics over a period", Query: api.V1AnalyticsQuery{}, Response: api.V1Of[api.V1Analytics]{},
				Description: "Only the sections metrics names (all by default), read from counters, indexes and the daily roll-ups, " +
					"never from raw events beyond an hourly series' day or two."}}),
		AdminV1(Route{Method: http.MethodPost, Path: api.PathAdminV1Maintenance, Handler: hs.system.Maintenance, Action: policy.QueueMaintenance, Scope: ScopeAdminSystem,
			Audit: Audit{Action: "system.maintenance", Target: "job"},
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
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminV1Backup, Handler: hs.backups.Download, Action: policy.DownloadBackup,
			Audit: Audit{Action: "backup.download", Target: "backup"},
			Doc: Doc{Summary: "Download a backup", ContentType: "application/octet-stream",
				Description: "Streamed as an attachment. It holds every session token and secret."}}),
		AdminV1(Route{Method: http.MethodDelete, Path: api.PathAdminV1Backup, Handler: hs.backups.Delete, Action: policy.DeleteBackup,
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
		AdminV1(Route{Method: http.MethodPost, Path: api.PathAdminV1Broadcast, Handler: hs.broadcasts.Send, Action: policy.SendBroadcast,
			Audit: Audit{Action: "notification.broadcast", Target: "broadcast"},
			Doc: Doc{Summary: "Send or schedule a notification to many users", Body: api.V1BroadcastRequest{},
				Response: api.V1Of[api.V1Broadcast]{}, Status: http.StatusCreated,
				Description: "A broadcast is one row that every inbox of its audience reads: an immediate one is in all of them " +
					"when this answers; a scheduled one is in them from its time, and its job records it sent once, whichever instance runs it."}}),
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminV1Broadcasts, Handler: hs.broadcasts.List, Audit: Audit{Action: "notification.list"},
			Doc: Doc{Summary: "Broadcasts, newest first, with recipients and reads", Query: api.V1PageQuery{},
				Response: api.V1PageOf[api.V1Broadcast]{}}}),
		// Registration (docs/api.md, "Registration"): how new accounts open.
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminV1Registration, Handler: hs.reg.Get, Audit: Audit{Action: "registration.view"},
			Doc: Doc{Summary: "How new accounts open", Response: api.V1Of[api.RegistrationRules]{}}}),
		AdminV1(Route{Method: http.MethodPut, Path: api.PathAdminV1Registration, Handler: hs.reg.Set, Action: policy.SetRegistration,
			Audit: Audit{Action: string(policy.SetRegistration), Target: "settings"},
			Doc: Doc{Summary: "Change how new accounts open", Body: api.RegistrationChange{}, Response: api.V1Of[api.RegistrationRules]{},
				Description: "A super admin's: the mode (open, approval, invite, closed), an emergency pause of every sign-up for 1 to 168 " +
					"hours that ends by itself (0 ends it now), and the question applicants answer. Audited with the rules before and after; " +
					"it holds at once on every instance, since every sign-up reads the rules from the database."}}),
		// Applications (docs/api.md, "Applications"): sign-ups that wait
		// for the staff's approval. Moderators decide them through the
		// desk's console routes.
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminV1Applications, Handler: hs.apps.List, Audit: Audit{Action: "applications.list"},
			Doc: Doc{Summary: "Applications to join, with their signals", Query: api.V1ApplicationsQuery{}, Response: api.V1PageOf[api.V1Application]{},
				Description: "Pending applications oldest first (?status=approved or rejected: newest first), each with the applicant's answer and the signals " +
					"staff weigh: related accounts, the email's domain, and the sign-ups from the same range in the hour before."}}),
		AdminV1(Route{Method: http.MethodPost, Path: api.PathAdminV1ApproveApplication, Handler: hs.apps.Approve, Action: policy.ApproveApplication,
			Audit: Audit{Action: string(policy.ApproveApplication), Target: "user"},
			Doc: Doc{Summary: "Approve an application: the account opens", Body: api.V1ApproveApplication{}, BodyOptional: true, Response: api.V1Of[api.V1Application]{},
				Description: "The applicant's account becomes active and they are mailed that they can sign in (with the reason as a note, if given).",
				Errors:      applicationErrors}}),
		AdminV1(Route{Method: http.MethodPost, Path: api.PathAdminV1RejectApplication, Handler: hs.apps.Reject, Action: policy.RejectApplication,
			Audit: Audit{Action: string(policy.RejectApplication), Target: "user"},
			Doc: Doc{Summary: "Reject an application, with the reason", Body: api.V1RejectApplication{}, Response: api.V1Of[api.V1Application]{},
				Description: "The account stays inactive; the applicant is mailed the reason, and signing in tells it again.",
				Errors:      applicationErrors}}),
		AdminV1(Route{Method: http.MethodPost, Path: api.PathAdminV1BulkApplications, Handler: hs.apps.Bulk, Action: policy.BulkDecideApplications,
			Audit: Audit{Action: string(policy.BulkDecideApplications)},
			Doc: Doc{Summary: "Approve or reject up to 200 applications", Body: api.V1BulkApplications{}, Response: api.V1Of[api.V1BulkApplicationsResult]{},
				Description: "All or nothing, in one transaction with one audit entry; each applicant is mailed the decision.",
				Errors:      bulkApplicationErrors}}),
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
		// Invitations (docs/api.md, "Invitations"): sign-up links. Moderators
		// reach them through the console's routes (/admin/invitations).
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminV1Invitations, Handler: hs.invitations.List, Action: policy.SeeInvitations,
			Audit: Audit{Action: string(policy.SeeInvitations)},
			Doc: Doc{Summary: "List invitations, newest first", Query: api.InvitationsQuery{}, Response: api.V1PageOf[api.Invitation]{},
				Description: "Never their tokens, which only the creation answers."}}),
		AdminV1(Route{Method: http.MethodPost, Path: api.PathAdminV1Invitations, Handler: hs.invitations.Create, Action: policy.CreateInvitation,
			Audit: Audit{Action: string(policy.CreateInvitation), Target: "invitation"},
			Doc: Doc{Summary: "Make an invitation: a sign-up link for a number of accounts until a date", Body: api.InvitationRequest{},
				Response: api.V1Of[api.NewInvitation]{}, Status: http.StatusCreated,
				Description: "The token and its link {PUBLIC_APP_URL}/signup?invite={token} are shown this once: Plaza keeps only the token's SHA-256. " +
					"maxUses 1 to 1000 (default 1), validFor 1h to 90d (default 7d), note up to 200 characters; email, when given, is the one address " +
					"that may sign up with it, and that address counts as verified."}}),
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminV1Invitation, Handler: hs.invitations.Get, Action: policy.ViewInvitation,
			Audit: Audit{Action: string(policy.ViewInvitation), Target: "invitation"},
			Doc: Doc{Summary: "One invitation, with the accounts it opened", Response: api.V1Of[api.InvitationDetail]{},
				Errors: map[int]string{http.StatusNotFound: "No such invitation."}}}),
		AdminV1(Route{Method: http.MethodDelete, Path: api.PathAdminV1Invitation, Handler: hs.invitations.Revoke, Action: policy.RevokeInvitation,
			Audit: Audit{Action: string(policy.RevokeInvitation), Target: "invitation"},
			Doc: Doc{Summary: "Revoke an invitation: its link opens no more accounts", Response: api.V1Of[api.Invitation]{},
				Description: "The accounts it opened stay. Staff revoke their own invitations; an admin anyone's.",
				Errors:      map[int]string{http.StatusNotFound: "No such invitation.", http.StatusConflict: "It is revoked already."}}}),
		// Mail (docs/api.md, "Mail"): the outbox, never a body.
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminV1Mail, Handler: hs.mail.List, Audit: Audit{Action: "mail.list"},
			Doc: Doc{Summary: "Outgoing mail, newest first", Query: api.V1MailQuery{}, Response: api.V1PageOf[api.V1MailMessage]{},
				Description: "Each message's recipient, subject, state, attempts and last error; never its body, which may carry a reset or verification link."}}),
		AdminV1(Route{Method: http.MethodPost, Path: api.PathAdminV1MailResend, Handler: hs.mail.Resend, Action: policy.ResendMail,
			Audit: Audit{Action: "mail.resend", Target: "mail"},
			Doc: Doc{Summary: "Send a failed or held message again", Response: api.V1Of[api.V1MailMessage]{}, Status: http.StatusAccepted,
				Description: "The message is queued with a fresh round of attempts, and its job commits with the request.",
				Errors: map[int]string{http.StatusNotFound: "No such message.",
					http.StatusConflict: "CONFLICT: the message is queued or sent already, or no mail server is set (SMTP_URL)."}}}),
		AdminV1(Route{Method: http.MethodPost, Path: api.PathAdminV1MailTest, Handler: hs.mail.Test, Action: policy.SendTestMail,
			Audit: Audit{Action: "mail.test", Target: "mail"},
			Doc: Doc{Summary: "Send yourself a test message", Response: api.V1Of[api.V1MailMessage]{}, Status: http.StatusAccepted,
				Description: "To the caller's own address, through the outbox: queued when a mail server is set (SMTP_URL), else held on the mail page."}}),
		// Staff alerts (docs/api.md, "Staff alerts"): one's own, so reading
		// them asks what reading one's account asks, and changing them a
		// session. Moderators, whom the gate refuses, use the console's
		// twin routes (/admin/account/alerts).
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminV1AccountAlerts, Handler: hs.alerts.Get, Action: policy.SeeOwnAccount,
			Audit: Audit{Action: string(policy.SeeOwnAccount)},
			Doc: Doc{Summary: "Your staff alerts", Response: api.V1Of[api.AlertPreferences]{},
				Description: "Which mail you get of new reports (now, hourly, daily or never) and, for admins, of failed jobs and backups. " +
					"A bearer token needs account:read as well.",
				Errors: map[int]string{http.StatusForbidden: "A bearer token without account:read."}}}),
		AdminV1(Route{Method: http.MethodPut, Path: api.PathAdminV1AccountAlerts, Handler: hs.alerts.Set, Action: policy.SetAlerts,
			Audit: Audit{Action: string(policy.SetAlerts), Target: "user"},
			Doc: Doc{Summary: "Choose your staff alerts", Body: api.AlertPreferencesChange{}, Response: api.V1Of[api.AlertPreferences]{},
				Description: "A field left out stays as it is. Hourly and daily are one digest mail per period, however many reports it counts; " +
					"a digest turned on counts from now. Only admins may turn operations alerts on.",
				Errors: map[int]string{http.StatusForbidden: "A bearer token: this needs a session; or operations alerts asked by someone who is no admin.",
					http.StatusUnprocessableEntity: "reports is not now, hourly, daily or never; or the body sets nothing."}}}),
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminAuditLogs, Handler: hs.audit.List, Audit: Audit{Action: "audit.view"},
			Doc: Doc{Summary: "The audit log, newest first", Query: api.AuditLogQuery{}, Response: api.V1PageOf[api.AuditEntry]{}}}),
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminAuditExport, Handler: hs.audit.Export, Action: policy.ExportAudit,
			Audit: Audit{Action: "audit.export"},
			Doc: Doc{Summary: "Export the audit log", Query: api.AuditExportQuery{}, ContentType: "application/x-ndjson, text/csv", Lines: api.AuditEntry{},
				Description: "Every entry the list's filters select, newest first, streamed as an attachment; the export is itself audited."}}),
		AdminV1(Route{Method: http.MethodGet, Path: api.PathAdminAuditVerify, Handler: hs.audit.Verify, Audit: Audit{Action: "audit.verify"},
			Doc: Doc{Summary: "Re-walk the audit log's hash chain", Response: api.V1Of[api.AuditVerification]{}}}),
		AdminV1(Route{Method: http.MethodPost, Path: api.PathAdminLocks, Handler: hs.locks.Acquire, Action: policy.TakeLock, Audit: Audit{Action: "lock.acquire"},
			Doc: Doc{Summary: "Take or renew an edit lock (5 minutes)", Body: api.LockRequest{}, Response: api.V1Of[api.Lock]{}, Status: http.StatusCreated,
				Errors: map[int]string{
					http.StatusForbidden: "Your own record or post, a super admin's unless you are one, or a feature flag without admin:super.",
					http.StatusLocked:    "Another admin holds the lock (lockedBy, lockedAt).",
				}}}),
		AdminV1(Route{Method: http.MethodDelete, Path: api.PathAdminLock, Handler: hs.locks.Release, Action: policy.ReleaseLock, Audit: Audit{Action: "lock.release"},
			Doc: Doc{Summary: "Release your edit lock, or break someone else's", Response: api.V1Of[api.ReleasedLock]{},
				Description: "Breaking another admin's lock needs a role above the holder's (admin:super breaks any); it is audited as lock.break.",
				Errors:      map[int]string{http.StatusLocked: "Another admin holds the lock and your role is not above theirs."}}}),
	}
}

// The statuses the applications' decisions answer themselves.
var (
	applicationErrors = map[int]string{
		http.StatusNotFound: "No application has this id.",
		http.StatusConflict: "The application is decided already (CONFLICT).",
	}
	bulkApplicationErrors = map[int]string{
		http.StatusForbidden: "A session whose last confirmation is over 10 minutes old (SUDO_REQUIRED): POST /api/auth/confirm, then retry.",
		http.StatusNotFound:  "An id no application has; nothing changed.",
		http.StatusConflict:  "One of the applications is decided already; nothing changed.",
	}
)
