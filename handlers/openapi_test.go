package handlers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/mail"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// sampleEnv is what the samples call with: one app with every outside
// party it talks to (an OAuth provider, a page to preview) on loopback.
type sampleEnv struct {
	app     *apptest.App
	super   http.Header // a super admin's token
	session http.Header // a signed-in user's session cookie
	page    string      // a page to preview
	oauth   *fakeOAuth
}

// sampleRequest is one request and the status it must get.
type sampleRequest struct {
	target string
	header http.Header
	body   string
	status int
}

// samples hold a success of every documented operation, by "METHOD
// /path/{param}". TestDocumentedRoutesAnswer fails on an operation without
// one: a new route adds its sample here.
var samples = map[string]func(t *testing.T, e sampleEnv) sampleRequest{
	"GET /":      getSample("/", http.StatusFound),
	"GET /admin": func(_ *testing.T, e sampleEnv) sampleRequest { return sampleRequest{"/admin", e.super, "", 200} },
	"GET /admin/health-cards": func(_ *testing.T, e sampleEnv) sampleRequest {
		return sampleRequest{"/admin/health-cards", e.super, "", 200}
	},
	"GET /og-image-viewer": getSample("/og-image-viewer?seed=s&quote=Hello", 200),
	"GET /static/{path}":   getSample("/static/css/app.css", 200),
	"GET /api/health":      getSample("/api/health", 200),
	"GET /api/version":     getSample("/api/version", 200),
	"GET /api/link-preview": func(_ *testing.T, e sampleEnv) sampleRequest {
		return sampleRequest{"/api/link-preview?url=" + url.QueryEscape(e.page), nil, "", 200}
	},
	"GET /api/avatar-image": getSample("/api/avatar-image?seed=ada&size=64", 200),
	"GET /api/og-image":     getSample("/api/og-image?seed=s&quote=Hello&author=Ada", 200),
	"POST /api/analytics/collect": func(_ *testing.T, e sampleEnv) sampleRequest {
		return sampleRequest{"/api/analytics/collect", e.session, `{"event_type":"page_view","event_data":{"path":"/"}}`, 202}
	},
	"GET /api/metrics":     func(_ *testing.T, e sampleEnv) sampleRequest { return sampleRequest{"/api/metrics", e.super, "", 200} },
	"GET /api/auth/signin": getSample("/api/auth/signin?callbackUrl=/admin", 200),
	"POST /api/auth/signin": func(t *testing.T, e sampleEnv) sampleRequest {
		e.app.UserWithPassword(t, "signin@example.com", "correct horse")
		return sampleRequest{"/api/auth/signin", nil, `{"email":"signin@example.com","password":"correct horse"}`, 200}
	},
	"GET /api/auth/signin/{provider}": getSample("/api/auth/signin/github", http.StatusFound),
	"GET /api/auth/callback/{provider}": func(t *testing.T, e sampleEnv) sampleRequest {
		e.oauth.githubUser, e.oauth.githubEmails = adaGitHub, adaEmails
		authURL, token := begin(t, e.app, "github", "")
		return sampleRequest{consent(t, authURL).RequestURI(), cookieHeader(token), "", http.StatusSeeOther}
	},
	"GET /api/auth/session": func(_ *testing.T, e sampleEnv) sampleRequest {
		return sampleRequest{"/api/auth/session", e.session, "", 200}
	},
	"GET /api/auth/providers":        getSample("/api/auth/providers", 200),
	"GET /api/auth/registration":     getSample("/api/auth/registration", 200),
	"GET /api/v1/admin/registration": asSuper(api.PathAdminV1Registration, "", 200),
	"PUT /api/v1/admin/registration": asSuper(api.PathAdminV1Registration, `{"mode":"approval","question":"What brings you here?"}`, 200),
	"GET /admin/registration":        asSuper(api.PathConsoleRegistration+"?saved=1", "", 200),
	"GET /api/v1/admin/applications": func(t *testing.T, e sampleEnv) sampleRequest {
		sampleApplicant(t, e)
		return sampleRequest{api.PathAdminV1Applications + "?status=pending&limit=5", e.super, "", 200}
	},
	"POST /api/v1/admin/applications/{id}/approve": func(t *testing.T, e sampleEnv) sampleRequest {
		return sampleRequest{api.AdminV1ApplicationPath(sampleApplicant(t, e), "approve"), e.super, `{"reason":"Welcome"}`, 200}
	},
	"POST /api/v1/admin/applications/{id}/reject": func(t *testing.T, e sampleEnv) sampleRequest {
		return sampleRequest{api.AdminV1ApplicationPath(sampleApplicant(t, e), "reject"), e.super, `{"reason":"Spam"}`, 200}
	},
	"POST /api/v1/admin/applications/bulk": func(t *testing.T, e sampleEnv) sampleRequest {
		id := strconv.FormatInt(sampleApplicant(t, e), 10)
		return sampleRequest{api.PathAdminV1BulkApplications, e.super, `{"ids":["` + id + `"],"decision":"reject","reason":"Spam"}`, 200}
	},
	"GET /admin/moderation/applications": func(t *testing.T, e sampleEnv) sampleRequest {
		sampleApplicant(t, e)
		return sampleRequest{api.PathConsoleApplications, e.super, "", 200}
	},
	"POST /admin/moderation/applications/{id}/approve": func(t *testing.T, e sampleEnv) sampleRequest {
		return sampleRequest{api.ConsoleApplicationPath(strconv.FormatInt(sampleApplicant(t, e), 10), "approve"), e.super, "", 200}
	},
	"POST /admin/moderation/applications/{id}/reject": func(t *testing.T, e sampleEnv) sampleRequest {
		return sampleRequest{api.ConsoleApplicationPath(strconv.FormatInt(sampleApplicant(t, e), 10), "reject"), e.super, `{"reason":"Spam"}`, 200}
	},
	"POST /admin/moderation/applications/bulk": func(t *testing.T, e sampleEnv) sampleRequest {
		id := strconv.FormatInt(sampleApplicant(t, e), 10)
		return sampleRequest{api.PathConsoleBulkApplications, e.super, `{"ids":["` + id + `"],"decision":"approve"}`, 200}
	},
	"POST /admin/moderation/applications/{id}/claim": func(t *testing.T, e sampleEnv) sampleRequest {
		return sampleRequest{api.ConsoleApplicationPath(strconv.FormatInt(sampleApplicant(t, e), 10), "claim"), e.super, "", 200}
	},
	"DELETE /admin/moderation/applications/{id}/claim": func(t *testing.T, e sampleEnv) sampleRequest {
		return sampleRequest{api.ConsoleApplicationPath(strconv.FormatInt(sampleApplicant(t, e), 10), "claim"), e.super, "", 200}
	},
	"POST /admin/registration": asSuper(api.PathConsoleRegistration, `{"pauseHours":0}`, 200),
	"GET /api/auth/links": func(_ *testing.T, e sampleEnv) sampleRequest {
		return sampleRequest{"/api/auth/links", e.session, "", 200}
	},
	"POST /api/auth/links/{provider}": func(t *testing.T, e sampleEnv) sampleRequest {
		u := e.app.User(t, "linking@example.com")
		verified(t, e.app, u)
		return sampleRequest{"/api/auth/links/github", e.app.SessionFor(t, u.ID), "", 200}
	},
	"DELETE /api/auth/links/{provider}": func(t *testing.T, e sampleEnv) sampleRequest {
		u := e.app.UserWithPassword(t, "unlinking@example.com", "correct horse")
		id := models.OAuthIdentity{Provider: "github", ProviderUserID: "sample-unlink", Email: u.Email, EmailVerified: true}
		if err := e.app.Store.Auth.LinkProvider(context.Background(), u.ID, id); err != nil {
			t.Fatal(err)
		}
		return sampleRequest{"/api/auth/links/github", e.app.SessionFor(t, u.ID), "", 200}
	},
	"GET /api/auth/sessions": func(_ *testing.T, e sampleEnv) sampleRequest {
		return sampleRequest{api.PathSessions, e.session, "", 200}
	},
	"DELETE /api/auth/sessions": func(t *testing.T, e sampleEnv) sampleRequest {
		u := e.app.User(t, "elsewhere@example.com")
		e.app.SessionFor(t, u.ID)
		return sampleRequest{api.PathSessions, e.app.SessionFor(t, u.ID), "", 200}
	},
	"DELETE /api/auth/sessions/{id}": func(t *testing.T, e sampleEnv) sampleRequest {
		u := e.app.User(t, "revoker@example.com")
		other := e.app.SessionFor(t, u.ID)
		return sampleRequest{api.SessionPath(sessionID(other)), e.app.SessionFor(t, u.ID), "", 200}
	},
	"POST /api/auth/password": func(t *testing.T, e sampleEnv) sampleRequest {
		u := e.app.UserWithPassword(t, "changer@example.com", "correct horse")
		return sampleRequest{api.PathPassword, e.app.SessionFor(t, u.ID), `{"currentPassword":"correct horse","newPassword":"battery staple 42"}`, 200}
	},
	"POST /api/auth/password/forgot": func(t *testing.T, e sampleEnv) sampleRequest {
		e.app.User(t, "forgetful@example.com")
		return sampleRequest{api.PathPasswordForgot, nil, `{"email":"forgetful@example.com"}`, 202}
	},
	"POST /api/auth/password/reset": func(t *testing.T, e sampleEnv) sampleRequest {
		u := e.app.User(t, "resetting@example.com")
		return sampleRequest{api.PathPasswordReset, nil, `{"token":"` + resetToken(t, e.app, u) + `","password":"battery staple 42"}`, 200}
	},
	"POST /api/auth/email/verify": func(t *testing.T, e sampleEnv) sampleRequest {
		u := register(t, e.app, "verifying@example.com")
		return sampleRequest{api.PathEmailVerify, nil, `{"token":"` + verifyToken(t, e.app, u.Email, mail.KindEmailVerify) + `"}`, 200}
	},
	"GET /verify-email": getSample("/verify-email?token=TOK7", 200),
	"POST /api/auth/email/resend": func(t *testing.T, e sampleEnv) sampleRequest {
		return sampleRequest{api.PathEmailResend, sampleUser(t, e, "resending@example.com").session, "", http.StatusAccepted}
	},
	"POST /api/auth/email/change": func(t *testing.T, e sampleEnv) sampleRequest {
		u := e.app.UserWithPassword(t, "moving@example.com", "correct horse")
		return sampleRequest{api.PathEmailChange, e.app.SessionFor(t, u.ID), `{"email":"moved@example.com","password":"correct horse"}`, http.StatusAccepted}
	},
	"GET /admin/account/sessions":      asSuper(api.PathConsoleAccountSessions, "", 200),
	"GET /api/v1/admin/account/alerts": asSuper(api.PathAdminV1AccountAlerts, "", 200),
	"PUT /api/v1/admin/account/alerts": func(t *testing.T, e sampleEnv) sampleRequest {
		u := e.app.User(t, "alerted-admin@example.com", access.RoleAdmin)
		return sampleRequest{api.PathAdminV1AccountAlerts, e.app.SessionFor(t, u.ID), `{"reports":"daily","operations":true}`, 200}
	},
	"GET /admin/account/alerts": asSuper(api.PathConsoleAccountAlerts+"?saved=1", "", 200),
	"POST /admin/account/alerts": func(t *testing.T, e sampleEnv) sampleRequest {
		u := e.app.User(t, "alerted-moderator@example.com", access.RoleModerator)
		return sampleRequest{api.PathConsoleAccountAlerts, e.app.SessionFor(t, u.ID), `{"reports":"now"}`, 200}
	},
	"GET /admin/users/{id}/sessions": func(t *testing.T, e sampleEnv) sampleRequest {
		u := e.app.User(t, "carded@example.com")
		e.app.SessionFor(t, u.ID)
		return sampleRequest{api.ConsoleUserSessionsPath(itoa(u.ID)), e.super, "", 200}
	},
	"GET /admin/users/{id}/related": func(t *testing.T, e sampleEnv) sampleRequest {
		u := e.app.User(t, "carded-related@example.com")
		return sampleRequest{api.ConsoleUserRelatedPath(itoa(u.ID)), e.super, "", 200}
	},
	"GET /api/v1/admin/users/{id}/related": func(t *testing.T, e sampleEnv) sampleRequest {
		u := e.app.User(t, "related@example.com")
		e.app.User(t, "related+again@example.com")
		return sampleRequest{api.AdminV1UserRelatedPath(itoa(u.ID)) + "?limit=10", e.super, "", 200}
	},
	"GET /api/v1/admin/users/{id}/sessions": func(t *testing.T, e sampleEnv) sampleRequest {
		u := e.app.User(t, "listed-sessions@example.com")
		e.app.SessionFor(t, u.ID)
		return sampleRequest{api.AdminV1UserSessionsPath(itoa(u.ID)), e.super, "", 200}
	},
	"DELETE /api/v1/admin/users/{id}/sessions": func(t *testing.T, e sampleEnv) sampleRequest {
		u := e.app.User(t, "everywhere@example.com")
		e.app.SessionFor(t, u.ID)
		return sampleRequest{api.AdminV1UserSessionsPath(itoa(u.ID)), e.super, "", 200}
	},
	"DELETE /api/v1/admin/users/{id}/sessions/{sessionId}": func(t *testing.T, e sampleEnv) sampleRequest {
		u := e.app.User(t, "one-session@example.com")
		id := sessionID(e.app.SessionFor(t, u.ID))
		return sampleRequest{api.AdminV1UserSessionsPath(itoa(u.ID)) + "/" + id, e.super, "", 200}
	},
	"GET /api/auth/csrf":   getSample("/api/auth/csrf", 200),
	"GET /forgot-password": getSample("/forgot-password", 200),
	"GET /reset-password":  getSample("/reset-password?token=TOK7", 200),
	"GET /api/auth/error":  getSample("/api/auth/error?error=CredentialsSignin", 200),
	"POST /api/auth/callback/credentials": func(t *testing.T, e sampleEnv) sampleRequest {
		e.app.UserWithPassword(t, "nextauth@example.com", "correct horse")
		h, token := csrfPair(t, e.app)
		h.Set("Content-Type", "application/x-www-form-urlencoded")
		form := url.Values{"csrfToken": {token}, "json": {"true"}, "email": {"nextauth@example.com"}, "password": {"correct horse"}}
		return sampleRequest{"/api/auth/callback/credentials", h, form.Encode(), 200}
	},
	"POST /api/auth/signin/{provider}": func(t *testing.T, e sampleEnv) sampleRequest {
		h, token := csrfPair(t, e.app)
		h.Set("Content-Type", "application/x-www-form-urlencoded")
		return sampleRequest{"/api/auth/signin/github", h, url.Values{"csrfToken": {token}, "json": {"true"}}.Encode(), 200}
	},
	"GET /api/auth/signout": getSample("/api/auth/signout", 200),
	"POST /api/auth/signout": func(t *testing.T, e sampleEnv) sampleRequest {
		u := e.app.User(t, "leaving@example.com")
		return sampleRequest{"/api/auth/signout", e.app.SessionFor(t, u.ID), "", 200}
	},
	"POST /api/auth/2fa/setup": func(t *testing.T, e sampleEnv) sampleRequest {
		u := e.app.UserWithPassword(t, "enrolling@example.com", "correct horse")
		return sampleRequest{"/api/auth/2fa/setup", e.app.SessionFor(t, u.ID), `{"password":"correct horse"}`, 200}
	},
	"POST /api/auth/2fa/enable": func(t *testing.T, e sampleEnv) sampleRequest {
		session := sampleUser(t, e, "enabling@example.com").session
		res := apptest.Do(t, e.app, "POST", "/api/auth/2fa/setup", session)
		var setup struct{ Secret string }
		json.Unmarshal(res.Body.Bytes(), &setup)
		return sampleRequest{"/api/auth/2fa/enable", session, `{"code":"` + code(t, setup.Secret, time.Now()) + `"}`, 200}
	},
	"POST /api/auth/2fa/disable": func(t *testing.T, e sampleEnv) sampleRequest {
		u := e.app.UserWithPassword(t, "disabling@example.com", "correct horse")
		return sampleRequest{"/api/auth/2fa/disable", e.app.SessionFor(t, u.ID), `{"password":"correct horse"}`, 200}
	},
	"POST /api/auth/confirm": func(t *testing.T, e sampleEnv) sampleRequest {
		u := e.app.UserWithPassword(t, "confirming@example.com", "correct horse")
		return sampleRequest{"/api/auth/confirm", e.app.SessionFor(t, u.ID), `{"password":"correct horse"}`, 200}
	},
	"GET /api/auth/confirm": func(t *testing.T, e sampleEnv) sampleRequest {
		return sampleRequest{"/api/auth/confirm", e.session, "", 200}
	},
	"GET /admin/account/2fa": func(t *testing.T, e sampleEnv) sampleRequest {
		return sampleRequest{"/admin/account/2fa", e.session, "", 200}
	},
	"GET /api/openapi.json":    getSample("/api/openapi.json", 200),
	"GET /api/docs":            getSample("/api/docs", 200),
	"GET /api/v1/admin/tokens": asSuper("/api/v1/admin/tokens", "", 200),
	"POST /api/v1/admin/tokens": func(t *testing.T, e sampleEnv) sampleRequest {
		// A token never mints another: a super admin's fresh session does.
		u := e.app.User(t, "minter@example.com", access.ImpliedRoles(access.RoleSuperAdmin)...)
		return sampleRequest{"/api/v1/admin/tokens", e.app.SessionFor(t, u.ID), `{"permissions":["admin:read"],"ttl":"1h","name":"sample"}`, http.StatusCreated}
	},
	"DELETE /api/v1/admin/tokens/{id}": func(t *testing.T, e sampleEnv) sampleRequest {
		u := e.app.User(t, "holder@example.com", access.RoleAdmin)
		_, jti := e.app.TokenFor(t, u.ID, access.PermAdminRead)
		return sampleRequest{"/api/v1/admin/tokens/" + jti, e.super, "", 200}
	},
	"GET /admin/users": asSuper("/admin/users?limit=5&search=a", "", 200),
	"GET /admin/users/{id}": func(t *testing.T, e sampleEnv) sampleRequest {
		return sampleRequest{api.ConsoleUserPath(e.app.User(t, "page@example.com").ID), e.super, "", 200}
	},
	"GET /admin/system":             asSuper("/admin/system?limit=5", "", 200),
	"GET /admin/system/backups":     asSuper("/admin/system/backups", "", 200),
	"GET /admin/broadcasts":         asSuper("/admin/broadcasts?limit=5", "", 200),
	"GET /admin/reports":            asSuper("/admin/reports?limit=5", "", 200),
	"GET /admin/reports/moderation": asSuper("/admin/reports/moderation", "", 200),
	"GET /admin/audit":              asSuper("/admin/audit?limit=5&targetType=user", "", 200),
	"GET /admin/inbox":              asSuper("/admin/inbox?limit=5", "", 200),
	"GET /admin/inbox/badge":        asSuper("/admin/inbox/badge", "", 200),
	"GET /admin/avatar":             asSuper("/admin/avatar?seed=ada&size=56", "", 200),
	"GET /admin/avatars":            asSuper("/admin/avatars?seeds=1,2", "", 200),
	"GET /api/v1/admin/users":       asSuper("/api/v1/admin/users?limit=5&role=admin&sort=postCount&order=asc", "", 200),
	"GET /admin/moderation":         asSuper("/admin/moderation?limit=5&openReports=true", "", 200),
	"POST /admin/moderation/{id}": func(t *testing.T, e sampleEnv) sampleRequest {
		p := samplePost(t, e)
		id, _ := strconv.ParseInt(p.ID, 10, 64)
		return sampleRequest{api.ConsoleModeratePath(id), e.super, `{"action":"hide","reason":"Spam"}`, 200}
	},
	"POST /admin/moderation/{id}/claim": func(t *testing.T, e sampleEnv) sampleRequest {
		p := samplePost(t, e)
		id, _ := strconv.ParseInt(p.ID, 10, 64)
		return sampleRequest{api.ConsoleClaimPath(id), e.super, "", 200}
	},
	"DELETE /admin/moderation/{id}/claim": func(t *testing.T, e sampleEnv) sampleRequest {
		p := samplePost(t, e)
		id, _ := strconv.ParseInt(p.ID, 10, 64)
		return sampleRequest{api.ConsoleClaimPath(id), e.super, "", 200}
	},
	// A stream ends as the server stops: the instance's feed closes here
	// once the sample's stream has subscribed to it.
	"GET /admin/moderation/events": func(t *testing.T, e sampleEnv) sampleRequest {
		mod := e.app.User(t, "watcher@example.com", access.RoleModerator)
		feed := e.app.Deps.Moderation
		go func() {
			for deadline := time.Now().Add(10 * time.Second); feed.Subscribers() == 0 && time.Now().Before(deadline); {
				time.Sleep(time.Millisecond)
			}
			feed.Close()
		}()
		return sampleRequest{api.PathConsoleModerationEvents, e.app.SessionFor(t, mod.ID), "", 200}
	},
	"POST /admin/moderation/{id}/undo": func(t *testing.T, e sampleEnv) sampleRequest {
		p := samplePost(t, e)
		id, _ := strconv.ParseInt(p.ID, 10, 64)
		apptest.DoBody(t, e.app, "POST", api.AdminV1ModeratePath(id), e.super, `{"action":"dismiss","notifyReporters":true}`)
		return sampleRequest{api.ConsoleModeratePath(id) + "/undo", e.super, "", 200}
	},
	"GET /admin/moderation/{id}/context": func(t *testing.T, e sampleEnv) sampleRequest {
		p := samplePost(t, e)
		id, _ := strconv.ParseInt(p.ID, 10, 64)
		return sampleRequest{api.ConsoleModeratePath(id) + "/context", e.super, "", 200}
	},
	"GET /admin/posts/{id}": func(t *testing.T, e sampleEnv) sampleRequest {
		return sampleRequest{api.ConsolePostPath(samplePost(t, e).ID), e.super, "", 200}
	},
	"POST /admin/moderation/bulk": func(t *testing.T, e sampleEnv) sampleRequest {
		p := samplePost(t, e)
		return sampleRequest{api.PathConsoleBulkModerate, e.super, `{"postIds":["` + p.ID + `"],"action":"flag"}`, 200}
	},
	"GET /admin/feature-flags": func(t *testing.T, e sampleEnv) sampleRequest {
		apptest.DoBody(t, e.app, "PUT", "/api/v1/admin/feature-flags/shown", e.super, `{"enabled":true,"rolloutPercentage":10}`)
		return sampleRequest{"/admin/feature-flags", e.super, "", 200}
	},
	"GET /admin/tokens": asSuper("/admin/tokens", "", 200),
	"GET /admin/webhooks": func(t *testing.T, e sampleEnv) sampleRequest {
		sampleWebhook(t, e)
		return sampleRequest{"/admin/webhooks", e.super, "", 200}
	},
	"GET /api/v1/admin/webhooks": func(t *testing.T, e sampleEnv) sampleRequest {
		sampleWebhook(t, e)
		return sampleRequest{"/api/v1/admin/webhooks", e.super, "", 200}
	},
	"POST /api/v1/admin/webhooks": asSuper("/api/v1/admin/webhooks",
		`{"url":"https://hooks.invalid/plaza","events":["user.banned","report.created"],"description":"sample"}`, http.StatusCreated),
	"GET /api/v1/admin/webhooks/{id}": func(t *testing.T, e sampleEnv) sampleRequest {
		return sampleRequest{sampleWebhook(t, e), e.super, "", 200}
	},
	"PATCH /api/v1/admin/webhooks/{id}": func(t *testing.T, e sampleEnv) sampleRequest {
		return sampleRequest{sampleWebhook(t, e), e.super, `{"active":false,"events":["post.moderated"]}`, 200}
	},
	"DELETE /api/v1/admin/webhooks/{id}": func(t *testing.T, e sampleEnv) sampleRequest {
		return sampleRequest{sampleWebhook(t, e), e.super, "", 200}
	},
	"POST /api/v1/admin/webhooks/{id}/rotate-secret": func(t *testing.T, e sampleEnv) sampleRequest {
		return sampleRequest{sampleWebhook(t, e) + "/rotate-secret", e.super, "", 200}
	},
	"POST /api/v1/admin/webhooks/{id}/test": func(t *testing.T, e sampleEnv) sampleRequest {
		return sampleRequest{sampleWebhook(t, e) + "/test", e.super, "", http.StatusAccepted}
	},
	"GET /api/v1/admin/webhooks/{id}/deliveries": func(t *testing.T, e sampleEnv) sampleRequest {
		hook := sampleWebhook(t, e)
		apptest.Do(t, e.app, "POST", hook+"/test", e.super)
		return sampleRequest{hook + "/deliveries?limit=5", e.super, "", 200}
	},
	"POST /api/v1/admin/webhooks/{id}/deliveries/{deliveryId}/cancel": func(t *testing.T, e sampleEnv) sampleRequest {
		hook := sampleWebhook(t, e)
		res := apptest.Do(t, e.app, "POST", hook+"/test", e.super)
		var out struct{ Data struct{ ID string } }
		if err := json.Unmarshal(res.Body.Bytes(), &out); err != nil {
			t.Fatal(err)
		}
		return sampleRequest{hook + "/deliveries/" + out.Data.ID + "/cancel", e.super, "", http.StatusOK}
	},
	"POST /api/v1/admin/webhooks/{id}/deliveries/{deliveryId}/retry": func(t *testing.T, e sampleEnv) sampleRequest {
		hook := sampleWebhook(t, e)
		res := apptest.Do(t, e.app, "POST", hook+"/test", e.super)
		var out struct{ Data struct{ ID string } }
		if err := json.Unmarshal(res.Body.Bytes(), &out); err != nil {
			t.Fatal(err)
		}
		return sampleRequest{hook + "/deliveries/" + out.Data.ID + "/retry", e.super, "", http.StatusAccepted}
	},
	"GET /api/v1/admin/users/{id}": func(t *testing.T, e sampleEnv) sampleRequest {
		u := e.app.User(t, "viewed@example.com")
		apptest.DoBody(t, e.app, "POST", api.AdminUserBanPath(u.ID), e.super, `{"reason":"spam","duration":"1d"}`)
		return sampleRequest{api.AdminV1UserPath(u.ID), e.super, "", 200}
	},
	"PUT /api/v1/admin/users/{id}": func(t *testing.T, e sampleEnv) sampleRequest {
		u := e.app.User(t, "updated@example.com")
		return sampleRequest{api.AdminV1UserPath(u.ID), e.super, `{"role":"moderator","notes":"Helpful"}`, 200}
	},
	"POST /api/v1/admin/users/{id}/ban": func(t *testing.T, e sampleEnv) sampleRequest {
		u := e.app.User(t, "banned.v1@example.com")
		return sampleRequest{api.AdminV1UserPath(u.ID) + "/ban", e.super, `{"action":"ban","reason":"spam","duration":"7d"}`, 200}
	},
	"POST /api/v1/admin/users/{id}/silence": func(t *testing.T, e sampleEnv) sampleRequest {
		u := e.app.User(t, "silenced.v1@example.com")
		return sampleRequest{api.AdminV1UserPath(u.ID) + "/silence", e.super, `{"duration":"24h","reason":"Heated thread"}`, 200}
	},
	"POST /api/v1/admin/users/{id}/password-reset": func(t *testing.T, e sampleEnv) sampleRequest {
		u := e.app.User(t, "reset.v1@example.com")
		return sampleRequest{api.AdminV1UserPath(u.ID) + "/password-reset", e.super, "", 200}
	},
	"POST /api/v1/admin/users/{id}/unsilence": func(t *testing.T, e sampleEnv) sampleRequest {
		u := e.app.User(t, "unsilenced.v1@example.com")
		apptest.DoBody(t, e.app, "POST", api.AdminV1UserPath(u.ID)+"/silence", e.super, `{"duration":"1h","reason":"Heated thread"}`)
		return sampleRequest{api.AdminV1UserPath(u.ID) + "/unsilence", e.super, "", 200}
	},
	"POST /api/v1/admin/users/bulk-update": func(t *testing.T, e sampleEnv) sampleRequest {
		a, b := e.app.User(t, "bulk.a@example.com"), e.app.User(t, "bulk.b@example.com")
		body := `{"userIds":["` + itoa(a.ID) + `","` + itoa(b.ID) + `"],"changes":{"isVerified":true}}`
		return sampleRequest{"/api/v1/admin/users/bulk-update", e.super, body, 200}
	},
	"POST /api/v1/admin/users/purge/preview": func(t *testing.T, e sampleEnv) sampleRequest {
		a, b := e.app.User(t, "wave.preview.a@spam.example"), e.app.User(t, "wave.preview.b@spam.example")
		body := `{"userIds":["` + itoa(a.ID) + `","` + itoa(b.ID) + `"],"reason":"Spam wave","blockDomains":["spam.example"]}`
		return sampleRequest{api.PathAdminV1PurgePreview, e.super, body, 200}
	},
	"POST /api/v1/admin/users/purge": func(t *testing.T, e sampleEnv) sampleRequest {
		a, b := e.app.User(t, "wave.a@spam.example"), e.app.User(t, "wave.b@spam.example")
		body := `{"userIds":["` + itoa(a.ID) + `","` + itoa(b.ID) + `"],"reason":"Spam wave","blockDomains":["spam.example"],"blockRanges":["2001:db8:5::/64"]}`
		return sampleRequest{api.PathAdminV1Purge, e.super, body, 200}
	},
	"GET /api/v1/admin/purges/{id}": func(t *testing.T, e sampleEnv) sampleRequest {
		return sampleRequest{api.AdminV1PurgePath(samplePurge(t, e, "viewed")), e.super, "", 200}
	},
	"GET /admin/purges/{id}": func(t *testing.T, e sampleEnv) sampleRequest {
		return sampleRequest{api.ConsolePurgePath(samplePurge(t, e, "paged")), e.super, "", 200}
	},
	"POST /api/v1/admin/purges/{id}/undo": func(t *testing.T, e sampleEnv) sampleRequest {
		return sampleRequest{api.AdminV1PurgeUndoPath(samplePurge(t, e, "undone")), e.super, `{}`, 200}
	},
	"GET /api/v1/admin/posts": asSuper("/api/v1/admin/posts?limit=5&reportedOnly=true&sort=reportCount", "", 200),
	"POST /api/v1/admin/posts/{id}/moderate": func(t *testing.T, e sampleEnv) sampleRequest {
		p := samplePost(t, e)
		id, _ := strconv.ParseInt(p.ID, 10, 64)
		return sampleRequest{api.AdminV1ModeratePath(id), e.super, `{"action":"flag","reason":"check the claims","notifyAuthor":true}`, 200}
	},
	"POST /api/v1/admin/posts/{id}/moderate/undo": func(t *testing.T, e sampleEnv) sampleRequest {
		p := samplePost(t, e)
		id, _ := strconv.ParseInt(p.ID, 10, 64)
		apptest.DoBody(t, e.app, "POST", api.AdminV1ModeratePath(id), e.super, `{"action":"hide"}`)
		return sampleRequest{api.AdminV1ModeratePath(id) + "/undo", e.super, "", 200}
	},
	"GET /api/v1/admin/reports/user-activity": func(t *testing.T, e sampleEnv) sampleRequest {
		samplePost(t, e)
		return sampleRequest{"/api/v1/admin/reports/user-activity?includeDetails=true&limit=5", e.super, "", 200}
	},
	"GET /api/v1/admin/reports/moderation": func(t *testing.T, e sampleEnv) sampleRequest {
		p := samplePost(t, e)
		id, _ := strconv.ParseInt(p.ID, 10, 64)
		apptest.DoBody(t, e.app, "POST", api.AdminV1ModeratePath(id), e.super, `{"action":"flag","reason":"check"}`)
		return sampleRequest{"/api/v1/admin/reports/moderation", e.super, "", 200}
	},
	"POST /api/v1/admin/system/maintenance": asSuper("/api/v1/admin/system/maintenance", `{"action":"rebuild_search","scope":"posts","notify":true}`, http.StatusAccepted),
	"GET /api/v1/admin/system/jobs": func(t *testing.T, e sampleEnv) sampleRequest {
		apptest.DoBody(t, e.app, "POST", "/api/v1/admin/system/maintenance", e.super, `{"action":"cache_clear"}`)
		return sampleRequest{"/api/v1/admin/system/jobs?limit=5", e.super, "", 200}
	},
	"GET /api/v1/admin/system/jobs/{jobId}": func(t *testing.T, e sampleEnv) sampleRequest {
		res := apptest.DoBody(t, e.app, "POST", "/api/v1/admin/system/maintenance", e.super, `{"action":"cleanup_uploads"}`)
		var queued struct{ Data struct{ JobID string } }
		json.Unmarshal(res.Body.Bytes(), &queued)
		return sampleRequest{"/api/v1/admin/system/jobs/" + queued.Data.JobID, e.super, "", 200}
	},
	"GET /api/v1/admin/system/backups": asSuper("/api/v1/admin/system/backups", "", 200),
	"GET /api/v1/admin/system/backups/{file}": func(t *testing.T, e sampleEnv) sampleRequest {
		return sampleRequest{"/api/v1/admin/system/backups/" + sampleBackup(t, e), e.super, "", 200}
	},
	"DELETE /api/v1/admin/system/backups/{file}": func(t *testing.T, e sampleEnv) sampleRequest {
		return sampleRequest{"/api/v1/admin/system/backups/" + sampleBackup(t, e), e.super, "", 200}
	},
	"GET /api/v1/admin/audit-logs/export": asSuper("/api/v1/admin/audit-logs/export?format=csv", "", 200),
	"GET /api/v1/admin/analytics":         asSuper("/api/v1/admin/analytics?period=30d", "", 200),
	"POST /api/v1/admin/notifications/broadcast": asSuper("/api/v1/admin/notifications/broadcast",
		`{"title":"Welcome","message":"Say hello","type":"success","targets":["users","moderators"]}`, http.StatusCreated),
	"GET /api/v1/admin/notifications/broadcasts": func(t *testing.T, e sampleEnv) sampleRequest {
		apptest.DoBody(t, e.app, "POST", "/api/v1/admin/notifications/broadcast", e.super,
			`{"title":"Later","message":"M","targets":["all"],"schedule":"`+time.Now().Add(time.Hour).UTC().Format(time.RFC3339)+`"}`)
		return sampleRequest{"/api/v1/admin/notifications/broadcasts?limit=5", e.super, "", 200}
	},
	"POST /api/v1/admin/blocks": asSuper("/api/v1/admin/blocks", `{"kind":"ip","value":"203.0.113.0/24","reason":"spam wave"}`, http.StatusCreated),
	"GET /api/v1/admin/blocks": func(t *testing.T, e sampleEnv) sampleRequest {
		apptest.DoBody(t, e.app, "POST", "/api/v1/admin/blocks", e.super, `{"kind":"email_domain","value":"listed.example"}`)
		return sampleRequest{"/api/v1/admin/blocks?kind=email_domain", e.super, "", 200}
	},
	"DELETE /api/v1/admin/blocks/{id}": func(t *testing.T, e sampleEnv) sampleRequest {
		res := apptest.DoBody(t, e.app, "POST", "/api/v1/admin/blocks", e.super, `{"kind":"ip","value":"2001:db8::/32"}`)
		var created struct{ Data api.V1Block }
		if err := json.Unmarshal(res.Body.Bytes(), &created); err != nil {
			t.Fatal(err)
		}
		return sampleRequest{api.AdminV1BlockPath(created.Data.ID), e.super, "", 200}
	},
	"GET /admin/blocks": func(t *testing.T, e sampleEnv) sampleRequest {
		apptest.DoBody(t, e.app, "POST", "/api/v1/admin/blocks", e.super, `{"kind":"email_domain","value":"shown.example"}`)
		return sampleRequest{"/admin/blocks", e.super, "", 200}
	},
	"POST /api/v1/admin/invitations": asSuper(api.PathAdminV1Invitations, `{"maxUses":3,"validFor":"3d","note":"Spring meetup","email":"guest@example.com"}`, http.StatusCreated),
	"GET /api/v1/admin/invitations": func(t *testing.T, e sampleEnv) sampleRequest {
		sampleInvitation(t, e)
		return sampleRequest{api.PathAdminV1Invitations + "?state=active&limit=5", e.super, "", 200}
	},
	"GET /api/v1/admin/invitations/{id}": func(t *testing.T, e sampleEnv) sampleRequest {
		inv := sampleInvitation(t, e)
		if res := signUp(t, e.app, "invited.sample@example.com", inv.Token); res.Code != http.StatusCreated {
			t.Fatalf("sign up with the invitation: %d %s", res.Code, res.Body)
		}
		return sampleRequest{api.PathAdminV1Invitations + "/" + inv.ID, e.super, "", 200}
	},
	"DELETE /api/v1/admin/invitations/{id}": func(t *testing.T, e sampleEnv) sampleRequest {
		return sampleRequest{api.PathAdminV1Invitations + "/" + sampleInvitation(t, e).ID, e.super, "", 200}
	},
	"GET /admin/invitations": func(t *testing.T, e sampleEnv) sampleRequest {
		sampleInvitation(t, e)
		return sampleRequest{api.PathConsoleInvitations, e.super, "", 200}
	},
	"GET /admin/invitations/{id}": func(t *testing.T, e sampleEnv) sampleRequest {
		return sampleRequest{api.ConsoleInvitationPath(sampleInvitation(t, e).ID), e.super, "", 200}
	},
	"POST /admin/invitations": func(t *testing.T, e sampleEnv) sampleRequest {
		u := e.app.User(t, "inviting-moderator@example.com", access.RoleModerator)
		return sampleRequest{api.PathConsoleInvitations, e.app.SessionFor(t, u.ID), `{"maxUses":1,"note":"For Ada"}`, http.StatusCreated}
	},
	"POST /admin/invitations/{id}/revoke": func(t *testing.T, e sampleEnv) sampleRequest {
		return sampleRequest{api.ConsoleInvitationRevokePath(sampleInvitation(t, e).ID), e.super, "", 200}
	},
	"GET /signup": getSample("/signup?invite=TOK7", 200),
	"GET /api/v1/admin/mail": func(t *testing.T, e sampleEnv) sampleRequest {
		outboxMail(t, e.app, models.MailFailed, false, 0)
		return sampleRequest{"/api/v1/admin/mail?status=failed&limit=5", e.super, "", 200}
	},
	"GET /admin/mail": func(t *testing.T, e sampleEnv) sampleRequest {
		outboxMail(t, e.app, models.MailHeld, false, 0)
		return sampleRequest{"/admin/mail", e.super, "", 200}
	},
	"POST /api/v1/admin/mail/{id}/resend": func(t *testing.T, e sampleEnv) sampleRequest {
		m := outboxMail(t, e.app, models.MailFailed, false, 0)
		return sampleRequest{api.AdminV1MailResendPath(strconv.FormatInt(m.ID, 10)), e.super, "", http.StatusAccepted}
	},
	"POST /api/v1/admin/mail/test": asSuper("/api/v1/admin/mail/test", "", http.StatusAccepted),
	"GET /api/v1/admin/feature-flags": func(t *testing.T, e sampleEnv) sampleRequest {
		apptest.DoBody(t, e.app, "PUT", "/api/v1/admin/feature-flags/listed", e.super, `{"enabled":true}`)
		return sampleRequest{"/api/v1/admin/feature-flags", e.super, "", 200}
	},
	"PUT /api/v1/admin/feature-flags/{name}": asSuper("/api/v1/admin/feature-flags/sample_flag", `{"enabled":true,"rolloutPercentage":25}`, 201),
	"DELETE /api/v1/admin/feature-flags/{name}": func(t *testing.T, e sampleEnv) sampleRequest {
		apptest.DoBody(t, e.app, "PUT", "/api/v1/admin/feature-flags/doomed", e.super, `{}`)
		return sampleRequest{"/api/v1/admin/feature-flags/doomed", e.super, "", 200}
	},
	"GET /api/feature-flags": func(t *testing.T, e sampleEnv) sampleRequest {
		apptest.DoBody(t, e.app, "PUT", "/api/v1/admin/feature-flags/for_you", e.super, `{"enabled":true,"rolloutPercentage":50}`)
		return sampleRequest{"/api/feature-flags", e.session, "", 200}
	},
	"POST /api/v1/admin/posts/bulk-moderate": func(t *testing.T, e sampleEnv) sampleRequest {
		p := samplePost(t, e)
		return sampleRequest{"/api/v1/admin/posts/bulk-moderate", e.super, `{"postIds":["` + p.ID + `"],"action":"hide","reason":"spam"}`, 200}
	},
	"GET /api/v1/admin/users/{id}/notes": func(t *testing.T, e sampleEnv) sampleRequest {
		u := e.app.User(t, "noted@example.com")
		apptest.DoBody(t, e.app, "POST", api.AdminV1UserPath(u.ID)+"/notes", e.super, `{"body":"Friendly"}`)
		return sampleRequest{api.AdminV1UserPath(u.ID) + "/notes", e.super, "", 200}
	},
	"POST /api/v1/admin/users/{id}/notes": func(t *testing.T, e sampleEnv) sampleRequest {
		u := e.app.User(t, "warned@example.com")
		return sampleRequest{api.AdminV1UserPath(u.ID) + "/notes", e.super, `{"body":"Mind the tone","kind":"warning"}`, 201}
	},
	"GET /api/v1/admin/moderation/reasons":         asSuper("/api/v1/admin/moderation/reasons", "", 200),
	"PUT /api/v1/admin/moderation/reasons":         asSuper("/api/v1/admin/moderation/reasons", `{"reasons":["Spam","Off topic"]}`, 200),
	"GET /api/v1/admin/settings/new-account-posts": asSuper(api.PathAdminV1NewAccountPosts, "", 200),
	"PUT /api/v1/admin/settings/new-account-posts": asSuper(api.PathAdminV1NewAccountPosts, `{"holdFirst":0,"holdDays":0,"tellAuthor":true}`, 200),
	"GET /admin/new-accounts":                      asSuper(api.PathConsoleNewAccounts+"?saved=1", "", 200),
	"POST /admin/new-accounts":                     asSuper(api.PathConsoleNewAccounts, `{"holdFirst":0}`, 200),
	"GET /api/notifications": func(_ *testing.T, e sampleEnv) sampleRequest {
		return sampleRequest{"/api/notifications?limit=5", e.session, "", 200}
	},
	"POST /api/notifications/{id}/read": func(t *testing.T, e sampleEnv) sampleRequest {
		return sampleRequest{"/api/notifications/" + sampleNotification(t, e) + "/read", e.session, "", 200}
	},
	"DELETE /api/notifications/{id}": func(t *testing.T, e sampleEnv) sampleRequest {
		return sampleRequest{"/api/notifications/" + sampleNotification(t, e), e.session, "", http.StatusNoContent}
	},
	"GET /api/v1/admin/audit-logs":        asSuper("/api/v1/admin/audit-logs?limit=5&action=token.list", "", 200),
	"GET /api/v1/admin/audit-logs/verify": asSuper("/api/v1/admin/audit-logs/verify", "", 200),
	"POST /api/v1/admin/locks":            asSuper("/api/v1/admin/locks", `{"type":"post","id":"41"}`, http.StatusCreated),
	"DELETE /api/v1/admin/locks/{type}/{id}": func(t *testing.T, e sampleEnv) sampleRequest {
		apptest.DoBody(t, e.app, "POST", "/api/v1/admin/locks", e.super, `{"type":"post","id":"42"}`)
		return sampleRequest{"/api/v1/admin/locks/post/42", e.super, "", 200}
	},

	// The unversioned admin family.
	"GET /api/admin/users": asSuper("/api/admin/users?page=1&limit=5&search=example", "", 200),
	"GET /api/admin/stats": asSuper("/api/admin/stats", "", 200),
	"POST /api/admin/users/{id}/ban": func(t *testing.T, e sampleEnv) sampleRequest {
		u := e.app.User(t, "banned@example.com")
		return sampleRequest{api.AdminUserBanPath(u.ID), e.super, `{"reason":"spam","duration":"1d"}`, 200}
	},
	"POST /api/admin/users/{id}/unban": func(t *testing.T, e sampleEnv) sampleRequest {
		u := e.app.User(t, "unbanned@example.com")
		apptest.DoBody(t, e.app, "POST", api.AdminUserBanPath(u.ID), e.super, `{"reason":"spam"}`)
		return sampleRequest{api.AdminUserUnbanPath(u.ID), e.super, "", 200}
	},
	"POST /api/admin/users/{id}/silence": func(t *testing.T, e sampleEnv) sampleRequest {
		u := e.app.User(t, "silenced@example.com")
		return sampleRequest{api.PathAdminUsers + "/" + itoa(u.ID) + "/silence", e.super, `{"duration":"7d","reason":"Heated thread"}`, 200}
	},
	"POST /api/admin/users/{id}/unsilence": func(t *testing.T, e sampleEnv) sampleRequest {
		u := e.app.User(t, "unsilenced@example.com")
		path := api.PathAdminUsers + "/" + itoa(u.ID)
		apptest.DoBody(t, e.app, "POST", path+"/silence", e.super, `{"duration":"1h","reason":"Heated thread"}`)
		return sampleRequest{path + "/unsilence", e.super, "", 200}
	},
	// The general API.
	"GET /api/users": getSample("/api/users?limit=5", 200),
	"GET /api/users/{id}": func(t *testing.T, e sampleEnv) sampleRequest {
		return sampleRequest{"/api/users/" + sampleUser(t, e, "seen@example.com").id, nil, "", 200}
	},
	"POST /api/users": getBody("/api/users", `{"name":"New Member","email":"new.member@example.com","password":"a long enough passphrase"}`, http.StatusCreated),
	"PUT /api/users/{id}": func(t *testing.T, e sampleEnv) sampleRequest {
		u := sampleUser(t, e, "editor@example.com")
		return sampleRequest{"/api/users/" + u.id, u.session, `{"bio":"Grows beans."}`, 200}
	},
	"DELETE /api/users/{id}": func(t *testing.T, e sampleEnv) sampleRequest {
		return sampleRequest{"/api/users/" + sampleUser(t, e, "gone@example.com").id, e.super, "", 200}
	},
	"GET /api/posts": getSample("/api/posts?limit=5&sort=title&order=asc", 200),
	"GET /api/posts/{id}": func(t *testing.T, e sampleEnv) sampleRequest {
		return sampleRequest{"/api/posts/" + samplePost(t, e).ID, nil, "", 200}
	},
	"POST /api/posts": func(_ *testing.T, e sampleEnv) sampleRequest {
		return sampleRequest{"/api/posts", e.session, `{"title":"Beans","content":"Runner beans.","tags":["beans"],"published":true}`, http.StatusCreated}
	},
	"PUT /api/posts/{id}": func(t *testing.T, e sampleEnv) sampleRequest {
		return sampleRequest{"/api/posts/" + samplePost(t, e).ID, e.session, `{"title":"Broad beans"}`, 200}
	},
	"DELETE /api/posts/{id}": func(t *testing.T, e sampleEnv) sampleRequest {
		return sampleRequest{"/api/posts/" + samplePost(t, e).ID, e.session, "", 200}
	},
	"POST /api/posts/{id}/report": func(t *testing.T, e sampleEnv) sampleRequest {
		reporter := sampleUser(t, e, "reporter@example.com")
		return sampleRequest{"/api/posts/" + samplePost(t, e).ID + "/report", reporter.session, `{"reason":"spam"}`, http.StatusCreated}
	},
	"GET /api/search": func(t *testing.T, e sampleEnv) sampleRequest {
		samplePost(t, e)
		return sampleRequest{"/api/search?q=beans&type=all", nil, "", 200}
	},
	"GET /api/search/users": getSample("/api/search/users?q=example&limit=5", 200),
	"GET /api/search/posts": func(t *testing.T, e sampleEnv) sampleRequest {
		samplePost(t, e)
		return sampleRequest{"/api/search/posts?q=beans", e.super, "", 200}
	},
}

