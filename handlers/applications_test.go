package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/internal/mail"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// applicationsApp is an app on a clock the test moves, under approval
// mode with a question, with a super admin's token and a moderator's
// session.
func applicationsApp(t *testing.T, db *bun.DB) (app *apptest.App, clock *twoFactorClock, super, mod http.Header) {
	t.Helper()
	clock = newClock()
	app = apptest.New(t, db, func(d *web.Deps) {
		d.Now, d.Store.Now = clock.Now, clock.Now
		d.Config.RateLimit.Register = 1000
	})
	super, _ = app.Admin(t)
	setRules(t, app, super, `{"mode":"approval","question":"What brings you here?"}`)
	m, _ := userWith(t, app, "mod@example.com", access.RoleModerator)
	return app, clock, super, app.SessionFor(t, m.ID)
}

// apply signs name up from ip under approval and returns the applicant's
// id; their password is "long enough secret".
func apply(t *testing.T, app *apptest.App, ip, name string) int64 {
	t.Helper()
	code, body := signUpFrom(t, app, ip, name, `,"answer":"I grow tomatoes"`)
	if code != http.StatusCreated || !strings.Contains(body, `"application":"pending"`) {
		t.Fatalf("apply %s: %d %s", name, code, body)
	}
	u, err := app.Store.Users.UserByEmail(context.Background(), name+"@example.org")
	if err != nil {
		t.Fatal(err)
	}
	return u.ID
}

// applicantSignIn signs email in with the applicants' password.
func applicantSignIn(t *testing.T, app *apptest.App, email string) (int, string) {
	t.Helper()
	res := apptest.DoBody(t, app, "POST", api.PathSignIn, nil, `{"email":"`+email+`","password":"long enough secret"}`)
	return res.Code, res.Body.String()
}

func idPath(path string, id int64) string { return strings.Replace(path, ":id", fmt.Sprint(id), 1) }

// TestApplicationApproved: a pending applicant is told at sign-in that
// the staff have yet to decide; a moderator approves at the desk's door
// with a note; the account opens and signs in, the applicant is mailed
// where to sign in, the decision is audited, and a second decision is 409.
func TestApplicationApproved(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app, _, _, mod := applicationsApp(t, db)
		id := apply(t, app, "203.0.113.10", "ada")
		if code, body := applicantSignIn(t, app, "ada@example.org"); code != http.StatusUnauthorized || !strings.Contains(body, "Your application is waiting for the staff's decision") {
			t.Fatalf("a pending applicant's sign-in: %d %s", code, body)
		}
		res := apptest.DoBody(t, app, "POST", idPath(api.PathConsoleApproveApplication, id), mod, `{"reason":"Welcome, Ada"}`)
		if res.Code != http.StatusOK {
			t.Fatalf("approve: %d %s", res.Code, res.Body)
		}
		got := decodeAs[api.V1Of[api.V1Application]](t, res).Data
		if got.Status != "approved" || got.Reason != "Welcome, Ada" || got.DecidedBy == nil || got.DecidedBy.Username == "" || got.DecidedAt == nil {
			t.Errorf("the approved application: %+v", got)
		}
		u, err := app.Store.Users.UserByID(context.Background(), id)
		if err != nil || u.Status != models.UserActive || !u.IsActive {
			t.Fatalf("the approved account: %+v %v", u, err)
		}
		if code, body := applicantSignIn(t, app, "ada@example.org"); code != http.StatusOK {
			t.Fatalf("the approved applicant's sign-in: %d %s", code, body)
		}
		mails := mailsTo(t, app, "ada@example.org", mail.KindApplicationApproved)
		if len(mails) != 1 || !strings.Contains(mails[0].TextBody, "Welcome, Ada") || !strings.Contains(mails[0].TextBody, mail.SignInPath) {
			t.Fatalf("approval mails %+v", mails)
		}
		if mail.SignInPath != api.PathSignIn {
			t.Errorf("the mail's sign-in link %s is not the sign-in page %s", mail.SignInPath, api.PathSignIn)
		}
		entry := lastEntry(t, app, "application.approve")
		if entry.TargetID != fmt.Sprint(id) || entry.Details["reason"] != "Welcome, Ada" || entry.Details["decision"] != "approve" {
			t.Errorf("audit entry %+v", entry)
		}
		res = apptest.DoBody(t, app, "POST", idPath(api.PathConsoleRejectApplication, id), mod, `{"reason":"Changed my mind"}`)
		if res.Code != http.StatusConflict || !strings.Contains(res.Body.String(), "approved already") {
			t.Fatalf("deciding again: %d %s, want 409", res.Code, res.Body)
		}
	})
}

