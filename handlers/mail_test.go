package handlers_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/mail"
	"github.com/plazahq/plaza/internal/mail/mailtest"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// outboxMail stores a message in status in the outbox, as if an action
// had written it and its sending had gone that far; secret ones carry a
// reset link, and owner (0: none) is the account it was written to.
func outboxMail(t *testing.T, a *apptest.App, status string, secret bool, owner int64) *models.MailMessage {
	t.Helper()
	to := "someone@example.com"
	m := &models.MailMessage{Kind: string(mail.KindTest), Recipient: to, Subject: "Plaza test message",
		TextBody: "Mail from Plaza works. Body-mark-" + status, HTMLBody: "<p>Body-mark-" + status + "</p>",
		Status: status, CreatedAt: time.Now().UTC()}
	if secret {
		m.Kind, m.Subject, m.Secret = string(mail.KindPasswordReset), "Reset your password",
			true
		m.TextBody = "Choose a new password: https://plaza.example/reset-password?token=SECRET-TOKEN-" + status
		m.HTMLBody = "<a href=\"https://plaza.example/reset-password?token=SECRET-TOKEN-" + status + "\">reset</a>"
	}
	if owner != 0 {
		m.UserID = &owner
	}
	if status == models.MailFailed {
		m.Attempts, m.LastError = 8, "dial tcp 127.0.0.1:1: connection refused"
	}
	if _, err := a.Store.DB.NewInsert().Model(m).Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
	return m
}

// mailServerApp is the app sending through srv (SMTP_URL set) with its
// job queue working and retries a millisecond apart.
func mailServerApp(t *testing.T, db *bun.DB, srv *mailtest.Server) *apptest.App {
	t.Helper()
	cfg := apptest.Config(t)
	server, err := mail.ParseURL(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	cfg.SMTPURL, cfg.SMTP = mail.Redact(srv.URL()), server
	a := apptest.NewWithConfig(t, db, cfg, app.Options{MailBackoff: func(int) time.Duration { return time.Millisecond }})
	if err := a.Runtime.StartJobs(context.Background()); err != nil {
		t.Fatal(err)
	}
	return a
}

func mailStatusOf(t *testing.T, a *apptest.App, id int64) string {
	t.Helper()
	m, err := a.Store.Mail.MailByID(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return m.Status
}

func idOf(id int64) string { return strconv.FormatInt(id, 10) }

// TestMailListHasNoBodies: the list answers every message's state and
// never a body, not even a held one's or a secret one's.
func TestMailListHasNoBodies(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a := apptest.New(t, db)
		admin, _ := a.Admin(t)
		for _, s := range []string{models.MailQueued, models.MailSent, models.MailFailed, models.MailHeld} {
			outboxMail(t, a, s, false, 0)
		}
		outboxMail(t, a, models.MailHeld, true, 0)
		res := apptest.Do(t, a, "GET", api.PathAdminV1Mail, admin)
		if res.Code != http.StatusOK {
			t.Fatalf("list: %d %s", res.Code, res.Body)
		}
		body := res.Body.String()
		if strings.Contains(body, "Body-mark") || strings.Contains(body, "SECRET-TOKEN") {
			t.Errorf("the list shows a body: %s", body)
		}
		var out struct {
			Data []api.V1MailMessage
			Meta struct{ Pagination api.Pagination }
		}
		if err := json.Unmarshal(res.Body.Bytes(), &out); err != nil {
			t.Fatal(err)
		}
		if len(out.Data) != 5 || out.Meta.Pagination.Total != 5 || !out.Data[0].Secret || out.Data[0].Status != models.MailHeld {
			t.Errorf("list: %+v, want 5 messages newest (the secret held one) first", out)
		}
		failed := apptest.Do(t, a, "GET", api.PathAdminV1Mail+"?status=failed", admin)
		if !strings.Contains(failed.Body.String(), `"lastError":"dial tcp`) || strings.Count(failed.Body.String(), `"id"`) != 1 {
			t.Errorf("failed only: %s", failed.Body)
		}
		if res := apptest.Do(t, a, "GET", api.PathAdminV1Mail+"?status=lost", admin); res.Code != http.StatusUnprocessableEntity {
			t.Errorf("unknown status: %d, want 422", res.Code)
		}
	})
}

// TestMailResend: a failed message sent again reaches the mail server
// and is marked sent, with its mail.resend audit entry; a sent one is
// refused 409 and stays as it was.
func TestMailResend(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		srv := mailtest.Start(t)
		a := mailServerApp(t, db, srv)
		admin, _ := a.Admin(t)
		failed := outboxMail(t, a, models.MailFailed, false, 0)
		res := apptest.Do(t, a, "POST", api.AdminV1MailResendPath(idOf(failed.ID)), admin)
		if res.Code != http.StatusAccepted || !strings.Contains(res.Body.String(), `"status":"queued"`) {
			t.Fatalf("resend a failed message: %d %s, want 202 queued", res.Code, res.Body)
		}
		got := srv.Wait(t, 1, 10*time.Second)
		if got[0].To[0] != failed.Recipient || !strings.Contains(got[0].Text(), "Body-mark-failed") {
			t.Errorf("received %v %q", got[0].To, got[0].Text())
		}
		apptest.WaitFor(t, "the message marked sent", func() bool { return mailStatusOf(t, a, failed.ID) == models.MailSent })
		found := false
		for _, e := range a.AuditEntries(t) {
			found = found || e.Action == "mail.resend" && e.TargetID == idOf(failed.ID) && e.Status == http.StatusAccepted
		}
		if !found {
			t.Error("no mail.resend audit entry names the message")
		}

		sent := outboxMail(t, a, models.MailSent, false, 0)
		res = apptest.Do(t, a, "POST", api.AdminV1MailResendPath(idOf(sent.ID)), admin)
		if res.Code != http.StatusConflict || !strings.Contains(res.Body.String(), api.CodeConflict) {
			t.Errorf("resend a sent message: %d %s, want 409 CONFLICT", res.Code, res.Body)
		}
		if s := mailStatusOf(t, a, sent.ID); s != models.MailSent {
			t.Errorf("the refused message is %s, want sent", s)
		}
		if res := apptest.Do(t, a, "POST", api.AdminV1MailResendPath("999999"), admin); res.Code != http.StatusNotFound {
			t.Errorf("resend an unknown message: %d, want 404", res.Code)
		}
	})
}