func getBody(target, body string, status int) func(*testing.T, sampleEnv) sampleRequest {
	return func(*testing.T, sampleEnv) sampleRequest { return sampleRequest{target, nil, body, status} }
}

type sampleAccount struct {
	id      string
	session http.Header
}

func sampleUser(t *testing.T, e sampleEnv, email string) sampleAccount {
	u := e.app.User(t, email)
	return sampleAccount{strconv.FormatInt(u.ID, 10), e.app.SessionFor(t, u.ID)}
}

// samplePost is a published post by the session's user.
func samplePost(t *testing.T, e sampleEnv) api.Post {
	return writePost(t, e.app, e.session, `{"title":"Runner beans","content":"Beans up the poles.","published":true}`)
}

// samplePurge purges two new accounts named after what and returns the
// purge's id.
func samplePurge(t *testing.T, e sampleEnv, what string) string {
	t.Helper()
	a, b := e.app.User(t, what+".a@wave.example"), e.app.User(t, what+".b@wave.example")
	res := apptest.DoBody(t, e.app, "POST", api.PathAdminV1Purge, e.super,
		`{"userIds":["`+itoa(a.ID)+`","`+itoa(b.ID)+`"],"reason":"Spam wave"}`)
	var got struct {
		Data struct{ Purge struct{ ID string } }
	}
	if err := json.Unmarshal(res.Body.Bytes(), &got); err != nil || res.Code != 200 {
		t.Fatalf("purge: %d %s", res.Code, res.Body)
	}
	return got.Data.Purge.ID
}