// TestApplicationRejected: a rejection needs a reason; it keeps the
// account closed, mails the reason, and signing in tells it.
func TestApplicationRejected(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app, _, super, _ := applicationsApp(t, db)
		id := apply(t, app, "203.0.113.11", "bob")
		res := apptest.DoBody(t, app, "POST", api.AdminV1ApplicationPath(id, "reject"), super, `{"reason":"   "}`)
		if res.Code != http.StatusUnprocessableEntity || !strings.Contains(res.Body.String(), `"reason"`) {
			t.Fatalf("a rejection without a reason: %d %s, want 422 on reason", res.Code, res.Body)
		}
		res = apptest.DoBody(t, app, "POST", api.AdminV1ApplicationPath(id, "reject"), super, `{"reason":"We only take locals"}`)
		if res.Code != http.StatusOK {
			t.Fatalf("reject: %d %s", res.Code, res.Body)
		}
		u, err := app.Store.Users.UserByID(context.Background(), id)
		if err != nil || u.Status != models.UserInactive || u.IsActive {
			t.Fatalf("the rejected account: %+v %v", u, err)
		}
		if code, body := applicantSignIn(t, app, "bob@example.org"); code != http.StatusUnauthorized || !strings.Contains(body, "Your application was not accepted: We only take locals") {
			t.Fatalf("a rejected applicant's sign-in: %d %s", code, body)
		}
		mails := mailsTo(t, app, "bob@example.org", mail.KindApplicationRejected)
		if len(mails) != 1 || !strings.Contains(mails[0].TextBody, "We only take locals") {
			t.Fatalf("rejection mails %+v", mails)
		}
		if res := apptest.DoBody(t, app, "POST", api.AdminV1ApplicationPath(id, "approve"), super, ``); res.Code != http.StatusConflict {
			t.Fatalf("approving a rejected application: %d %s, want 409", res.Code, res.Body)
		}
		if res := apptest.DoBody(t, app, "POST", api.AdminV1ApplicationPath(id+1000, "approve"), super, ``); res.Code != http.StatusNotFound {
			t.Fatalf("approving no application: %d %s, want 404", res.Code, res.Body)
		}
	})
}

