package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/go-rod/rod"

	"github.com/plazahq/plaza/app"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/mail"
	"github.com/plazahq/plaza/internal/mail/mailtest"
	"github.com/plazahq/plaza/models"
)

// TestConsoleMailResend: at 1280 px an admin finds a failed message on
// the mail page, its error in its row, and resends it: the mail server
// receives it and the row turns sent.
func TestConsoleMailResend(t *testing.T) {
	srv := mailtest.Start(t)
	cfg := apptest.Config(t)
	server, err := mail.ParseURL(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	cfg.SMTPURL, cfg.SMTP = mail.Redact(srv.URL()), server
	pz := startPlazaConfig(t, cfg, app.Options{MailBackoff: func(int) time.Duration { return time.Millisecond }})
	m := &models.MailMessage{Kind: "test", Recipient: "lost@plaza.test", Subject: "Returned to sender",
		TextBody: "Mail from Plaza works.", HTMLBody: "<p>Mail from Plaza works.</p>", Status: models.MailFailed,
		Attempts: 8, LastError: "554 mailbox unavailable", CreatedAt: time.Now().UTC()}
	if _, err := pz.Store.DB.NewInsert().Model(m).Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
	p, c := pz.as(t, pz.admin, "/admin/mail")
	p.MustSetViewport(1280, 800, 1, false)
	row := fmt.Sprintf(`[data-testid="mail-row-%d"]`, m.ID)
	waitText(t, p, row+` [data-testid="mail-error"]`, "554 mailbox unavailable")
	accessible(t, p, "the mail page")
	step(t, p, "resend", func(p *rod.Page) {
		p.MustElement(row + ` [data-testid="mail-resend"]`).MustClick()
	})
	toast(t, p, "Sending again to lost@plaza.test")
	got := srv.Wait(t, 1, 10*time.Second)
	if got[0].To[0] != "lost@plaza.test" {
		t.Errorf("the server received mail to %v", got[0].To)
	}
	apptest.WaitFor(t, "the message marked sent", func() bool {
		got, err := pz.Store.Mail.MailByID(context.Background(), m.ID)
		return err == nil && got.Status == models.MailSent
	})
	step(t, p, "the list shows it sent", func(p *rod.Page) {
		p.MustElement(`[data-testid="mail-filter-sent"]`).MustClick()
		p.MustElementR(row+` [data-testid="mail-status"]`, "Sent")
	})
	clean(t, c)
}