// csrfPair is a browser's CSRF cookie, as a header, and its token
// (GET /api/auth/csrf).
func csrfPair(t *testing.T, app *apptest.App) (http.Header, string) {
	t.Helper()
	res := apptest.Do(t, app, "GET", "/api/auth/csrf", nil)
	var got struct{ CSRFToken string }
	if err := json.Unmarshal(res.Body.Bytes(), &got); err != nil || len(res.Result().Cookies()) != 1 {
		t.Fatalf("GET /api/auth/csrf: %d %s", res.Code, res.Body)
	}
	ck := res.Result().Cookies()[0]
	return http.Header{"Cookie": {ck.Name + "=" + ck.Value}}, got.CSRFToken
}

// sampleInvitation makes an invitation of two uses as the super admin.
func sampleInvitation(t *testing.T, e sampleEnv) api.NewInvitation {
	t.Helper()
	res := apptest.DoBody(t, e.app, "POST", api.PathAdminV1Invitations, e.super, `{"maxUses":2}`)
	var created struct{ Data api.NewInvitation }
	if err := json.Unmarshal(res.Body.Bytes(), &created); err != nil || created.Data.Token == "" {
		t.Fatalf("invitation: %d %s", res.Code, res.Body)
	}
	return created.Data
}

func getSample(target string, status int) func(*testing.T, sampleEnv) sampleRequest {
	return func(*testing.T, sampleEnv) sampleRequest { return sampleRequest{target, nil, "", status} }
}

