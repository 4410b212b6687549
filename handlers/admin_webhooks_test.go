package handlers_test

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/netguard"
	"github.com/plazahq/plaza/internal/webhook"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// webhookApp is the app with its deliveries routed to recv, retries a few
// milliseconds apart, and its job queue working.
func webhookApp(t *testing.T, db *bun.DB, recv *apptest.Receiver) *apptest.App {
	t.Helper()
	a := apptest.NewWith(t, db, app.Options{WebhookNet: recv.Net, WebhookBackoff: func(int) time.Duration { return 10 * time.Millisecond }})
	if err := a.Runtime.StartJobs(context.Background()); err != nil {
		t.Fatal(err)
	}
	return a
}

type v1Webhook struct {
	ID, URL, Description, Secret string
	Events                       []string
	Active                       bool
}

type v1Delivery struct {
	ID, MessageID, Event, Status, LastError, Payload string
	Attempts                                         int
	LastStatusCode                                   *int
	LastAttemptAt, NextAttemptAt                     *string
}

func registerWebhook(t *testing.T, a *apptest.App, h http.Header, url string, events ...string) v1Webhook {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"url": url, "events": events})
	res := apptest.DoBody(t, a, "POST", api.PathAdminWebhooks, h, string(body))
	var out struct{ Data v1Webhook }
	if err := json.Unmarshal(res.Body.Bytes(), &out); err != nil || res.Code != http.StatusCreated {
		t.Fatalf("register %s: %d %s", url, res.Code, res.Body)
	}
	return out.Data
}

func deliveries(t *testing.T, a *apptest.App, h http.Header, hookID string) []v1Delivery {
	t.Helper()
	res := apptest.Do(t, a, "GET", api.PathAdminWebhooks+"/"+hookID+"/deliveries?limit=100", h)
	var out struct{ Data []v1Delivery }
	if err := json.Unmarshal(res.Body.Bytes(), &out); err != nil || res.Code != 200 {
		t.Fatalf("deliveries: %d %s", res.Code, res.Body)
	}
	return out.Data
}

// waitDeliveries waits until the log of hookID satisfies done.
func waitDeliveries(t *testing.T, a *apptest.App, h http.Header, hookID string, done func([]v1Delivery) bool) []v1Delivery {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		ds := deliveries(t, a, h, hookID)
		if done(ds) {
			return ds
		}
		if time.Now().After(deadline) {
			t.Fatalf("webhook %s: deliveries %+v", hookID, ds)
		}
	}
}

func settled(ds []v1Delivery) bool {
	for _, d := range ds {
		if d.Status == models.DeliveryPending {
			return false
		}
	}
	return len(ds) > 0
}

// checkSignature recomputes the signature from the headers and the body,
// as a receiver that knows only the secret would.
func checkSignature(t *testing.T, secret string, r apptest.Received) {
	t.Helper()
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil || !strings.HasPrefix(secret, "whsec_") {
		t.Fatalf("secret %q is not whsec_<base64>", secret)
	}
	id, ts := r.Header.Get("webhook-id"), r.Header.Get("webhook-timestamp")
	sent, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || time.Since(time.Unix(sent, 0)).Abs() > 5*time.Minute {
		t.Errorf("webhook-timestamp %q is not the unix time now", ts)
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + ts + "." + string(r.Body)))
	want := "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
	if got := r.Header.Get("webhook-signature"); !hmac.Equal([]byte(got), []byte(want)) || !strings.HasPrefix(id, "msg_") {
		t.Errorf("webhook-signature %q for id %q, want %q", got, id, want)
	}
}

// message is a received body.
type message struct {
	Type      string
	Timestamp string
	Data      map[string]any
}

func decodeMessage(t *testing.T, r apptest.Received) message {
	t.Helper()
	var m message
	if err := json.Unmarshal(r.Body, &m); err != nil {
		t.Fatalf("message %s: %v", r.Body, err)
	}
	if _, err := time.Parse(time.RFC3339, m.Timestamp); err != nil || !strings.HasSuffix(m.Timestamp, "Z") {
		t.Errorf("timestamp %q", m.Timestamp)
	}
	return m
}

