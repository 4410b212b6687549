package web

import (
	"net/http"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/openapi"
)

// authRoutes is sign-in, sessions, passwords, two-factor sign-in and
// confirmation.
func authRoutes(hs handlerSet) []Route {
	console := api.FamilyConsole
	general := api.FamilyGeneral
	moderate := []string{access.PermPostsModerate}
	return []Route{
		{Method: http.MethodGet, Path: api.PathSignIn, Handler: hs.signIn.Page, Family: general, Scope: ScopeGeneral,
			Doc: Doc{Summary: "The sign-in page", Query: api.SignInPageQuery{}, ContentType: "text/html"}},
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
		{Method: http.MethodGet, Path: api.PathCallbackProvider, Handler: hs.oauth.Callback, Family: general, Scope: ScopeGeneral, Blockable: true, Caller: true,
			Audit: Audit{Action: "auth.link_provider", Target: "user", Optional: true},
			Doc: Doc{Summary: "Finish signing in with a provider, or linking one", Query: api.OAuthCallbackQuery{}, Status: http.StatusSeeOther,
				Description: "Sets the session cookie and sends the browser on to the callbackUrl sign-in began with, or /admin. " +
					"An email that is an existing account's reaches it only when nobody uses that account yet (no password, second factor or sign-in): " +
					"otherwise nothing is linked and nobody signed in, and the account's owner signs in and links the provider from the account page. " +
					"A link begun there (POST /api/auth/links/{provider}) ends here: the provider account goes to the session's own account, and the browser back to the account page.",
				Errors: map[int]string{
					http.StatusUnauthorized: "The sign-in was refused, expired, not started here, the email is an account in use, or the account cannot sign in (browsers get the sign-in page).",
					http.StatusForbidden:    "A link: EMAIL_UNVERIFIED, your account's own address is not verified.",
					http.StatusConflict:     "A link: the provider account is linked to another Plaza account.",
					http.StatusBadGateway:   "The provider's user API did not answer.",
				}}},
		// next-auth's client protocol over the same sign-in (docs/api.md,
		// "next-auth"): its posts carry the double-submit token of
		// /api/auth/csrf, and its errors are {url} of the error page.
		// Linking a provider to one's own account, from the account page.
		{Method: http.MethodGet, Path: api.PathProviderLinks, Handler: hs.oauth.ListLinks, Family: general, Scope: ScopeGeneral, SignIn: true,
			Doc: Doc{Summary: "Your linked sign-in providers", Response: api.ProviderLinks{}}},
		{Method: http.MethodPost, Path: api.PathProviderLink, Handler: hs.oauth.BeginLink, Action: policy.LinkProvider, Family: general, Scope: ScopeGeneral, SignIn: true,
			Audit: Audit{Action: "auth.link_provider", Target: "user", Optional: true},
			Doc: Doc{Summary: "Start linking a provider to your account", Response: api.NextAuthURL{},
				Description: "Needs a session confirmed within the last 10 minutes, of an account whose own address is verified. Answers {url} of the provider's authorization page " +
					"(htmx: HX-Redirect there); the provider's callback then links the account you sign in to there to yours.",
				Errors: map[int]string{http.StatusForbidden: "A bearer token: this needs a session; SUDO_REQUIRED: confirm it's you first; " +
					"EMAIL_UNVERIFIED: verify your account's address first.",
					http.StatusNotFound: "No such provider is enabled."}}},
		{Method: http.MethodDelete, Path: api.PathProviderLink, Handler: hs.oauth.Unlink, Action: policy.UnlinkProvider, Family: general, Scope: ScopeGeneral, SignIn: true,
			Audit: Audit{Action: "auth.unlink_provider", Target: "user"},
			Doc: Doc{Summary: "Unlink a provider from your account", Response: api.ProviderUnlinked{},
				Errors: map[int]string{http.StatusForbidden: "A bearer token: this needs a session.", http.StatusNotFound: "No account of this provider is linked to yours.",
					http.StatusConflict: "It is the only way into an account without a password."}}},
		{Method: http.MethodGet, Path: api.PathCSRF, Handler: hs.nextAuth.Token, Family: general, Scope: ScopeGeneral,
			Doc: Doc{Summary: "A CSRF token for next-auth's client", Response: api.CSRFToken{},
				Description: "Sets the token's signed, HttpOnly cookie (plaza_csrf; __Host-plaza_csrf behind https) unless the browser has one; " +
					"next-auth's posts (credentials callback, sign-in with a provider, sign-out) send the token back as csrfToken."}},
		{Method: http.MethodPost, Path: api.PathCallbackCredentials, Handler: hs.nextAuth.Credentials, Family: api.FamilyNextAuth,
			Scope: ScopeGeneral, Meter: ScopeSignIn, Audit: Audit{Action: "auth.second_factor", Target: "user", Optional: true},
			Doc: Doc{Summary: "Sign in with email and password from next-auth's client", Body: api.CredentialsSignIn{}, Response: api.NextAuthURL{},
				Description: "What signIn(\"credentials\", {email, password}) posts. The same sign-in as POST /api/auth/signin (throttle, " +
					"lockout, banned accounts, two-factor codes as totp or recoveryCode), setting Plaza's session cookie; answers {url} of " +
					"the callbackUrl. Errors are {url} of /api/auth/error naming the error: CredentialsSignin, TOTP_REQUIRED, TOTP_INVALID, " +
					"MissingCSRF, RATE_LIMITED, IP_BLOCKED.",
				Errors: map[int]string{
					http.StatusUnauthorized: "CredentialsSignin: wrong or missing email or password, a banned or deactivated account; " +
						"TOTP_REQUIRED: an enrolled account without totp or recoveryCode; TOTP_INVALID: a wrong or used code.",
					http.StatusForbidden: "MissingCSRF: csrfToken missing or not the cookie's; FORBIDDEN: a cross-origin request; " +
						"IP_BLOCKED: the client's address is blocked.",
				},
				Others: []Outcome{{Status: http.StatusFound, Description: "A form without json=true: to the url instead, success or error."}}}},
		{Method: http.MethodPost, Path: api.PathSignInProvider, Handler: hs.nextAuth.Provider, Family: api.FamilyNextAuth, Scope: ScopeGeneral,
			Doc: Doc{Summary: "Start signing in with a provider from next-auth's client", Body: api.NextAuthForm{}, Response: api.NextAuthURL{},
				Description: "What signIn(provider) posts: {url} of the provider's authorization page, the state kept in the session as " +
					"GET /api/auth/signin/{provider} keeps it; for credentials, of the sign-in page.",
				Errors: map[int]string{http.StatusForbidden: "MissingCSRF: csrfToken missing or not the cookie's; FORBIDDEN: a cross-origin " +
					"request; IP_BLOCKED: the client's address is blocked.", http.StatusNotFound: "NOT_FOUND: no such provider is enabled."},
				Others: []Outcome{{Status: http.StatusFound, Description: "A form without json=true: to the url instead, success or error."}}}},
		{Method: http.MethodGet, Path: api.PathAuthError, Handler: hs.nextAuth.ErrorPage, Family: general, Scope: ScopeGeneral,
			Doc: Doc{Summary: "What stopped a sign-in, in words", Query: api.AuthErrorQuery{}, ContentType: "text/html",
				Description: "Where next-auth's error urls point; the page names the error and leads back to sign-in."}},
		{Method: http.MethodGet, Path: api.PathSession, Handler: hs.session.Handle, Family: general, Scope: ScopeGeneral,
			Doc: Doc{Summary: "The current session", Response: openapi.OneOf(api.Session{}, api.NoSession{}),
				Description: "{user, expires} when signed in with the session cookie, {} otherwise."}},
		{Method: http.MethodGet, Path: api.PathProviders, Handler: hs.providers.Handle, Family: general, Scope: ScopeGeneral,
			Doc: Doc{Summary: "The enabled sign-in providers, by id", Response: api.Providers{}}},
		{Method: http.MethodGet, Path: api.PathSignOut, Handler: hs.signOut.Page, Family: general, Scope: ScopeGeneral, BlockExempt: true,
			Doc: Doc{Summary: "The sign-out page", ContentType: "text/html"}},
		{Method: http.MethodPost, Path: api.PathSignOut, Handler: hs.signOut.Handle, Family: general, Scope: ScopeGeneral, BlockExempt: true,
			Doc: Doc{Summary: "Sign out", Body: api.NextAuthForm{}, BodyOptional: true, Response: openapi.OneOf(api.SignedOut{}, api.NextAuthURL{}),
				Description: "No body, or any, for Plaza's clients: {} for JSON callers. next-auth's client (a form with json=true or " +
					"a csrfToken) must send the token of GET /api/auth/csrf and gets {url} of its callbackUrl (this site only, else the sign-in page).",
				Errors: map[int]string{http.StatusForbidden: "A cross-origin request riding on the session cookie; or CSRF_INVALID: " +
					"a next-auth form whose csrfToken is missing or not the cookie's. Either way the session stays."},
				Others: []Outcome{{Status: http.StatusSeeOther, Description: "A browser: to the sign-in page."},
					{Status: http.StatusFound, Description: "A next-auth form without json=true: to its callbackUrl."}}}},

		// One's own sessions: listed for the session cookie or a bearer token
		// with account:read (which is no session, so none of its owner's is
		// current); ended only from a session.
		{Method: http.MethodGet, Path: api.PathSessions, Handler: hs.sessions.Mine, Action: policy.SeeOwnAccount, Family: general, Scope: ScopeGeneral, SignIn: true,
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
					"A wrong current password is 422 on currentPassword and counts as a failed sign-in for your email.",
				Errors: map[int]string{
					http.StatusForbidden:       "The account has no password (it signs in through a provider).",
					http.StatusTooManyRequests: "Too many failed sign-ins or password checks for this email or IP.",
				}}},
		// A forgotten password (docs/api.md, "Password reset"): for people
		// who cannot sign in, so anonymous, and limited per email and address.
		{Method: http.MethodPost, Path: api.PathPasswordForgot, Handler: hs.reset.Forgot, Action: policy.ForgotPassword, Family: general, Scope: ScopeGeneral, Meter: ScopePasswordForgot,
			Audit: Audit{Action: string(policy.ForgotPassword), Target: "user", Optional: true},
			Doc: Doc{Summary: "Ask for a password reset link by mail", Body: api.PasswordForgot{}, Response: api.PasswordForgotAccepted{}, Status: http.StatusAccepted,
				Description: "The same answer, in about the same time, whether or not the address has an account; when it does, the address gets a link " +
					"{PUBLIC_APP_URL}/reset-password?token=… that works once, for 60 minutes, and replaces any earlier one. " +
					"Without SMTP_URL the mail is kept in the outbox instead of being sent. " +
					"A browser's form (email) gets the page of /forgot-password again: the same answer, or the refusal beside the field.",
				Errors: map[int]string{http.StatusTooManyRequests: "Too many requests for this email (5 an hour) or from this address (20 an hour)."}}},
		// The pages of a forgotten password are pages, as the og viewer is
		// (HTML errors, no API rate limit): their forms post to the two
		// routes above, which answer a browser's form with these pages.
		{Method: http.MethodGet, Path: api.PathForgotPasswordPage, Handler: hs.reset.ForgotPage, Family: console, Scope: ScopeExempt,
			Doc: Doc{Summary: "The page that asks for a password reset link", ContentType: "text/html",
				Description: "Linked from the sign-in page; works without JavaScript. Its form posts to POST /api/auth/password/forgot."}},
		// The sign-up page posts to POST /api/users, the one registration,
		// which answers its form with this page again.
		{Method: http.MethodGet, Path: api.PathSignUpPage, Handler: hs.users.SignUpPage, Family: console, Scope: ScopeExempt,
			Doc: Doc{Summary: "The sign-up page", Query: api.SignUpPageQuery{}, ContentType: "text/html",
				Description: "Linked from the sign-in page; an invitation's link opens it with ?invite=, which the form carries hidden. " +
					"Works without JavaScript. Its form posts to POST /api/users."}},
		{Method: http.MethodGet, Path: api.PathResetPasswordPage, Handler: hs.reset.ResetPage, Family: console, Scope: ScopeExempt,
			Doc: Doc{Summary: "The page a password reset link opens", Query: api.ResetPasswordQuery{}, ContentType: "text/html",
				Description: "The new password twice, and the two-factor code once the account turns out to need it. " +
					"Its form posts to POST /api/auth/password/reset, which sends the browser on to the sign-in page with a notice."}},
		{Method: http.MethodPost, Path: api.PathPasswordReset, Handler: hs.reset.Reset, Action: policy.ResetPassword, Family: general, Scope: ScopeGeneral, Meter: ScopeSignIn,
			Audit: Audit{Action: string(policy.ResetPassword), Target: "user"},
			Doc: Doc{Summary: "Set a new password with a reset link's token", Body: api.PasswordReset{}, Response: api.PasswordChanged{},
				Description: "The password follows the sign-up rule. An account with two-factor sign-in also sends a current code from the app, or a recovery code, " +
					"in code (a wrong one counts as a failed sign-in). Every session of the account ends and every API token is revoked, " +
					"and the account's address is told by mail that its password changed. " +
					"A browser's form (token, password, confirm, code) gets the page of /reset-password again with the refusal beside its field, " +
					"and once the password is set a 303 to the sign-in page with a notice.",
				Errors: map[int]string{
					http.StatusUnauthorized:    "TOTP_REQUIRED: the account uses two-factor sign-in and code is missing.",
					http.StatusTooManyRequests: "Too many failed sign-ins or code checks for this email or IP.",
				},
				Others: []Outcome{{Status: http.StatusSeeOther, Description: "A browser's form, once the password is set: to the sign-in page with its notice."}}}},
		// Verified addresses (docs/api.md, "Verified addresses"): the link's
		// token is the proof, so verifying needs no sign-in; asking for a
		// link again or for a new address is the account's own.
		{Method: http.MethodPost, Path: api.PathEmailVerify, Handler: hs.email.Verify, Action: policy.VerifyEmail, Family: general, Scope: ScopeGeneral,
			Audit: Audit{Action: string(policy.VerifyEmail), Target: "user"},
			Doc: Doc{Summary: "Verify an address with a verification link's token", Body: api.EmailVerify{}, Response: api.User{},
				Description: "The token of a link {PUBLIC_APP_URL}/verify-email?token=… mailed at sign-up, on POST /api/auth/email/resend or on " +
					"POST /api/auth/email/change. It works once, for 24 hours, and a newer link of the account replaces it. It verifies the address " +
					"it was mailed to: the account's own (emailVerified is set), or the new address of a change, which becomes the account's email. " +
					"A token unknown, used, replaced or expired is 422 on token; a new address another account took meanwhile is 422 on email. " +
					"A browser's form (token) gets the page of /verify-email again: the address verified, or the refusal."}},
		{Method: http.MethodGet, Path: api.PathVerifyEmailPage, Handler: hs.email.VerifyPage, Family: console, Scope: ScopeExempt,
			Doc: Doc{Summary: "The page an address verification link opens", Query: api.VerifyEmailQuery{}, ContentType: "text/html",
				Description: "Works without JavaScript. Opening it verifies nothing (mail scanners open links): its button posts the token to " +
					"POST /api/auth/email/verify, which answers the browser with this page, saying the address is verified."}},
		{Method: http.MethodPost, Path: api.PathEmailResend, Handler: hs.email.Resend, Action: policy.ResendVerification, Family: general, Scope: ScopeGeneral,
			Meter: ScopeEmailResend, SignIn: true, Audit: Audit{Action: string(policy.ResendVerification), Target: "user"},
			Doc: Doc{Summary: "Mail your address a new verification link", Response: api.EmailLinkSent{}, Status: http.StatusAccepted,
				Description: "The link replaces any open one of the account (a change of address under way included) and works once, for 24 hours. " +
					"Without SMTP_URL the mail is kept in the outbox instead of being sent.",
				Errors: map[int]string{http.StatusConflict: "Your address is verified already.",
					http.StatusTooManyRequests: "Too many links asked for by this account (5 an hour), or the route's rate limit."}}},
		{Method: http.MethodPost, Path: api.PathEmailChange, Handler: hs.email.Change, Action: policy.ChangeEmail, Family: general, Scope: ScopeGeneral,
			Meter: ScopeSignIn, SignIn: true, Audit: Audit{Action: string(policy.ChangeEmail), Target: "user"},
			Doc: Doc{Summary: "Change your email address", Body: api.EmailChange{}, Response: api.EmailLinkSent{}, Status: http.StatusAccepted,
				Description: "Needs your password (a wrong one is 422 on password and counts as a failed sign-in). The new address is checked as a " +
					"sign-up's is, and refused (422 on email) when another account has it or its domain is blocked. A link goes to the new address " +
					"and your address now is told; your account's email changes only when the link is used (POST /api/auth/email/verify).",
				Errors: map[int]string{
					http.StatusForbidden:       "A bearer token: this needs a session; or the account has no password (it signs in through a provider).",
					http.StatusTooManyRequests: "Too many failed sign-ins or password checks for this email or IP.",
				}}},
		ConsolePage("/api/auth/sessions", Route{Path: api.PathConsoleAccountSessions, Handler: hs.sessions.Mine, Action: policy.SeeOwnAccount, Permissions: moderate,
			Doc: Doc{Summary: "The console's \"Your sessions\" page", Response: api.UserSessions{}}}),
		// The console's "Mail alerts", for all staff: the versioned family's
		// routes are the admin role's (docs/api.md, "Staff alerts").
		ConsolePage("/api/v1/admin/account/alerts", Route{Path: api.PathConsoleAccountAlerts, Handler: hs.alerts.Get, Action: policy.SeeOwnAccount, Permissions: moderate,
			Doc: Doc{Summary: "The console's \"Mail alerts\" page", Query: api.AlertsPageQuery{}, Response: api.V1Of[api.AlertPreferences]{}}}),
		{Method: http.MethodPost, Path: api.PathConsoleAccountAlerts, Handler: hs.alerts.Set, Action: policy.SetAlerts, Family: console, Scope: ScopeExempt,
			Audit: Audit{Action: string(policy.SetAlerts), Target: "user"},
			Doc: Doc{Summary: "Choose your staff alerts from the console", Body: api.AlertPreferencesChange{}, Response: api.V1Of[api.AlertPreferences]{},
				Description: "PUT /api/v1/admin/account/alerts for the console, moderators included; JSON or the page's form. " +
					"htmx gets the form back with a toast; a browser's plain form the page (303 to it once saved, or the form with the refusal).",
				Errors: map[int]string{http.StatusForbidden: "A bearer token: this needs a session; or operations alerts asked by someone who is no admin.",
					http.StatusUnprocessableEntity: "reports is not now, hourly, daily or never; or the body sets nothing."},
				Others: []Outcome{{Status: http.StatusSeeOther, Description: "A browser's plain form, once saved: to the page, which says so."}}}},
		ConsolePage("/api/v1/admin/users/{id}/sessions", Route{Path: api.PathConsoleUserSessions, Handler: hs.sessions.List, Action: policy.ViewUserSessions,
			Audit: Audit{Action: "user.sessions", Target: "user"},
			Doc:   Doc{Summary: "The user page's sessions card", Response: api.V1Of[[]api.UserSession]{}}}),
		// Two-factor sign-in and re-confirmation (docs/api.md, "Two-factor
		// sign-in"): for the signed-in session, unenrolled staff included.
		{Method: http.MethodPost, Path: api.PathTwoFactorSetup, Handler: hs.twoFactor.Setup, Action: policy.SetUpTwoFactor, Family: general, Scope: ScopeGeneral, Meter: ScopeSignIn, SignIn: true,
			Audit: Audit{Action: "two_factor.setup", Target: "user"},
			Doc: Doc{Summary: "Start enrolling in two-factor sign-in", Body: api.TwoFactorSetupRequest{}, BodyOptional: true, Response: api.TwoFactorSetup{},
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
				Description: "Needs the password and, while two-factor sign-in is on, a current code from the app or an unused recovery code " +
					"(422 on the field when missing or wrong, a wrong one counted as a failed sign-in); the recovery codes go too.",
				Errors: map[int]string{http.StatusForbidden: "A bearer token: this needs a session; or an account without a password, " +
					"which an operator resets instead (plaza user reset-2fa)."}}},
		{Method: http.MethodPost, Path: api.PathConfirm, Handler: hs.twoFactor.Confirm, Action: policy.ConfirmIdentity, Family: general, Scope: ScopeGeneral, Meter: ScopeSignIn, SignIn: true,
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
	}
}