func asSuper(target, body string, status int) func(*testing.T, sampleEnv) sampleRequest {
	return func(_ *testing.T, e sampleEnv) sampleRequest { return sampleRequest{target, e.super, body, status} }
}

// sampleNotification puts a notification in the sample session's inbox
// (a flag of their post, with notifyAuthor) and returns its id.
func sampleNotification(t *testing.T, e sampleEnv) string {
	p := samplePost(t, e)
	id, _ := strconv.ParseInt(p.ID, 10, 64)
	apptest.DoBody(t, e.app, "POST", api.AdminV1ModeratePath(id), e.super, `{"action":"flag","notifyAuthor":true}`)
	var inbox api.Inbox
	json.Unmarshal(apptest.Do(t, e.app, "GET", "/api/notifications", e.session).Body.Bytes(), &inbox)
	if len(inbox.Notifications) == 0 {
		t.Fatal("no notification in the sample inbox")
	}
	return inbox.Notifications[0].ID
}

// TestDocumentedRoutesAnswer sends every operation of the OpenAPI document
// its sample, on both databases: each must succeed with the status and
// media type the document gives, and (through apptest.Do) its body must
// match the documented schema.
func TestDocumentedRoutesAnswer(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		e := newSampleEnv(t, db)
		ops := e.app.Doc.Operations()
		if len(ops) < 20 {
			t.Fatalf("only %d operations in the document", len(ops))
		}
		for _, op := range ops {
			t.Run(op, func(t *testing.T) {
				sample, ok := samples[op]
				if !ok {
					t.Fatalf("no sample for %s: add one to samples in handlers/openapi_test.go", op)
				}
				method, path, _ := strings.Cut(op, " ")
				s := sample(t, e)
				res := apptest.DoBody(t, e.app, method, s.target, s.header, s.body)
				if res.Code != s.status {
					t.Fatalf("%s %s: got %d %.300s, want %d", method, s.target, res.Code, res.Body, s.status)
				}
				checkMediaType(t, e.app, method, path, res)
			})
		}
		for op := range samples {
			if !slices.Contains(ops, op) {
				t.Errorf("sample for %s, which is not in the document", op)
			}
		}
	})
}