func TestWebhookRegistration(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a := apptest.New(t, db)
		admin, _ := a.Admin(t)
		_, userH := userWith(t, a, "user@example.com")
		_, modH := userWith(t, a, "mod@example.com", access.RoleModerator)
		root, _ := a.TokenFor(t, mustUser(t, a, "reader@example.com"), access.PermAdminRead)
		good := `{"url":"https://hooks.example.com/plaza","events":["user.banned"]}`
		for _, c := range []struct {
			name   string
			h      http.Header
			status int
		}{{"anonymous", nil, 401}, {"user", userH, 403}, {"moderator", modH, 403}, {"read-only token", root, 403}} {
			if res := apptest.DoBody(t, a, "POST", api.PathAdminWebhooks, c.h, good); res.Code != c.status {
				t.Errorf("%s: POST got %d %s, want %d", c.name, res.Code, res.Body, c.status)
			}
		}
		if res := apptest.Do(t, a, "GET", api.PathAdminWebhooks, modH); res.Code != 403 {
			t.Errorf("moderator lists webhooks: %d", res.Code)
		}
		for _, c := range []struct{ name, body, field string }{
			{"private address", `{"url":"http://10.0.0.1/hook","events":["user.banned"]}`, "url"},
			{"metadata service", `{"url":"http://169.254.169.254/latest/meta-data","events":["user.banned"]}`, "url"},
			{"IPv6 loopback", `{"url":"http://[::1]:8080/","events":["user.banned"]}`, "url"},
			{"decimal loopback", `{"url":"http://2130706433/","events":["user.banned"]}`, "url"},
			{"localhost", `{"url":"http://localhost/","events":["user.banned"]}`, "url"},
			{"file scheme", `{"url":"file:///etc/passwd","events":["user.banned"]}`, "url"},
			{"credentials", `{"url":"https://user:pass@hooks.example.com/","events":["user.banned"]}`, "url"},
			{"relative", `{"url":"/hooks","events":["user.banned"]}`, "url"},
			{"no url", `{"events":["user.banned"]}`, "url"},
			{"no events", `{"url":"https://hooks.example.com/","events":[]}`, "events"},
			{"unknown event", `{"url":"https://hooks.example.com/","events":["user.created"]}`, "events"},
			{"long description", `{"url":"https://hooks.example.com/","events":["user.banned"],"description":"` + strings.Repeat("x", 501) + `"}`, "description"},
		} {
			wantError(t, apptest.DoBody(t, a, "POST", api.PathAdminWebhooks, admin, c.body), 422, api.CodeValidationError, c.field)
		}
		// A refused private address names the setting that allows it; a
		// URL of the wrong shape does not.
		for body, hint := range map[string]bool{`{"url":"http://10.0.0.1/hook","events":["user.banned"]}`: true,
			`{"url":"http://localhost/","events":["user.banned"]}`: true, `{"url":"file:///etc/passwd","events":["user.banned"]}`: false} {
			res := apptest.DoBody(t, a, "POST", api.PathAdminWebhooks, admin, body)
			if strings.Contains(res.Body.String(), "WEBHOOK_ALLOW_PRIVATE") != hint {
				t.Errorf("%s: %s, want the setting named: %v", body, res.Body, hint)
			}
		}

		w := registerWebhook(t, a, admin, "https://hooks.example.com/plaza", "user.banned", "report.created", "user.banned")
		if !strings.HasPrefix(w.Secret, "whsec_") || !w.Active || len(w.Events) != 2 {
			t.Errorf("created %+v", w)
		}
		if !audited(t, a, "webhook.create", w.ID, http.StatusCreated) {
			t.Errorf("no audit entry of the creation")
		}
		for _, path := range []string{api.PathAdminWebhooks, api.PathAdminWebhooks + "/" + w.ID, api.PathConsoleWebhooks} {
			res := apptest.Do(t, a, "GET", path, admin)
			if res.Code != 200 || strings.Contains(res.Body.String(), w.Secret) || strings.Contains(res.Body.String(), "whsec_") {
				t.Errorf("GET %s shows the secret again: %d %s", path, res.Code, res.Body)
			}
		}
		page := apptest.Do(t, a, "GET", api.PathConsoleWebhooks, withHeader(admin, "Accept", "text/html"))
		if page.Code != 200 || !strings.Contains(page.Body.String(), `data-testid="webhook-`+w.ID+`"`) {
			t.Errorf("console page: %d %s", page.Code, page.Body)
		}
		if res := apptest.Do(t, a, "GET", api.PathConsoleWebhooks, withHeader(modH, "Accept", "text/html")); res.Code != 403 {
			t.Errorf("a moderator opens the webhooks page: %d", res.Code)
		}
		log := apptest.Do(t, a, "GET", api.PathAdminWebhooks+"/"+w.ID+"/deliveries", withHeader(admin, "HX-Request", "true"))
		if log.Code != 200 || !strings.Contains(log.Body.String(), "Nothing sent yet") {
			t.Errorf("delivery log partial: %d %s", log.Code, log.Body)
		}
		res := apptest.DoBody(t, a, "PATCH", api.PathAdminWebhooks+"/"+w.ID, admin, `{"active":false,"url":"http://10.1.1.1/"}`)
		wantError(t, res, 422, api.CodeValidationError, "url")
		res = apptest.DoBody(t, a, "PATCH", api.PathAdminWebhooks+"/"+w.ID, admin, `{}`)
		wantError(t, res, 422, api.CodeValidationError, "")
		res = apptest.DoBody(t, a, "PATCH", api.PathAdminWebhooks+"/"+w.ID, admin, `{"active":false,"description":"paused"}`)
		if res.Code != 200 || !strings.Contains(res.Body.String(), `"active":false`) {
			t.Errorf("PATCH: %d %s", res.Code, res.Body)
		}
		res = apptest.Do(t, a, "POST", api.PathAdminWebhooks+"/"+w.ID+"/rotate-secret", admin)
		var rotated struct{ Data v1Webhook }
		if json.Unmarshal(res.Body.Bytes(), &rotated); res.Code != 200 || rotated.Data.Secret == w.Secret || !strings.HasPrefix(rotated.Data.Secret, "whsec_") {
			t.Errorf("rotate: %d %s", res.Code, res.Body)
		}
		if res := apptest.Do(t, a, "DELETE", api.PathAdminWebhooks+"/"+w.ID, admin); res.Code != 200 {
			t.Errorf("delete: %d %s", res.Code, res.Body)
		}
		if !audited(t, a, "webhook.delete", w.ID, http.StatusOK) {
			t.Errorf("no audit entry of the deletion")
		}
		for _, m := range []string{"GET", "PATCH", "DELETE"} {
			if res := apptest.DoBody(t, a, m, api.PathAdminWebhooks+"/"+w.ID, admin, `{"active":true}`); res.Code != 404 {
				t.Errorf("%s of a deleted webhook: %d", m, res.Code)
			}
		}
	})
}