// TestApplicationsBulk: a bulk decision is all or nothing: one decided
// application among them refuses all (409) and changes none; then a bulk
// rejection decides every one with one audit entry and a mail each.
func TestApplicationsBulk(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app, _, super, mod := applicationsApp(t, db)
		ids := []int64{apply(t, app, "203.0.113.20", "c1"), apply(t, app, "203.0.113.21", "c2"), apply(t, app, "203.0.113.22", "c3")}
		if res := apptest.DoBody(t, app, "POST", api.AdminV1ApplicationPath(ids[2], "approve"), super, ``); res.Code != http.StatusOK {
			t.Fatalf("approve c3: %d %s", res.Code, res.Body)
		}
		body := fmt.Sprintf(`{"ids":["%d","%d","%d"],"decision":"reject","reason":"Spam wave"}`, ids[0], ids[1], ids[2])
		if res := apptest.DoBody(t, app, "POST", api.PathConsoleBulkApplications, mod, body); res.Code != http.StatusConflict {
			t.Fatalf("a bulk decision naming a decided application: %d %s, want 409", res.Code, res.Body)
		}
		for _, id := range ids[:2] {
			if ap, err := app.Store.Users.ApplicationOf(context.Background(), id); err != nil || ap.Status != models.ApplicationPending {
				t.Fatalf("after a refused bulk decision, %d is %+v %v", id, ap, err)
			}
		}
		if len(mailsTo(t, app, "c1@example.org", mail.KindApplicationRejected)) != 0 {
			t.Fatal("a refused bulk decision mailed c1")
		}
		if res := apptest.DoBody(t, app, "POST", api.PathConsoleBulkApplications, mod, fmt.Sprintf(`{"ids":["%d","%d"],"decision":"reject"}`, ids[0], ids[1])); res.Code != http.StatusUnprocessableEntity {
			t.Fatalf("a bulk rejection without a reason: %d %s, want 422", res.Code, res.Body)
		}
		res := apptest.DoBody(t, app, "POST", api.PathConsoleBulkApplications, mod, fmt.Sprintf(`{"ids":["%d","%d","%d"],"decision":"reject","reason":"Spam wave"}`, ids[0], ids[1], ids[0]))
		if res.Code != http.StatusOK {
			t.Fatalf("bulk reject: %d %s", res.Code, res.Body)
		}
		if got := decodeAs[api.V1Of[api.V1BulkApplicationsResult]](t, res).Data; got.Decided != 2 {
			t.Errorf("bulk result %+v, want 2 decided", got)
		}
		for i, id := range ids[:2] {
			ap, err := app.Store.Users.ApplicationOf(context.Background(), id)
			if err != nil || ap.Status != models.ApplicationRejected || ap.Reason != "Spam wave" {
				t.Errorf("%d after the bulk rejection: %+v %v", id, ap, err)
			}
			if n := len(mailsTo(t, app, fmt.Sprintf("c%d@example.org", i+1), mail.KindApplicationRejected)); n != 1 {
				t.Errorf("c%d got %d rejection mails", i+1, n)
			}
		}
		var done []models.AuditEntry
		for _, e := range app.AuditEntries(t) {
			if e.Action == "applications.bulk_decide" && e.Status == http.StatusOK {
				done = append(done, e)
			}
		}
		if len(done) != 1 || fmt.Sprint(done[0].Details["count"]) != "2" || done[0].Details["reason"] != "Spam wave" {
			t.Errorf("bulk audit entries of success %+v, want one of 2 applications", done)
		}
	})
}

// TestApplicationSignals: for a small wave, each application carries the
// accounts related to its applicant (its range's sign-ups and sign-ins,
// its mailbox: as many as RelatedAccounts finds), its email's domain and
// the sign-ups from its range in the hour before it; an application from
// elsewhere carries none, though both are read in one query.
func TestApplicationSignals(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app, clock, super, _ := applicationsApp(t, db)
		setRules(t, app, super, `{"mode":"open"}`)
		ctx := context.Background()
		signUpAt := func(ip, name string) {
			if code, body := signUpFrom(t, app, ip, name, ""); code != http.StatusCreated {
				t.Fatalf("sign up %s: %d %s", name, code, body)
			}
		}
		signUpAt("198.51.100.5", "old") // two hours before: related, not in the hour
		clock.Add(90 * time.Minute)
		signUpAt("198.51.100.6", "friend1") // 30 minutes before
		signUpAt("203.0.113.50", "roamer")  // elsewhere, but signs in from the range
		roamer, err := app.Store.Users.UserByEmail(ctx, "roamer@example.org")
		if err != nil {
			t.Fatal(err)
		}
		if err := app.Store.Users.RecordLogin(ctx, roamer.ID, "credentials", "198.51.100.200", "test"); err != nil {
			t.Fatal(err)
		}
		// The applicant's mailbox: example.org keeps dots, but a +tag
		// reaches the same mailbox.
		signUpAt("192.0.2.77", "wave+twin")
		clock.Add(20 * time.Minute)
		signUpAt("198.51.100.7", "friend2") // 10 minutes before
		clock.Add(10 * time.Minute)
		root, err := app.Store.Users.UserByEmail(ctx, "root@example.com")
		if err != nil {
			t.Fatal(err)
		}
		super = app.SessionFor(t, root.ID) // the first session has idled out on the moved clock
		setRules(t, app, super, `{"mode":"approval"}`)
		id := apply(t, app, "198.51.100.9", "wave")
		loner := apply(t, app, "198.18.0.9", "loner")

		res := apptest.Do(t, app, "GET", api.PathAdminV1Applications, super)
		if res.Code != http.StatusOK {
			t.Fatalf("list: %d %s", res.Code, res.Body)
		}
		page := decodeAs[api.V1PageOf[api.V1Application]](t, res)
		if len(page.Data) != 2 || page.Data[0].ID != fmt.Sprint(id) || page.Data[1].ID != fmt.Sprint(loner) {
			t.Fatalf("pending applications %+v, want wave then loner (oldest first)", page.Data)
		}
		wave := page.Data[0].Signals
		if wave.RelatedAccounts != 5 || wave.EmailDomain != "example.org" || wave.RangeSignUps != 2 {
			t.Errorf("wave's signals %+v, want 5 related (old, friend1, friend2, roamer, wave+twin), example.org, 2 in the hour", wave)
		}
		related, err := app.Store.Users.RelatedAccounts(ctx, id, 0)
		if err != nil || len(related.Accounts) != wave.RelatedAccounts {
			t.Errorf("RelatedAccounts finds %d (%v), the signal says %d", len(related.Accounts), err, wave.RelatedAccounts)
		}
		if got := page.Data[1].Signals; got.RelatedAccounts != 0 || got.RangeSignUps != 0 || got.EmailDomain != "example.org" {
			t.Errorf("loner's signals %+v, want none", got)
		}
		if page.Data[0].Answer != "I grow tomatoes" || page.Data[0].Why != "mode" || page.Data[0].Status != "pending" {
			t.Errorf("wave's application %+v", page.Data[0])
		}
		res = apptest.Do(t, app, "GET", api.PathAdminV1Applications+"?status=approved", super)
		if res.Code != http.StatusOK || len(decodeAs[api.V1PageOf[api.V1Application]](t, res).Data) != 0 {
			t.Errorf("approved applications: %d %s, want none", res.Code, res.Body)
		}
		if res := apptest.Do(t, app, "GET", api.PathAdminV1Applications+"?status=maybe", super); res.Code != http.StatusUnprocessableEntity {
			t.Errorf("status=maybe: %d, want 422", res.Code)
		}
	})
}