// checkMediaType fails unless the response's media type is one the
// document gives its status (a bodiless redirect has none).
func checkMediaType(t *testing.T, app *apptest.App, method, path string, res *httptest.ResponseRecorder) {
	t.Helper()
	types := app.Doc.MediaTypes(method, path, res.Code)
	ct := res.Header().Get("Content-Type")
	if ct == "" && len(types) == 0 {
		return
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil || !slices.Contains(types, mt) {
		t.Errorf("%s %s answered %d as %q; the document gives %v", method, path, res.Code, ct, types)
	}
}

// newSampleEnv is the app the samples run against; more may change its
// dependencies further (the race walk lifts its limits).
func newSampleEnv(t *testing.T, db *bun.DB, more ...func(*web.Deps)) sampleEnv {
	t.Helper()
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<html><head><title>Sample</title><meta name="description" content="A page"></head></html>`))
	}))
	t.Cleanup(page.Close)
	f := newFakeOAuth(t)
	app := apptest.New(t, db, func(d *web.Deps) {
		d.OAuthProviders = f.providers(d.Config.PublicAppURL)
		d.Config.LinkPreviewAllowPrivate = true
		d.Config.LinkPreviewPorts = []int{page.Listener.Addr().(*net.TCPAddr).Port}
		d.Config.SMTP.Host = "127.0.0.1" // mail is queued, as resending needs; no job runs to send it
		for _, m := range more {
			m(d)
		}
	})
	super := app.User(t, "super@example.com", access.ImpliedRoles(access.RoleSuperAdmin)...)
	token, _ := app.TokenFor(t, super.ID, access.AllPermissions()...)
	user := app.User(t, "user@example.com")
	return sampleEnv{app: app, super: token, session: app.SessionFor(t, user.ID), page: page.URL, oauth: f}
}

// sampleApplicant opens a fresh pending application and names its id.
func sampleApplicant(t *testing.T, e sampleEnv) int64 {
	t.Helper()
	n := sampleApplicants.Add(1)
	return e.app.Applicant(t, fmt.Sprintf("applicant%d@example.com", n), "applicant password", "198.51.100.7", "I like it here").ID
}

var sampleApplicants atomic.Int64

// sampleBackup writes a backup as the maintenance job would and names it.
func sampleBackup(t *testing.T, e sampleEnv) string {
	t.Helper()
	path, err := e.app.Store.Maintenance.Backup(context.Background(), e.app.Runtime.Config.BackupDir, e.app.Runtime.Config.DatabaseURL)
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Base(path)
}

// sampleWebhook registers an endpoint (on a name that never resolves:
// sample apps send nothing) and returns its URL.
func sampleWebhook(t *testing.T, e sampleEnv) string {
	t.Helper()
	res := apptest.DoBody(t, e.app, "POST", "/api/v1/admin/webhooks", e.super, `{"url":"https://hooks.invalid/plaza","events":["user.banned"]}`)
	var out struct{ Data struct{ ID string } }
	if err := json.Unmarshal(res.Body.Bytes(), &out); err != nil || res.Code != http.StatusCreated {
		t.Fatalf("register webhook: %d %s", res.Code, res.Body)
	}
	return "/api/v1/admin/webhooks/" + out.Data.ID
}