// audited reports whether an audit entry of action on webhook id with
// status is stored.
func audited(t *testing.T, a *apptest.App, action, id string, status int) bool {
	t.Helper()
	for _, e := range a.AuditEntries(t) {
		if e.Action == action && e.TargetType == "webhook" && e.TargetID == id && e.Status == status {
			return true
		}
	}
	return false
}

func mustUser(t *testing.T, a *apptest.App, email string) int64 {
	t.Helper()
	return a.User(t, email, access.RoleAdmin).ID
}

// TestWebhookPrivateTargetsInjected: an address policy that allows
// private targets (WEBHOOK_ALLOW_PRIVATE) lets [::1] through.
func TestWebhookPrivateTargetsInjected(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a := apptest.New(t, db, func(d *web.Deps) {
			d.Webhooks = webhook.NewSender(netguard.New(netguard.Config{AllowPrivate: true}), time.Second, "test")
		})
		admin, _ := a.Admin(t)
		registerWebhook(t, a, admin, "http://[::1]:9/hooks", "user.banned")
		wantError(t, apptest.DoBody(t, a, "POST", api.PathAdminWebhooks, admin, `{"url":"file:///etc/passwd","events":["user.banned"]}`),
			422, api.CodeValidationError, "url")
	})
}

func TestWebhookDelivery(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		recv := apptest.NewReceiver(t)
		a := webhookApp(t, db, recv)
		admin, _ := a.Admin(t)
		w := registerWebhook(t, a, admin, recv.URL, "user.banned")

		t.Run("signed ping", func(t *testing.T) {
			res := apptest.Do(t, a, "POST", api.PathAdminWebhooks+"/"+w.ID+"/test", admin)
			if res.Code != http.StatusAccepted {
				t.Fatalf("test: %d %s", res.Code, res.Body)
			}
			ds := waitDeliveries(t, a, admin, w.ID, settled)
			if d := ds[0]; d.Status != "delivered" || d.Attempts != 1 || d.LastStatusCode == nil || *d.LastStatusCode != 200 || d.Event != "ping" {
				t.Errorf("delivery %+v", d)
			}
			got := recv.Received()
			if len(got) != 1 {
				t.Fatalf("received %d requests", len(got))
			}
			checkSignature(t, w.Secret, got[0])
			if m := decodeMessage(t, got[0]); m.Type != "ping" || m.Data["webhookId"] != w.ID {
				t.Errorf("message %+v", m)
			}
			if got[0].Header.Get("webhook-id") != ds[0].MessageID || got[0].Header.Get("Content-Type") != "application/json" {
				t.Errorf("headers %v", got[0].Header)
			}
		})

		t.Run("retry after a 500", func(t *testing.T) {
			before := len(recv.Received())
			recv.Answer(http.StatusInternalServerError)
			apptest.Do(t, a, "POST", api.PathAdminWebhooks+"/"+w.ID+"/test", admin)
			ds := waitDeliveries(t, a, admin, w.ID, func(ds []v1Delivery) bool { return len(ds) == 2 && settled(ds) })
			if d := ds[0]; d.Status != "delivered" || d.Attempts != 2 || *d.LastStatusCode != 200 || d.LastError != "" {
				t.Errorf("delivery %+v", d)
			}
			got := recv.Received()[before:]
			if len(got) != 2 || got[0].Header.Get("webhook-id") != got[1].Header.Get("webhook-id") {
				t.Fatalf("received %d requests: %v", len(got), got)
			}
			checkSignature(t, w.Secret, got[1])
		})

		t.Run("a rotated secret signs", func(t *testing.T) {
			res := apptest.Do(t, a, "POST", api.PathAdminWebhooks+"/"+w.ID+"/rotate-secret", admin)
			var rotated struct{ Data v1Webhook }
			json.Unmarshal(res.Body.Bytes(), &rotated)
			before := len(recv.Received())
			apptest.Do(t, a, "POST", api.PathAdminWebhooks+"/"+w.ID+"/test", admin)
			waitDeliveries(t, a, admin, w.ID, func(ds []v1Delivery) bool { return len(ds) == 3 && settled(ds) })
			checkSignature(t, rotated.Data.Secret, recv.Received()[before])
		})

		t.Run("a name that resolves to a private address", func(t *testing.T) {
			recv.Host("inside.test", "10.0.0.5")
			inside := registerWebhook(t, a, admin, "http://inside.test:"+strconv.Itoa(recv.ReceiverPort())+"/hooks", "user.banned")
			before := len(recv.Received())
			apptest.Do(t, a, "POST", api.PathAdminWebhooks+"/"+inside.ID+"/test", admin)
			ds := waitDeliveries(t, a, admin, inside.ID, settled)
			if d := ds[0]; d.Status != "failed" || d.Attempts != 1 || d.LastStatusCode != nil || !strings.Contains(d.LastError, "not allowed") {
				t.Errorf("delivery %+v", d)
			}
			if n := len(recv.Received()) - before; n != 0 {
				t.Errorf("the receiver got %d requests", n)
			}
			res := apptest.Do(t, a, "POST", api.PathAdminWebhooks+"/"+inside.ID+"/deliveries/"+ds[0].ID+"/retry", admin)
			if res.Code != http.StatusAccepted {
				t.Fatalf("retry: %d %s", res.Code, res.Body)
			}
			ds = waitDeliveries(t, a, admin, inside.ID, func(ds []v1Delivery) bool { return settled(ds) && ds[0].Attempts == 1 && ds[0].Status == "failed" })
			if !audited(t, a, "webhook.retry", inside.ID, http.StatusAccepted) {
				t.Errorf("no audit entry of the retry")
			}
			if res := apptest.Do(t, a, "POST", api.PathAdminWebhooks+"/"+w.ID+"/deliveries/"+ds[0].ID+"/retry", admin); res.Code != 404 {
				t.Errorf("retry of another webhook's delivery: %d", res.Code)
			}
		})
	})
}