// TestApplicationDoors: members are refused every door; moderators
// decide and read at the desk's console routes but not the versioned
// family, which admits admins; the desk's page shows the applications
// with their signals and a claim holds against another moderator.
func TestApplicationDoors(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app, _, _, mod := applicationsApp(t, db)
		id := apply(t, app, "203.0.113.30", "dee")
		_, member := userWith(t, app, "member@example.com")
		for _, door := range []struct{ method, path, body string }{
			{"GET", api.PathAdminV1Applications, ""},
			{"GET", api.PathConsoleApplications, ""},
			{"POST", api.AdminV1ApplicationPath(id, "approve"), ""},
			{"POST", idPath(api.PathConsoleApproveApplication, id), ""},
			{"POST", idPath(api.PathConsoleRejectApplication, id), `{"reason":"no"}`},
			{"POST", api.PathConsoleBulkApplications, fmt.Sprintf(`{"ids":["%d"],"decision":"approve"}`, id)},
			{"POST", idPath(api.PathConsoleClaimApplication, id), ""},
		} {
			res := apptest.DoBody(t, app, door.method, door.path, member, door.body)
			if res.Code != http.StatusForbidden {
				t.Errorf("a member at %s %s: %d, want 403", door.method, door.path, res.Code)
			}
		}
		if res := apptest.Do(t, app, "GET", api.PathAdminV1Applications, mod); res.Code != http.StatusForbidden {
			t.Errorf("a moderator at the versioned list: %d, want 403", res.Code)
		}
		if res := apptest.DoBody(t, app, "POST", api.AdminV1ApplicationPath(id, "approve"), mod, ""); res.Code != http.StatusForbidden {
			t.Errorf("a moderator at the versioned approval: %d, want 403", res.Code)
		}
		page := apptest.Do(t, app, "GET", api.PathConsoleApplications, withHeader(mod, "Accept", "text/html"))
		html := page.Body.String()
		if page.Code != http.StatusOK || !strings.Contains(html, "application-row-"+fmt.Sprint(id)) || !strings.Contains(html, "I grow tomatoes") ||
			!strings.Contains(html, "@example.org") || !strings.Contains(html, `data-key="r"`) {
			t.Fatalf("the desk's applications for a moderator: %d %.2000s", page.Code, html)
		}
		if res := apptest.DoBody(t, app, "POST", idPath(api.PathConsoleClaimApplication, id), mod, ""); res.Code != http.StatusOK {
			t.Fatalf("claim: %d %s", res.Code, res.Body)
		}
		other, _ := userWith(t, app, "mod2@example.com", access.RoleModerator)
		res := apptest.DoBody(t, app, "POST", idPath(api.PathConsoleClaimApplication, id), app.SessionFor(t, other.ID), "")
		if res.Code != http.StatusLocked || !strings.Contains(res.Body.String(), "mod is reviewing this application") {
			t.Fatalf("another moderator's claim: %d %s, want 423", res.Code, res.Body)
		}
		list := decodeAs[api.V1PageOf[api.V1Application]](t, apptest.Do(t, app, "GET", api.PathConsoleApplications, mod))
		if len(list.Data) != 1 || list.Data[0].Claim == nil || list.Data[0].Claim.By.Username != "mod" {
			t.Fatalf("the desk's list shows the claim: %+v", list.Data)
		}
		if res := apptest.DoBody(t, app, "POST", idPath(api.PathConsoleApproveApplication, id), mod, ""); res.Code != http.StatusOK {
			t.Fatalf("the moderator approves: %d %s", res.Code, res.Body)
		}
		claims, err := app.Store.Desk.ApplicationClaims(context.Background(), []int64{id})
		if err != nil || len(claims) != 0 {
			t.Errorf("the decision left the claim %+v %v", claims, err)
		}
	})
}

