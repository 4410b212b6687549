package handlers_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/mail"
	"github.com/plazahq/plaza/internal/mail/mailtest"
	"github.com/plazahq/plaza/models/dbtest"
)

// staffReset is the data of a staff reset's answer.
type staffReset struct {
	Data api.V1PasswordReset
}

func staffResetPath(id int64) string { return api.AdminV1UserPath(id) + "/password-reset" }

// TestStaffPasswordResetLink: without SMTP_URL an admin gets the link,
// once, keeps no mail, and the audit says who; the link sets the password
// once, and a link opened earlier stops working.
func TestStaffPasswordResetLink(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a, _ := resetApp(t, db)
		admin := a.User(t, "admin@example.com", access.RoleAdmin)
		member := a.UserWithPassword(t, "ada@example.com", "correct horse")
		earlier := resetToken(t, a, member) // asked by the member through forgot-password

		res := apptest.DoBody(t, a, "POST", staffResetPath(member.ID), a.SessionFor(t, admin.ID), "")
		var out staffReset
		if res.Code != http.StatusOK || json.Unmarshal(res.Body.Bytes(), &out) != nil {
			t.Fatalf("admin resets a member: %d %s, want 200", res.Code, res.Body)
		}
		m := resetLink.FindStringSubmatch(out.Data.URL)
		if out.Data.Sent || m == nil || !strings.HasPrefix(out.Data.URL, a.Deps.Config.PublicAppURL+"/reset-password?token=") {
			t.Fatalf("answer %+v, want a link on PUBLIC_APP_URL and sent false", out.Data)
		}
		if at, err := time.Parse(api.TimeLayout, out.Data.ExpiresAt); err != nil || at.Sub(a.Deps.Now()) != 60*time.Minute {
			t.Errorf("expiresAt %q (%v), want 60 minutes on", out.Data.ExpiresAt, err)
		}
		if msgs := mailsTo(t, a, member.Email, mail.KindPasswordReset); len(msgs) != 1 {
			t.Errorf("%d reset mails kept, want only the member's own earlier one", len(msgs))
		}
		if res := reset(t, a, earlier, newPassword, ""); res.Code != 422 {
			t.Errorf("the earlier link after the staff's: %d %s, want 422", res.Code, res.Body)
		}
		if res := reset(t, a, m[1], newPassword, ""); res.Code != 200 {
			t.Fatalf("the staff's link: %d %s, want 200", res.Code, res.Body)
		}
		if res := reset(t, a, m[1], "another fine password", ""); res.Code != 422 {
			t.Errorf("the staff's link again: %d %s, want 422", res.Code, res.Body)
		}
		signIn := apptest.DoBody(t, a, "POST", api.PathSignIn, nil, `{"email":"ada@example.com","password":"`+newPassword+`"}`)
		if signIn.Code != 200 {
			t.Errorf("sign-in with the new password: %d %s", signIn.Code, signIn.Body)
		}
		a.FlushAudit(t)
		found := false
		for _, e := range a.AuditEntries(t) {
			if e.Action == "user.password_reset" && e.TargetID == itoa(member.ID) && e.AdminID != nil && *e.AdminID == admin.ID {
				found = e.Status == 200 && e.Details["mailed"] == false && !strings.Contains(strings.Join(detailValues(e.Details), " "), m[1])
			}
		}
		if !found {
			t.Error("no user.password_reset entry by the admin, with mailed false and no token")
		}
	})
}

func detailValues(d map[string]any) []string {
	b, _ := json.Marshal(d)
	return []string{string(b)}
}

// TestStaffPasswordResetRefused: a moderator and a member lack the
// permission, an admin does not outrank another admin, nobody resets
// themselves here, and a session confirmed over 10 minutes ago confirms
// first. A super admin resets an admin.
func TestStaffPasswordResetRefused(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a, clock := resetApp(t, db)
		admin := a.User(t, "admin@example.com", access.RoleAdmin)
		other := a.User(t, "other@example.com", access.RoleAdmin)
		mod := a.User(t, "mod@example.com", access.RoleModerator)
		member := a.User(t, "ada@example.com")
		super, _ := a.Admin(t)
		// Without a mail server the answer is a way into the account: only
		// a signed-in, confirmed person takes it, never a bearer token.
		token, _ := a.TokenFor(t, admin.ID, access.PermAdminRead, access.PermAdminWrite)
		for _, c := range []struct {
			name   string
			who    http.Header
			target int64
			want   int
			code   string
		}{
			{"a moderator", a.SessionFor(t, mod.ID), member.ID, 403, ""},
			{"a member", a.SessionFor(t, member.ID), other.ID, 403, ""},
			{"an admin on another admin", a.SessionFor(t, admin.ID), other.ID, 403, ""},
			{"an admin on themselves", a.SessionFor(t, admin.ID), admin.ID, 403, ""},
			{"nobody", nil, member.ID, 401, ""},
			{"no such user", a.SessionFor(t, admin.ID), 999999, 404, ""},
			{"an admin's token, no mail server", token, member.ID, 403, ""},
			{"a super admin on an admin", super, other.ID, 200, ""},
		} {
			res := apptest.DoBody(t, a, "POST", staffResetPath(c.target), c.who, "")
			if res.Code != c.want {
				t.Errorf("%s: %d %s, want %d", c.name, res.Code, res.Body, c.want)
			}
		}
		stale := a.SessionFor(t, admin.ID)
		clock.Add(11 * time.Minute)
		res := apptest.DoBody(t, a, "POST", staffResetPath(member.ID), stale, "")
		if res.Code != 403 || !strings.Contains(res.Body.String(), "SUDO_REQUIRED") {
			t.Errorf("a session confirmed 11 minutes ago: %d %s, want 403 SUDO_REQUIRED", res.Code, res.Body)
		}
	})
}