// TestWebhookEvents: every path that bans, moderates, reports or finishes
// a broadcast queues its message, which reaches the receiver signed;
// paused endpoints and endpoints for other events get nothing.
func TestWebhookEvents(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		recv := apptest.NewReceiver(t)
		a := webhookApp(t, db, recv)
		admin, root := a.Admin(t)
		w := registerWebhook(t, a, admin, recv.URL, webhook.Events...)
		paused := registerWebhook(t, a, admin, recv.URL, webhook.Events...)
		apptest.DoBody(t, a, "PATCH", api.PathAdminWebhooks+"/"+paused.ID, admin, `{"active":false}`)
		other := registerWebhook(t, a, admin, strings.TrimSuffix(recv.URL, "/hooks")+"/other", "broadcast.sent")

		ada, _ := userWith(t, a, "ada@example.com")
		bob, _ := userWith(t, a, "bob@example.com")
		carol, _ := userWith(t, a, "carol@example.com")
		dave, daveH := userWith(t, a, "dave@example.com")
		if res := apptest.DoBody(t, a, "POST", api.AdminV1UserPath(ada.ID)+"/ban", admin, `{"action":"ban","reason":"spam","duration":"1d"}`); res.Code != 200 {
			t.Fatalf("v1 ban: %d %s", res.Code, res.Body)
		}
		if res := apptest.DoBody(t, a, "POST", api.AdminUserBanPath(bob.ID), admin, `{"reason":"abuse"}`); res.Code != 200 {
			t.Fatalf("ban: %d %s", res.Code, res.Body)
		}
		var posts []int64
		for _, title := range []string{"one", "two", "three", "four"} {
			err := a.Store.Change(context.Background(), func(ctx context.Context) error {
				p, err := a.Store.Posts.CreateUserPost(ctx, models.PostInput{AuthorID: carol.ID, Title: title, Content: "text", Published: true})
				posts = append(posts, p.ID)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		if res := apptest.DoBody(t, a, "POST", api.AdminV1ModeratePath(posts[0]), admin, `{"action":"hide","reason":"Spam"}`); res.Code != 200 {
			t.Fatalf("moderate: %d %s", res.Code, res.Body)
		}
		bulk := `{"postIds":["` + itoa(posts[1]) + `","` + itoa(posts[2]) + `"],"action":"flag"}`
		if res := apptest.DoBody(t, a, "POST", api.PathAdminV1BulkModerate, admin, bulk); res.Code != 200 {
			t.Fatalf("bulk moderate: %d %s", res.Code, res.Body)
		}
		if res := report(t, a, daveH, itoa(posts[3]), "rude"); res.Code != 201 && res.Code != 200 {
			t.Fatalf("report: %d %s", res.Code, res.Body)
		}
		bc := sendBroadcast(t, a, admin, `{"title":"Hello","message":"Hi all","targets":["admins"]}`)

		ds := waitDeliveries(t, a, admin, w.ID, func(ds []v1Delivery) bool { return len(ds) == 7 && settled(ds) })
		byType := map[string][]message{}
		for _, r := range recv.Received() {
			if r.Path != "/hooks" {
				continue // the broadcast-only endpoint's
			}
			checkSignature(t, w.Secret, r)
			m := decodeMessage(t, r)
			byType[m.Type] = append(byType[m.Type], m)
		}
		for typ, n := range map[string]int{"user.banned": 2, "post.moderated": 3, "report.created": 1, "broadcast.sent": 1} {
			if len(byType[typ]) != n {
				t.Errorf("%s: %d messages, want %d (%v)", typ, len(byType[typ]), n, ds)
			}
		}
		want := []struct {
			typ  string
			data map[string]any
		}{
			{"user.banned", map[string]any{"userId": itoa(ada.ID), "reason": "spam", "bannedBy": itoa(root.ID)}},
			{"user.banned", map[string]any{"userId": itoa(bob.ID), "reason": "abuse", "expiresAt": nil}},
			{"post.moderated", map[string]any{"postId": itoa(posts[0]), "action": "hide", "fromStatus": "published",
				"toStatus": "hidden", "moderatorId": itoa(root.ID), "authorId": itoa(carol.ID), "reason": "Spam"}},
			{"post.moderated", map[string]any{"postId": itoa(posts[1]), "action": "flag", "toStatus": "flagged"}},
			{"post.moderated", map[string]any{"postId": itoa(posts[2]), "action": "flag", "toStatus": "flagged"}},
			{"report.created", map[string]any{"postId": itoa(posts[3]), "reporterId": itoa(dave.ID), "reason": "rude"}},
			{"broadcast.sent", map[string]any{"broadcastId": bc.ID, "title": "Hello", "recipients": float64(bc.Recipients)}},
		}
		for _, w := range want {
			if !hasMessage(byType[w.typ], w.data) {
				t.Errorf("no %s message with %v in %+v", w.typ, w.data, byType[w.typ])
			}
		}
		// The broadcast-only endpoint's message is a job of its own, which
		// may still be under way.
		if ds := waitDeliveries(t, a, admin, other.ID, settled); len(ds) != 1 || ds[0].Event != "broadcast.sent" || ds[0].Status != "delivered" {
			t.Errorf("a broadcast-only webhook got %v", ds)
		}
		if got := recv.Received(); !slices.ContainsFunc(got, func(r apptest.Received) bool { return r.Path == "/other" }) {
			t.Errorf("the broadcast-only endpoint got nothing")
		}
		if ds := deliveries(t, a, admin, paused.ID); len(ds) != 0 {
			t.Errorf("a paused webhook got %v", ds)
		}
	})
}

// hasMessage reports whether one of ms holds every field of data.
func hasMessage(ms []message, data map[string]any) bool {
	return slices.ContainsFunc(ms, func(m message) bool {
		for k, v := range data {
			if got, ok := m.Data[k]; !ok || got != v {
				return false
			}
		}
		return true
	})
}

// TestWebhookEventsRollBack: an action whose change fails queues no
// message, and no job: the actions queue their messages in their own
// transaction (the outbox).
func TestWebhookEventsRollBack(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a := apptest.New(t, db) // no job queue working: only what is queued counts
		admin, root := a.Admin(t)
		registerWebhook(t, a, admin, "https://hooks.invalid/plaza", webhook.Events...)
		ada := a.User(t, "ada@example.com")
		carol := a.User(t, "carol@example.com")
		ctx := context.Background()
		var post int64
		if err := a.Store.Change(ctx, func(ctx context.Context) error {
			p, err := a.Store.Posts.CreateUserPost(ctx, models.PostInput{AuthorID: carol.ID, Title: "t", Content: "c", Published: true})
			post = p.ID
			return err
		}); err != nil {
			t.Fatal(err)
		}
		acts := actions.New(a.Store, policy.Policy{Now: time.Now}, []byte("secret"), nil)
		who := &access.Principal{UserID: root.ID, Via: access.ViaOperator, Roles: []string{access.RoleSuperAdmin},
			Permissions: access.RolePermissions([]string{access.RoleSuperAdmin})}
		boom := errors.New("boom")
		changes := map[string]func(ctx context.Context) error{
			"user.banned": func(ctx context.Context) error {
				_, err := acts.Ban(ctx, who, actions.BanInput{UserID: ada.ID, Reason: "spam"})
				return err
			},
			"post.moderated": func(ctx context.Context) error {
				_, err := acts.ModeratePost(ctx, who, post, actions.Moderation{Action: "hide"})
				return err
			},
			"report.created": func(ctx context.Context) error {
				_, err := acts.FileReport(ctx, post, ada.ID, "rude", "")
				return err
			},
			"broadcast.sent": func(ctx context.Context) error {
				_, err := acts.SendBroadcast(ctx, who, actions.BroadcastInput{Title: "T", Message: "M", Targets: []string{"all"}})
				return err
			},
		}
		for event, change := range changes {
			err := a.Store.Change(ctx, func(ctx context.Context) error {
				if err := change(ctx); err != nil {
					return err
				}
				if n := countDeliveries(t, ctx, a, event); n != 1 {
					t.Errorf("%s: %d deliveries inside the change, want 1", event, n)
				}
				return boom
			})
			if !errors.Is(err, boom) {
				t.Fatalf("%s: %v", event, err)
			}
			if n := countDeliveries(t, ctx, a, event); n != 0 {
				t.Errorf("%s: %d deliveries after the rollback", event, n)
			}
		}
		var jobs int
		if err := a.Store.DB.NewSelect().Table("river_job").ColumnExpr("count(*)").Where("kind = ?", "webhook").Scan(ctx, &jobs); err != nil || jobs != 0 {
			t.Errorf("%d webhook jobs after rollbacks (%v)", jobs, err)
		}
		if err := a.Store.Change(ctx, changes["user.banned"]); err != nil {
			t.Fatal(err)
		}
		if err := a.Store.DB.NewSelect().Table("river_job").ColumnExpr("count(*)").Where("kind = ?", "webhook").Scan(ctx, &jobs); err != nil || jobs != 1 {
			t.Errorf("%d webhook jobs after a committed ban (%v)", jobs, err)
		}
	})
}

