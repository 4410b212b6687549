package app_test

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/jobs"
	"github.com/plazahq/plaza/internal/mail"
	"github.com/plazahq/plaza/internal/mail/mailtest"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// mailApp is the app with SMTP_URL set to smtpURL ("" for none), retries
// a few milliseconds apart, and its job queue working.
func mailApp(t *testing.T, db *bun.DB, smtpURL string) *apptest.App {
	t.Helper()
	cfg := apptest.Config(t)
	if smtpURL != "" {
		server, err := mail.ParseURL(smtpURL)
		if err != nil {
			t.Fatal(err)
		}
		cfg.SMTPURL, cfg.SMTP = mail.Redact(smtpURL), server
	}
	a := apptest.NewWithConfig(t, db, cfg, app.Options{MailBackoff: func(int) time.Duration { return time.Millisecond }})
	if err := a.Runtime.StartJobs(context.Background()); err != nil {
		t.Fatal(err)
	}
	return a
}

// queue puts a test message to to in the outbox, in a change of its own.
func queue(t *testing.T, a *apptest.App, to string, send bool) *models.MailMessage {
	t.Helper()
	m, err := a.Runtime.Mail.Test(to, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	row := &models.MailMessage{Kind: string(m.Kind), Recipient: m.To, Subject: m.Subject, TextBody: m.Text, HTMLBody: m.HTML}
	if err := a.Store.Change(context.Background(), func(ctx context.Context) error {
		return a.Store.Mail.QueueMail(ctx, row, send)
	}); err != nil {
		t.Fatal(err)
	}
	return row
}

func mailStatus(t *testing.T, a *apptest.App, id int64) *models.MailMessage {
	t.Helper()
	m, err := a.Store.Mail.MailByID(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestMailOutboxSends: a message queued in a change reaches the SMTP
// server through the mail_send job and is marked sent.
func TestMailOutboxSends(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		srv := mailtest.Start(t)
		a := mailApp(t, db, srv.URL())
		row := queue(t, a, "ana@example.com", true)
		got := srv.Wait(t, 1, 10*time.Second)
		if len(got[0].To) != 1 || got[0].To[0] != "ana@example.com" || got[0].Subject() != row.Subject {
			t.Errorf("received to %v %q, want ana@example.com %q", got[0].To, got[0].Subject(), row.Subject)
		}
		apptest.WaitFor(t, "the message marked sent", func() bool { return mailStatus(t, a, row.ID).Status == models.MailSent })
		if m := mailStatus(t, a, row.ID); m.Attempts != 1 || m.SentAt == nil || m.LastError != "" {
			t.Errorf("sent message: %d attempts, sent at %v, error %q", m.Attempts, m.SentAt, m.LastError)
		}
	})
}

// TestMailOutboxRetriesThenFails: with the SMTP server down, the action
// that mails (a reset link asked for) still succeeds, and its message is
// tried MailMaxAttempts times and then kept as failed with the error.
func TestMailOutboxRetriesThenFails(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a := mailApp(t, db, mailtest.DownURL(t))
		a.User(t, "ana@example.com")
		if res := apptest.DoBody(t, a, "POST", api.PathPasswordForgot, nil, `{"email":"ana@example.com"}`); res.Code != 202 {
			t.Fatalf("forgot with the mail server down: %d %s, want 202", res.Code, res.Body)
		}
		rows, err := a.Store.Mail.MailTo(context.Background(), "ana@example.com")
		if err != nil || len(rows) != 1 || rows[0].Status != models.MailQueued {
			t.Fatalf("outbox after the action: %+v (%v), want one queued message", rows, err)
		}
		row := &rows[0]
		apptest.WaitWithin(t, time.Minute, "the message marked failed", func() bool { return mailStatus(t, a, row.ID).Status == models.MailFailed })
		m := mailStatus(t, a, row.ID)
		if m.Attempts != jobs.MailMaxAttempts || m.LastError == "" || m.SentAt != nil {
			t.Errorf("failed message: %d attempts (want %d), error %q, sent at %v", m.Attempts, jobs.MailMaxAttempts, m.LastError, m.SentAt)
		}
	})
}