// TestMailResendWithoutServer: with no SMTP_URL a held message stays
// held, and the refusal says why.
func TestMailResendWithoutServer(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a := apptest.New(t, db)
		admin, _ := a.Admin(t)
		held := outboxMail(t, a, models.MailHeld, false, 0)
		res := apptest.Do(t, a, "POST", api.AdminV1MailResendPath(idOf(held.ID)), admin)
		if res.Code != http.StatusConflict || !strings.Contains(res.Body.String(), "SMTP_URL") {
			t.Errorf("resend without a server: %d %s, want 409 naming SMTP_URL", res.Code, res.Body)
		}
		if s := mailStatusOf(t, a, held.ID); s != models.MailHeld {
			t.Errorf("the message is %s, want held", s)
		}
	})
}

// TestMailTestMessage: the test message goes to the caller's own
// address and arrives.
func TestMailTestMessage(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		srv := mailtest.Start(t)
		a := mailServerApp(t, db, srv)
		u := a.User(t, "tester@example.com", access.RoleAdmin)
		res := apptest.Do(t, a, "POST", api.PathAdminV1MailTest, a.SessionFor(t, u.ID))
		if res.Code != http.StatusAccepted || !strings.Contains(res.Body.String(), `"recipient":"tester@example.com"`) {
			t.Fatalf("test message: %d %s", res.Code, res.Body)
		}
		got := srv.Wait(t, 1, 10*time.Second)
		if got[0].To[0] != "tester@example.com" || got[0].Subject() == "" {
			t.Errorf("received to %v, subject %q", got[0].To, got[0].Subject())
		}
		found := false
		for _, e := range a.AuditEntries(t) {
			found = found || e.Action == "mail.test"
		}
		if !found {
			t.Error("no mail.test audit entry")
		}
	})
}

// TestMailPageBodies: without SMTP_URL the page says mail is kept here;
// a held message's text shows, but one carrying a token only to the
// account it was written to: another admin, super admins included, sees
// that it was kept and not its link.
func TestMailPageBodies(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a := apptest.New(t, db)
		ana := a.User(t, "ana@example.com", access.RoleAdmin)
		other, _ := a.Admin(t)
		outboxMail(t, a, models.MailHeld, false, 0)
		outboxMail(t, a, models.MailHeld, true, ana.ID)
		page := func(h http.Header) string {
			res := apptest.Do(t, a, "GET", api.PathConsoleMail, withHeader(h, "Accept", "text/html"))
			if res.Code != http.StatusOK {
				t.Fatalf("mail page: %d %s", res.Code, res.Body)
			}
			return res.Body.String()
		}
		own := page(a.SessionFor(t, ana.ID))
		if !strings.Contains(own, "mail is kept here instead of being sent") {
			t.Error("the page does not say mail is kept here")
		}
		if !strings.Contains(own, "SECRET-TOKEN-held") || !strings.Contains(own, "Body-mark-held") {
			t.Error("the recipient does not see the held messages' text and link")
		}
		theirs := page(other)
		if strings.Contains(theirs, "SECRET-TOKEN") {
			t.Error("another admin sees the reset link")
		}
		if !strings.Contains(theirs, "only its recipient may read it") || !strings.Contains(theirs, "Body-mark-held") {
			t.Error("another admin does not see the plain held message, or that a private one was kept")
		}
		htmx := apptest.Do(t, a, "GET", api.PathConsoleMail, withHeader(other, "HX-Request", "true"))
		if htmx.Code != http.StatusOK || strings.Contains(htmx.Body.String(), "SECRET-TOKEN") || !strings.Contains(htmx.Body.String(), `id="mail-list"`) {
			t.Errorf("htmx list: %d, or it shows the link", htmx.Code)
		}
	})
}

// TestMailForModerators: moderators have no mail page, and none of its
// routes.
func TestMailForModerators(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a := apptest.New(t, db)
		mod := a.SessionFor(t, a.User(t, "mo@example.com", access.RoleModerator).ID)
		m := outboxMail(t, a, models.MailFailed, false, 0)
		for _, r := range []struct{ method, path string }{
			{"GET", api.PathAdminV1Mail}, {"GET", api.PathConsoleMail},
			{"POST", api.AdminV1MailResendPath(idOf(m.ID))}, {"POST", api.PathAdminV1MailTest},
		} {
			if res := apptest.Do(t, a, r.method, r.path, mod); res.Code != http.StatusForbidden {
				t.Errorf("%s %s as a moderator: %d, want 403", r.method, r.path, res.Code)
			}
		}
	})
}