// countDeliveries counts event's deliveries as the change under way in
// ctx sees them.
func countDeliveries(t *testing.T, ctx context.Context, a *apptest.App, event string) int {
	t.Helper()
	ds, _, err := a.Store.Hooks.WebhookDeliveries(ctx, 1, 100, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range ds {
		if d.Event == event {
			n++
		}
	}
	return n
}

// TestWebhookSecretSealed: a webhook's signing secret is stored sealed
// under a key derived from JWT_SECRET, as two-factor secrets are: the row
// holds neither the secret nor its bytes, so a copy of the database (a
// backup) cannot sign messages. Rotation seals the new one too. Both
// databases.
func TestWebhookSecretSealed(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a := apptest.New(t, db)
		admin, _ := a.Admin(t)
		stored := func(id string) []byte {
			var secret []byte
			if err := db.NewSelect().Model((*models.Webhook)(nil)).Column("secret").Where("id = ?", id).Scan(context.Background(), &secret); err != nil {
				t.Fatal(err)
			}
			return secret
		}
		w := registerWebhook(t, a, admin, "https://hooks.example.com/plaza", "user.banned")
		check := func(secret string) {
			t.Helper()
			key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
			if err != nil {
				t.Fatal(err)
			}
			row := stored(w.ID)
			if bytes.Contains(row, key) || strings.Contains(string(row), secret) || len(row) <= len(key) {
				t.Errorf("the stored secret (%d bytes) holds the secret itself", len(row))
			}
		}
		check(w.Secret)
		res := apptest.Do(t, a, "POST", api.PathAdminWebhooks+"/"+w.ID+"/rotate-secret", admin)
		var rotated struct{ Data struct{ Secret string } }
		if json.Unmarshal(res.Body.Bytes(), &rotated); res.Code != 200 {
			t.Fatalf("rotate: %d %s", res.Code, res.Body)
		}
		check(rotated.Data.Secret)
	})
}