// TestStaffPasswordResetMailed: with SMTP_URL set the reset mail reaches
// the member's address through the outbox, and no link is answered.
func TestStaffPasswordResetMailed(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		srv := mailtest.Start(t)
		cfg := apptest.Config(t)
		server, err := mail.ParseURL(srv.URL())
		if err != nil {
			t.Fatal(err)
		}
		cfg.SMTPURL, cfg.SMTP = mail.Redact(srv.URL()), server
		a := apptest.NewWithConfig(t, db, cfg, app.Options{MailBackoff: func(int) time.Duration { return time.Millisecond }})
		if err := a.Runtime.StartJobs(t.Context()); err != nil {
			t.Fatal(err)
		}
		super, _ := a.Admin(t)
		member := a.User(t, "ada@example.com")
		res := apptest.DoBody(t, a, "POST", staffResetPath(member.ID), super, "")
		if res.Code != 200 || strings.Contains(res.Body.String(), "reset-password?token") || !strings.Contains(res.Body.String(), `"sent":true`) {
			t.Fatalf("reset with a mail server: %d %s, want 200 sent and no link", res.Code, res.Body)
		}
		got := srv.Wait(t, 1, 10*time.Second)
		if len(got[0].To) != 1 || got[0].To[0] != member.Email || resetLink.FindString(got[0].Text()) == "" {
			t.Errorf("received to %v: %q, want the reset link to %s", got[0].To, got[0].Text(), member.Email)
		}
	})
}

// TestStaffPasswordResetConsole: the user page offers "Create reset link"
// to an admin without SMTP_URL, and nothing to a moderator or on one's own
// page; the console gets the panel with the link and its copy button.
func TestStaffPasswordResetConsole(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a, _ := resetApp(t, db)
		admin := a.User(t, "admin@example.com", access.RoleAdmin)
		member := a.User(t, "ada@example.com")
		page := func(who, target int64) *goquery.Document {
			h := a.SessionFor(t, who)
			h.Set("Accept", "text/html")
			res := apptest.Do(t, a, "GET", "/admin/users/"+itoa(target), h)
			if res.Code != 200 {
				t.Fatalf("user page: %d", res.Code)
			}
			doc, err := goquery.NewDocumentFromReader(res.Body)
			if err != nil {
				t.Fatal(err)
			}
			return doc
		}
		open := page(admin.ID, member.ID).Find(`[data-testid="reset-password-open"]`)
		if open.Length() != 1 || !strings.Contains(open.Text(), "Create reset link") {
			t.Errorf("admin on a member's page: %d controls %q, want Create reset link", open.Length(), open.Text())
		}
		if n := page(admin.ID, admin.ID).Find(`[data-testid="reset-password-open"]`).Length(); n != 0 {
			t.Errorf("own page offers a reset")
		}
		h := a.SessionFor(t, admin.ID)
		h.Set("HX-Request", "true")
		res := apptest.DoBody(t, a, "POST", staffResetPath(member.ID), h, "")
		doc, err := goquery.NewDocumentFromReader(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		link, _ := doc.Find(`[data-testid="password-reset-link"]`).Attr("value")
		if res.Code != 200 || resetLink.FindString(link) == "" || doc.Find(`[data-testid="password-reset-copy"]`).Length() != 1 {
			t.Errorf("console answer: %d %s, want the panel with the link and a copy button", res.Code, res.Body)
		}
		if !strings.Contains(res.Header().Get("HX-Trigger"), "plaza:toast") || res.Header().Get("Cache-Control") == "" {
			t.Errorf("headers %v, want a toast and no-store", res.Header())
		}
	})
}
