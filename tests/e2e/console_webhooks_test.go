package e2e

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strings"
	"testing"

	"github.com/go-rod/rod"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app"
	"github.com/plazahq/plaza/app/apptest"
)

// TestConsoleWebhooks: an admin registers an endpoint (a receiver in this
// test, on 127.0.0.1, which only this app can reach), sees its secret
// once, sends a test message that the receiver gets signed with it and
// that the log shows delivered, then deletes the endpoint; the JSON API
// agrees at each step. A moderator has no webhooks page.
func TestConsoleWebhooks(t *testing.T) {
	recv := apptest.NewReceiver(t)
	pz := startPlazaWith(t, app.Options{WebhookNet: recv.Net})
	p, c := pz.as(t, pz.admin, "/admin/webhooks")
	accessible(t, p, "the webhooks page")
	step(t, p, "register an endpoint", func(p *rod.Page) {
		p.MustElement(`[data-testid="webhook-new-open"]`).MustClick()
		p.MustElement(`[data-testid="webhook-new-url"]`).MustInput(recv.URL)
		p.MustElement(`[data-testid="webhook-event-user.banned"]`).MustClick()
		p.MustElement(`[data-testid="webhook-event-report.created"]`).MustClick()
		p.MustElement(`[data-testid="webhook-new-description"]`).MustInput("Trust and safety bot")
		p.MustElement(`[data-testid="webhook-new-submit"]`).MustClick()
	})
	toast(t, p, "Webhook created")
	var secret string
	step(t, p, "read the secret shown once", func(p *rod.Page) {
		secret = p.MustElement(`[data-testid="webhook-secret"]`).MustProperty("value").String()
	})
	if !strings.HasPrefix(secret, "whsec_") {
		t.Fatalf("secret shown: %q", secret)
	}
	accessible(t, p, "the webhooks page with a secret shown")
	var list struct{ Data []api.Webhook }
	pz.api(t, pz.admin, "GET", api.PathAdminWebhooks, &list)
	if len(list.Data) != 1 || list.Data[0].URL != recv.URL || len(list.Data[0].Events) != 2 || !list.Data[0].Active {
		t.Fatalf("the API lists %+v", list.Data)
	}
	hook := `[data-testid="webhook-` + list.Data[0].ID + `"]`
	step(t, p, "the secret is not shown again", func(p *rod.Page) {
		p.MustReload().MustWaitLoad()
		p.MustElementR(hook+` [data-testid="webhook-url"]`, regexpQuote(recv.URL))
		if p.MustHas(`[data-testid="webhook-secret"]`) || strings.Contains(p.MustHTML(), secret) {
			panic("the secret is on the page again")
		}
	})
	step(t, p, "send a test message", func(p *rod.Page) {
		p.MustElement(hook + ` [data-testid="webhook-test"]`).MustClick()
	})
	toast(t, p, "Test message queued")
	waitText(t, p, hook+` [data-testid="delivery-status"]`, "Delivered")
	waitText(t, p, hook+` [data-testid="delivery-attempts"]`, "1")
	got := recv.Received()
	if len(got) != 1 {
		t.Fatalf("the receiver got %d requests", len(got))
	}
	key, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(got[0].Header.Get("webhook-id") + "." + got[0].Header.Get("webhook-timestamp") + "." + string(got[0].Body)))
	if want := "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil)); got[0].Header.Get("webhook-signature") != want {
		t.Errorf("signature %q, want %q", got[0].Header.Get("webhook-signature"), want)
	}
	var log struct{ Data []api.WebhookDelivery }
	pz.api(t, pz.admin, "GET", api.PathAdminWebhooks+"/"+list.Data[0].ID+"/deliveries", &log)
	if len(log.Data) != 1 || log.Data[0].Status != "delivered" || log.Data[0].Event != "ping" {
		t.Errorf("the API's delivery log: %+v", log.Data)
	}
	step(t, p, "pause it", func(p *rod.Page) {
		p.MustElement(hook + ` [data-testid="webhook-toggle"]`).MustClick()
	})
	toast(t, p, "Webhook turned off")
	waitText(t, p, hook+` [data-testid="webhook-state"]`, "Paused")
	step(t, p, "delete after confirming", func(p *rod.Page) {
		p.MustElement(hook + ` [data-testid="webhook-delete-open"]`).MustClick()
		p.MustElement(`#delete-webhook-` + list.Data[0].ID + ` [data-testid="webhook-delete-confirm"]`).MustClick()
	})
	toast(t, p, "Webhook deleted")
	step(t, p, "the endpoint is gone", func(p *rod.Page) {
		p.MustWait(`() => !document.querySelector('` + hook + `')`)
	})
	pz.api(t, pz.admin, "GET", api.PathAdminWebhooks, &list)
	if len(list.Data) != 0 {
		t.Errorf("the API still lists %+v", list.Data)
	}
	clean(t, c)

	m, cm := pz.as(t, pz.modUser, "/admin")
	step(t, m, "no webhooks in the moderator's sidebar", func(p *rod.Page) {
		if p.MustHas(`[data-testid="nav-webhooks"]`) {
			panic("a moderator sees the webhooks link")
		}
	})
	clean(t, cm)
	if res := apptest.Do(t, pz.App, "GET", api.PathConsoleWebhooks, pz.SessionFor(t, pz.modUser.ID)); res.Code != http.StatusForbidden {
		t.Errorf("a moderator's GET of the webhooks page: %d", res.Code)
	}
}