// TestMailOutboxHeldWithoutServer: without SMTP_URL a message is stored
// held, and no job is queued for it.
func TestMailOutboxHeldWithoutServer(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a := apptest.New(t, db) // jobs not started: a queued job would stay in the table
		if a.Runtime.MailSender != nil {
			t.Fatal("a sender without SMTP_URL")
		}
		row := queue(t, a, "ana@example.com", false)
		if m := mailStatus(t, a, row.ID); m.Status != models.MailHeld || m.Attempts != 0 {
			t.Errorf("message without a server: %s after %d attempts, want held", m.Status, m.Attempts)
		}
		if n := jobCount(t, a); n != 0 {
			t.Errorf("%d jobs queued for a held message", n)
		}
	})
}

// TestMailOutboxRollback: a change rolled back leaves neither the message
// nor its job.
func TestMailOutboxRollback(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a := apptest.New(t, db)
		undo := errors.New("undo")
		err := a.Store.Change(context.Background(), func(ctx context.Context) error {
			if err := a.Store.Mail.QueueMail(ctx, &models.MailMessage{Kind: "test", Recipient: "ana@example.com", Subject: "s", TextBody: "t"}, true); err != nil {
				return err
			}
			return undo
		})
		if !errors.Is(err, undo) {
			t.Fatalf("change: %v", err)
		}
		if rows, err := a.Store.Mail.MailTo(context.Background(), "ana@example.com"); err != nil || len(rows) != 0 {
			t.Errorf("after a rollback: %d messages (%v)", len(rows), err)
		}
		if n := jobCount(t, a); n != 0 {
			t.Errorf("after a rollback: %d jobs", n)
		}
	})
}

func jobCount(t *testing.T, a *apptest.App) int64 {
	t.Helper()
	counts, err := a.Store.Maintenance.JobCounts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for _, c := range counts {
		n += c
	}
	return n
}

// TestMailOutboxForgetsSentSecrets: once a reset link's mail is sent, the
// outbox keeps its subject and fate but not its body, so neither the
// database nor a backup of it holds a live link (the token itself is
// stored only as its hash).
func TestMailOutboxForgetsSentSecrets(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		srv := mailtest.Start(t)
		a := mailApp(t, db, srv.URL())
		a.User(t, "ana@example.com")
		if res := apptest.DoBody(t, a, "POST", api.PathPasswordForgot, nil, `{"email":"ana@example.com"}`); res.Code != 202 {
			t.Fatalf("forgot: %d %s", res.Code, res.Body)
		}
		srv.Wait(t, 1, 10*time.Second)
		rows, err := a.Store.Mail.MailTo(context.Background(), "ana@example.com")
		if err != nil || len(rows) != 1 {
			t.Fatalf("outbox: %d messages (%v)", len(rows), err)
		}
		apptest.WaitFor(t, "the reset mail marked sent", func() bool { return mailStatus(t, a, rows[0].ID).Status == models.MailSent })
		m := mailStatus(t, a, rows[0].ID)
		if !m.Secret || m.TextBody != "" || m.HTMLBody != "" || m.Subject == "" {
			t.Errorf("sent reset mail kept: secret %v, text %q, html %d bytes, subject %q; want no body", m.Secret, m.TextBody, len(m.HTMLBody), m.Subject)
		}
	})
}

var verifyLink = regexp.MustCompile(`/verify-email\?token=([A-Z2-7]+)`)

// received is the one message the SMTP server took for to, of those it
// took.
func received(t *testing.T, got []mailtest.Received, to string) mailtest.Received {
	t.Helper()
	var out []mailtest.Received
	for _, r := range got {
		if len(r.To) == 1 && r.To[0] == to {
			out = append(out, r)
		}
	}
	if len(out) != 1 {
		t.Fatalf("%d messages to %s, want 1", len(out), to)
	}
	return out[0]
}