// TestApplicationEvents: the desk's stream tells a moderator of a new
// application, and of another moderator's claim and decision on one, by
// its applicationId (the decision with the applicant's name as its
// title), and recounts no posts for them. On PostgreSQL a second instance
// serves the stream.
func TestApplicationEvents(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app, clock, _, mod := applicationsApp(t, db)
		watcher := app
		if app.Store.Dialect() == config.DialectPostgres {
			watcher = apptest.New(t, db, func(d *web.Deps) { d.Now, d.Store.Now = clock.Now, clock.Now })
		}
		srv := httptest.NewServer(watcher)
		t.Cleanup(srv.Close)
		ana, _ := userWith(t, app, "ana@example.com", access.RoleModerator)
		s := openStream(t, srv, app.SessionFor(t, ana.ID))
		s.expectQueue(t, 0)

		id := apply(t, app, "203.0.113.40", "eve")
		if d := s.expect(t, "application"); d.ApplicationID != fmt.Sprint(id) || d.PostID != "" {
			t.Fatalf("application event %+v", d)
		}
		if res := apptest.DoBody(t, app, "POST", idPath(api.PathConsoleClaimApplication, id), mod, ""); res.Code != http.StatusOK {
			t.Fatalf("claim: %d %s", res.Code, res.Body)
		}
		if d := s.expect(t, "claim"); d.ApplicationID != fmt.Sprint(id) || d.By != "mod" || d.Until == "" {
			t.Fatalf("claim event %+v", d)
		}
		if res := apptest.DoBody(t, app, "POST", idPath(api.PathConsoleRejectApplication, id), mod, `{"reason":"Spam"}`); res.Code != http.StatusOK {
			t.Fatalf("reject: %d %s", res.Code, res.Body)
		}
		if d := s.expect(t, "decision"); d.ApplicationID != fmt.Sprint(id) || d.Action != "reject" || d.By != "mod" || d.Title != "eve" {
			t.Fatalf("decision event %+v", d)
		}
		// No queue count followed: the next event is a post's report.
		cy, _ := userWith(t, app, "cy@example.com")
		newPostAs(t, app, cy.ID, "Cheap pills")
		pills := postByTitle(t, db, "Cheap pills")
		if res := apptest.DoBody(t, app, "POST", api.PostReportPath(itoa(pills)), mod, `{"reason":"spam"}`); res.Code != http.StatusCreated {
			t.Fatalf("report: %d %s", res.Code, res.Body)
		}
		if ev := s.next(t); ev.name != "report" {
			t.Fatalf("after the application's news came %q %+v, want the report", ev.name, ev.data)
		}
	})
}
