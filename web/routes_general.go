package web

import (
	"net/http"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/api"
)

// generalRoutes is the general API: the API's own description, search,
// notifications, feature flags for the caller, users and posts.
func generalRoutes(hs handlerSet) []Route {
	general := api.FamilyGeneral
	postReads := []policy.Action{policy.SeeUnpublishedPosts}
	profileReads := []policy.Action{policy.SeePrivateProfiles}
	bothReads := []policy.Action{policy.SeeUnpublishedPosts, policy.SeePrivateProfiles}
	staffRead := map[int]string{http.StatusForbidden: "TWO_FACTOR_REQUIRED: a staff session not enrolled in two-factor sign-in while " +
		"REQUIRE_STAFF_2FA is on, asking for staff data by name (someone else's unpublished posts, a private profile)."}
	verifiedToWrite := "Refused 403 EMAIL_UNVERIFIED while the caller's address is not verified, when REQUIRE_VERIFIED_EMAIL is on; " +
		"403 USER_SILENCED while the caller is silenced."
	lockedByAdmin := map[int]string{http.StatusLocked: "An admin acting on someone else's account or post while another admin holds its edit lock."}
	return []Route{
		// The API's own description (docs/api.md, "The OpenAPI document").
		{Method: http.MethodGet, Path: api.PathOpenAPI, Handler: hs.openAPI.Handle, Family: general, Scope: ScopeExempt,
			Doc: Doc{Summary: "This OpenAPI 3.1 document", Query: api.OpenAPIQuery{}, Response: api.OpenAPIDocument{}}},
		{Method: http.MethodGet, Path: api.PathAPIDocs, Handler: hs.apiDocs.Handle, Family: general, Scope: ScopeExempt,
			Doc: Doc{Summary: "The API reference, browsable", ContentType: "text/html"}},

		// Search: anyone may search; the caller decides what is visible.
		{Method: http.MethodGet, Path: api.PathSearch, Handler: hs.search.All, Reads: bothReads, Family: general, Scope: ScopeGeneral, Caller: true,
			Doc: Doc{Summary: "Search users and posts, ranked", Query: api.SearchQuery{}, Response: api.SearchResults{}}},
		{Method: http.MethodGet, Path: api.PathSearchUsers, Handler: hs.search.Users, Reads: profileReads, Family: general, Scope: ScopeGeneral, Caller: true,
			Doc: Doc{Summary: "Search users, ranked", Query: api.SearchQuery{}, Response: api.SearchResults{}}},
		{Method: http.MethodGet, Path: api.PathSearchPosts, Handler: hs.search.Posts, Reads: postReads, Family: general, Scope: ScopeGeneral, Caller: true,
			Doc: Doc{Summary: "Search posts, ranked", Query: api.SearchQuery{}, Response: api.SearchResults{}}},

		{Method: http.MethodGet, Path: api.PathNotifications, Handler: hs.inbox.List, Action: policy.SeeOwnAccount, Family: general, Scope: ScopeGeneral, SignIn: true,
			Doc: Doc{Summary: "Your notifications, unread first", Query: api.InboxQuery{}, Response: api.Inbox{},
				Description: "Your own notifications merged with the broadcasts addressed to you since your account was made. " +
					"A broadcast's id is \"b\" and its number."}},
		{Method: http.MethodPost, Path: api.PathNotificationRead, Handler: hs.inbox.Read, Action: policy.ManageInbox, Family: general, Scope: ScopeGeneral, SignIn: true,
			Doc: Doc{Summary: "Mark one of your notifications read", Response: api.Notification{}}},
		{Method: http.MethodDelete, Path: api.PathNotification, Handler: hs.inbox.Dismiss, Action: policy.ManageInbox, Family: general, Scope: ScopeGeneral, SignIn: true,
			Doc: Doc{Summary: "Dismiss one of your notifications", Status: http.StatusNoContent,
				Description: "The notification, or your copy of a broadcast, leaves your inbox for good; it counts as read.",
				Errors:      map[int]string{http.StatusNotFound: "Not in your inbox: another user's, not addressed to you, or dismissed already."}}},
		{Method: http.MethodGet, Path: api.PathFeatureFlags, Handler: hs.flags.ForUser, Family: general, Scope: ScopeGeneral, SignIn: true,
			Doc: Doc{Summary: "Every feature flag's answer for you", Response: api.FlagsForUser{},
				Description: "A stable hash of the flag's name and your id decides a rollout, so your answer stays put and raising the percentage only adds users."}},
		// General API: users and posts. Writes are audited when an
		// admin or moderator acts on someone else's account or post (Audit.Optional, handlers keepAudit).
		{Method: http.MethodGet, Path: api.PathUsers, Handler: hs.users.List, Reads: profileReads, Family: general, Scope: ScopeGeneral, Caller: true, Doc: Doc{Summary: "List public profiles", Query: api.UserListQuery{}, Response: api.UserList{}}},
		{Method: http.MethodPost, Path: api.PathUsers, Handler: hs.users.Register, Action: policy.Register, Family: general, Scope: ScopeRegister, Blockable: true, Doc: Doc{Summary: "Register", Body: api.Registration{}, Response: api.User{}, Status: http.StatusCreated,
			Description: "An email under a domain blocked from sign-up is 422 on email. The new account's address gets a verification link " +
				"(POST /api/auth/email/verify); emailVerified stays null until it is used. The registration rules (GET /api/auth/registration) " +
				"decide the rest: under approval, or from a range or domain whose block requires approval, the account opens inactive with " +
				"application \"pending\" until staff decide. An invitation that is unknown, revoked, expired, used up or for another address is 422 on invitation; " +
				"a valid one spends a use as the account opens, and skips approval. A browser's form (the page GET /signup) gets that page " +
				"again: the account made, or the form with the refusals.",
			Errors: map[int]string{http.StatusForbidden: "The rules refuse the sign-up: REGISTRATION_PAUSED (with when the pause ends), " +
				"REGISTRATION_CLOSED, INVITATION_REQUIRED (invite-only, no invitation), SIGNUP_BLOCKED (a block refuses new accounts from the " +
				"network), or IP_BLOCKED."}}},
		{Method: http.MethodGet, Path: api.PathRegistration, Handler: hs.reg.Public, Family: general, Scope: ScopeGeneral,
			Doc: Doc{Summary: "How new accounts open", Response: api.RegistrationRules{},
				Description: "For a sign-up form: the mode, a pause in force, and the question applicants answer. No sign-in needed."}},
		{Method: http.MethodGet, Path: api.PathUser, Handler: hs.users.Get, Reads: profileReads, Family: general, Scope: ScopeGeneral, Caller: true, Doc: Doc{Summary: "Get a user", Response: api.User{}, Errors: staffRead}},
		{Method: http.MethodPut, Path: api.PathUser, Handler: hs.users.Update, Action: policy.EditProfile, Family: general, Scope: ScopeGeneral, SignIn: true, Audit: Audit{Action: "user.profile", Target: "user", Optional: true}, Doc: Doc{Errors: lockedByAdmin, Summary: "Update a profile", Body: api.ProfileUpdate{}, Response: api.User{}}},
		{Method: http.MethodDelete, Path: api.PathUser, Handler: hs.users.Delete, Action: policy.DeleteAccount, Family: general, Scope: ScopeGeneral, Meter: ScopeSignIn, SignIn: true, Audit: Audit{Action: "user.delete", Target: "user", Optional: true}, Doc: Doc{Errors: lockedByAdmin, Summary: "Delete an account", Body: api.AccountDeletion{}, BodyOptional: true, Response: api.Deleted{},
			Description: "Deleting your own account needs your password in the body (422 on password without it, or with a wrong one, which counts as a failed sign-in); " +
				"staff deleting someone else's send no body."}},
		{Method: http.MethodGet, Path: api.PathPosts, Handler: hs.posts.List, Reads: postReads, Family: general, Scope: ScopeGeneral, Caller: true, Doc: Doc{Summary: "List posts", Query: api.PostListQuery{}, Response: api.PostList{}, Errors: staffRead}},
		{Method: http.MethodPost, Path: api.PathPosts, Handler: hs.posts.Create, Action: policy.CreatePost, Family: general, Scope: ScopeGeneral, SignIn: true, Blockable: true, Doc: Doc{Summary: "Write a post", Body: api.NewPost{}, Response: api.Post{}, Status: http.StatusCreated,
			Description: verifiedToWrite}},
		{Method: http.MethodGet, Path: api.PathPost, Handler: hs.posts.Get, Reads: postReads, Family: general, Scope: ScopeGeneral, Caller: true, Doc: Doc{Summary: "Get a post", Response: api.Post{}, Errors: staffRead}},
		{Method: http.MethodPut, Path: api.PathPost, Handler: hs.posts.Update, Action: policy.EditPost, Family: general, Scope: ScopeGeneral, SignIn: true, Audit: Audit{Action: "post.update", Target: "post", Optional: true}, Doc: Doc{Errors: lockedByAdmin, Summary: "Update a post", Body: api.PostUpdate{}, Response: api.Post{},
			Description: "Title, content and tags are the author's alone. published on a hidden or flagged post, or on someone else's, is moderation and needs posts:moderate " +
				"(and, for a staff session under REQUIRE_STAFF_2FA, two-factor sign-in: TWO_FACTOR_REQUIRED); unpublishing someone else's post hides it."}},
		{Method: http.MethodDelete, Path: api.PathPost, Handler: hs.posts.Delete, Action: policy.DeletePost, Family: general, Scope: ScopeGeneral, SignIn: true, Audit: Audit{Action: "post.delete", Target: "post", Optional: true}, Doc: Doc{Errors: lockedByAdmin, Summary: "Delete a post", Response: api.Deleted{},
			Description: "The author's own, or anyone's with admin:delete (and, for a staff session under REQUIRE_STAFF_2FA, two-factor sign-in: TWO_FACTOR_REQUIRED)."}},
		{Method: http.MethodPost, Path: api.PathPostReport, Handler: hs.posts.Report, Action: policy.ReportPost, Family: general, Scope: ScopeGeneral, SignIn: true, Doc: Doc{Summary: "Report a post", Body: api.ReportRequest{}, Response: api.Report{}, Status: http.StatusCreated,
			Description: verifiedToWrite}},
	}
}