// TestWebhookRotateAsksFirst: the console's "Rotate secret" opens a
// dialog that says what rotating does; only the dialog's button posts.
func TestWebhookRotateAsksFirst(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a := apptest.New(t, db)
		admin, _ := a.Admin(t)
		w := registerWebhook(t, a, admin, "https://hooks.example.com/plaza", "user.banned")
		page := apptest.Do(t, a, "GET", api.PathConsoleWebhooks, withHeader(admin, "Accept", "text/html")).Body.String()
		dialog := strings.Index(page, `<dialog id="rotate-webhook-`+w.ID+`"`)
		post := strings.Index(page, `hx-post="`+api.PathAdminWebhooks+"/"+w.ID+`/rotate-secret"`)
		if dialog < 0 || post < dialog || !strings.Contains(page, `data-dialog-open="rotate-webhook-`+w.ID+`" data-testid="webhook-rotate"`) {
			t.Errorf("Rotate secret posts without asking (dialog at %d, post at %d)", dialog, post)
		}
	})
}

// TestWebhookPauseHoldsDeliveries: pausing an endpoint pauses its
// retries: a delivery that failed once is not attempted again while the
// endpoint is paused (it stays pending, marked held) and is sent once it
// is resumed; a test message still goes to a paused endpoint, as the
// admin asked for it.
func TestWebhookPauseHoldsDeliveries(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		recv := apptest.NewReceiver(t)
		// Two seconds between attempts leave time to pause after the first.
		a := apptest.NewWith(t, db, app.Options{WebhookNet: recv.Net, WebhookBackoff: func(int) time.Duration { return 2 * time.Second }})
		if err := a.Runtime.StartJobs(context.Background()); err != nil {
			t.Fatal(err)
		}
		admin, _ := a.Admin(t)
		w := registerWebhook(t, a, admin, recv.URL, "user.banned")
		recv.Answer(http.StatusInternalServerError)
		member := a.User(t, "member@example.com")
		if res := apptest.DoBody(t, a, "POST", api.AdminV1UserPath(member.ID)+"/ban", admin, `{"action":"ban","reason":"spam","duration":"1d"}`); res.Code != 200 {
			t.Fatalf("ban: %d %s", res.Code, res.Body)
		}
		waitDeliveries(t, a, admin, w.ID, func(ds []v1Delivery) bool { return len(ds) == 1 && ds[0].Attempts == 1 })
		if res := apptest.DoBody(t, a, "PATCH", api.PathAdminWebhooks+"/"+w.ID, admin, `{"active":false}`); res.Code != 200 {
			t.Fatalf("pause: %d %s", res.Code, res.Body)
		}
		ds := waitDeliveries(t, a, admin, w.ID, func(ds []v1Delivery) bool { return ds[0].LastError == models.DeliveryHeld })
		if d := ds[0]; d.Status != "pending" || d.Attempts != 1 || len(recv.Received()) != 1 {
			t.Fatalf("a paused endpoint's retry: %+v, %d received", d, len(recv.Received()))
		}
		apptest.Do(t, a, "POST", api.PathAdminWebhooks+"/"+w.ID+"/test", admin)
		waitDeliveries(t, a, admin, w.ID, func(ds []v1Delivery) bool { return len(ds) == 2 && ds[0].Status == "delivered" })
		if got := recv.Received(); len(got) != 2 || decodeMessage(t, got[1]).Type != "ping" {
			t.Fatalf("while paused the receiver got %d messages", len(got))
		}
		if res := apptest.DoBody(t, a, "PATCH", api.PathAdminWebhooks+"/"+w.ID, admin, `{"active":true}`); res.Code != 200 {
			t.Fatalf("resume: %d %s", res.Code, res.Body)
		}
		ds = waitDeliveries(t, a, admin, w.ID, settled)
		if d := ds[1]; d.Status != "delivered" || d.Attempts != 2 || d.LastError != "" || len(recv.Received()) != 3 {
			t.Errorf("after the resume: %+v, %d received", d, len(recv.Received()))
		}
	})
}