// linkToken is the token of the verification link in r.
func linkToken(t *testing.T, r mailtest.Received) string {
	t.Helper()
	m := verifyLink.FindStringSubmatch(r.Text())
	if m == nil {
		t.Fatalf("no verification link in the message %q", r.Subject())
	}
	return m[1]
}

// verifyWith spends a verification link's token and answers the account.
func verifyWith(t *testing.T, a *apptest.App, token string) api.User {
	t.Helper()
	res := apptest.DoBody(t, a, "POST", api.PathEmailVerify, nil, `{"token":"`+token+`"}`)
	var u api.User
	if err := json.Unmarshal(res.Body.Bytes(), &u); err != nil || res.Code != 200 || u.EmailVerified == nil {
		t.Fatalf("verify: %d %s", res.Code, res.Body)
	}
	return u
}

// TestVerificationMailsReachTheServer: through a real SMTP server, a
// sign-up's address receives the link that verifies it; a change of
// address sends the new address its link and tells the old one, and the
// new address's link makes it the account's.
func TestVerificationMailsReachTheServer(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		srv := mailtest.Start(t)
		a := mailApp(t, db, srv.URL())
		res := apptest.DoBody(t, a, "POST", api.PathUsers, nil, `{"name":"Ana","email":"ana@example.com","password":"a long enough passphrase"}`)
		if res.Code != 201 {
			t.Fatalf("register: %d %s", res.Code, res.Body)
		}
		welcome := received(t, srv.Wait(t, 1, 10*time.Second), "ana@example.com")
		if !strings.Contains(welcome.Subject(), "Confirm your email address") ||
			!strings.Contains(welcome.Text(), a.Deps.Config.PublicAppURL+"/verify-email?token=") {
			t.Errorf("the sign-up's mail: %q", welcome.Subject())
		}
		if u := verifyWith(t, a, linkToken(t, welcome)); u.Email != "ana@example.com" {
			t.Errorf("verified %s, want ana@example.com", u.Email)
		}
		rows, err := a.Store.Mail.MailTo(context.Background(), "ana@example.com")
		if err != nil || len(rows) != 1 {
			t.Fatalf("outbox: %d messages (%v)", len(rows), err)
		}
		apptest.WaitFor(t, "the verification mail marked sent", func() bool { return mailStatus(t, a, rows[0].ID).Status == models.MailSent })
		if m := mailStatus(t, a, rows[0].ID); !m.Secret || m.TextBody != "" || m.HTMLBody != "" {
			t.Errorf("sent verification mail kept: secret %v, text %q, html %d bytes; want no body", m.Secret, m.TextBody, len(m.HTMLBody))
		}

		ana, err := a.Store.Users.UserByEmail(context.Background(), "ana@example.com")
		if err != nil {
			t.Fatal(err)
		}
		res = apptest.DoBody(t, a, "POST", api.PathEmailChange, a.SessionFor(t, ana.ID), `{"email":"ana.new@example.com","password":"a long enough passphrase"}`)
		if res.Code != 202 {
			t.Fatalf("change: %d %s", res.Code, res.Body)
		}
		got := srv.Wait(t, 3, 10*time.Second)
		notice := received(t, got[1:], "ana@example.com")
		if !strings.Contains(notice.Subject(), "is being changed") || !strings.Contains(notice.Text(), "ana.new@example.com") ||
			verifyLink.MatchString(notice.Text()) {
			t.Errorf("the old address's notice: %q, want it to name the new address and carry no link", notice.Subject())
		}
		change := received(t, got, "ana.new@example.com")
		if !strings.Contains(change.Subject(), "Confirm your new email address") {
			t.Errorf("the new address's mail: %q", change.Subject())
		}
		if u := verifyWith(t, a, linkToken(t, change)); u.Email != "ana.new@example.com" {
			t.Errorf("after the change's link the account's address is %s", u.Email)
		}
	})
}