// TestWebhookCancelDelivery: a failing delivery's log row shows its next
// attempt (in the JSON, and in the console as "in 4 minutes" with the
// exact time on hover); cancelling it makes it cancelled, audited, and
// its queued retry, run at once, sends nothing; a settled delivery cannot
// be cancelled.
func TestWebhookCancelDelivery(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		recv := apptest.NewReceiver(t)
		a := apptest.NewWith(t, db, app.Options{WebhookNet: recv.Net, WebhookBackoff: func(int) time.Duration { return 4 * time.Minute }})
		ctx := context.Background()
		if err := a.Runtime.StartJobs(ctx); err != nil {
			t.Fatal(err)
		}
		admin, _ := a.Admin(t)
		w := registerWebhook(t, a, admin, recv.URL, "user.banned")
		recv.Answer(http.StatusInternalServerError)
		member := a.User(t, "member@example.com")
		if res := apptest.DoBody(t, a, "POST", api.AdminV1UserPath(member.ID)+"/ban", admin, `{"action":"ban","reason":"spam","duration":"1d"}`); res.Code != 200 {
			t.Fatalf("ban: %d %s", res.Code, res.Body)
		}
		ds := waitDeliveries(t, a, admin, w.ID, func(ds []v1Delivery) bool { return len(ds) == 1 && ds[0].Attempts == 1 })
		d := ds[0]
		last, next := parseStamp(t, d.LastAttemptAt), parseStamp(t, d.NextAttemptAt)
		if d.Status != "pending" || next.Sub(last) != 4*time.Minute {
			t.Fatalf("a failed first attempt: %+v", d)
		}
		log := apptest.Do(t, a, "GET", api.PathAdminWebhooks+"/"+w.ID+"/deliveries", withHeader(admin, "HX-Request", "true")).Body.String()
		hover := next.UTC().Format("2 Jan 2006 15:04:05 UTC")
		if !strings.Contains(log, ">in 4 minutes</time>") || !strings.Contains(log, `title="`+hover+`"`) || !strings.Contains(log, `data-testid="delivery-cancel"`) {
			t.Fatalf("the log does not show the next attempt (in 4 minutes, %s) or a cancel button:\n%s", hover, log)
		}

		cancel := api.PathAdminWebhooks + "/" + w.ID + "/deliveries/" + d.ID + "/cancel"
		res := apptest.Do(t, a, "POST", cancel, admin)
		var out struct{ Data v1Delivery }
		if err := json.Unmarshal(res.Body.Bytes(), &out); err != nil || res.Code != 200 || out.Data.Status != "cancelled" || out.Data.NextAttemptAt != nil {
			t.Fatalf("cancel: %d %s", res.Code, res.Body)
		}
		if !audited(t, a, "webhook.cancel_delivery", w.ID, 200) {
			t.Error("the cancel is not audited")
		}
		// The retry River holds for it, run now, finds it cancelled.
		var jobID int64
		if err := a.Store.DB.NewSelect().Table("river_job").Column("id").Where("kind = ?", "webhook").Scan(ctx, &jobID); err != nil {
			t.Fatal(err)
		}
		river := a.Runtime.Jobs.Client()
		waitJob(t, river, jobID, func(j *rivertype.JobRow) bool { return j.State == rivertype.JobStateRetryable })
		if _, err := river.JobRetry(ctx, jobID); err != nil {
			t.Fatal(err)
		}
		waitJob(t, river, jobID, func(j *rivertype.JobRow) bool { return j.FinalizedAt != nil })
		ds = deliveries(t, a, admin, w.ID)
		if got := len(recv.Received()); got != 1 || ds[0].Status != "cancelled" || ds[0].Attempts != 1 {
			t.Errorf("after the cancel the receiver got %d messages; delivery %+v", got, ds[0])
		}
		if res := apptest.Do(t, a, "POST", cancel, admin); res.Code != http.StatusConflict || !strings.Contains(res.Body.String(), `"CONFLICT"`) {
			t.Errorf("cancelling a cancelled delivery: %d %s", res.Code, res.Body)
		}
		if res := apptest.Do(t, a, "POST", api.PathAdminWebhooks+"/"+w.ID+"/deliveries/999999/cancel", admin); res.Code != http.StatusNotFound {
			t.Errorf("cancelling no delivery: %d %s", res.Code, res.Body)
		}
	})
}

func parseStamp(t *testing.T, s *string) time.Time {
	t.Helper()
	if s == nil {
		t.Fatal("no timestamp")
	}
	at, err := time.Parse(time.RFC3339Nano, *s)
	if err != nil {
		t.Fatal(err)
	}
	return at
}

// waitJob waits until River's job id satisfies done.
func waitJob(t *testing.T, c *river.Client[*sql.Tx], id int64, done func(*rivertype.JobRow) bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		j, err := c.JobGet(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if done(j) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %d: %s, attempt %d, %+v", id, j.State, j.Attempt, j.Errors)
		}
	}
}
