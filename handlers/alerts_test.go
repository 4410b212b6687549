package handlers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/jobs"
	"github.com/plazahq/plaza/internal/mail"
	"github.com/plazahq/plaza/internal/mail/mailtest"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// alertsOf reads the alerts a request answered, in the v1 envelope.
func alertsOf(t *testing.T, body []byte) api.AlertPreferences {
	t.Helper()
	var got struct{ Data api.AlertPreferences }
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	return got.Data
}

// TestAlertPreferences: staff read and choose their alerts; a value that
// is none of the four is 422 in the admin API's format; only admins turn
// operations alerts on; moderators, whom the versioned family's gate
// refuses, use the console's routes; tokens read with account:read and
// never write; every change is audited.
func TestAlertPreferences(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a := apptest.New(t, db)
		admin := a.User(t, "admin@example.com", access.RoleAdmin)
		mod := a.User(t, "mod@example.com", access.RoleModerator)
		adminS, modS := a.SessionFor(t, admin.ID), a.SessionFor(t, mod.ID)
		member := a.SessionFor(t, a.User(t, "member@example.com").ID)

		res := apptest.Do(t, a, "GET", api.PathAdminV1AccountAlerts, adminS)
		if got := alertsOf(t, res.Body.Bytes()); res.Code != 200 || got != (api.AlertPreferences{Reports: "never"}) {
			t.Fatalf("an admin's alerts before any choice: %d %+v", res.Code, got)
		}
		res = apptest.DoBody(t, a, "PUT", api.PathAdminV1AccountAlerts, adminS, `{"reports":"hourly","operations":true}`)
		if got := alertsOf(t, res.Body.Bytes()); res.Code != 200 || got != (api.AlertPreferences{Reports: "hourly", Operations: true}) {
			t.Fatalf("PUT hourly with operations: %d %s", res.Code, res.Body)
		}
		res = apptest.DoBody(t, a, "PUT", api.PathAdminV1AccountAlerts, adminS, `{"reports":"daily"}`)
		if got := alertsOf(t, res.Body.Bytes()); res.Code != 200 || got != (api.AlertPreferences{Reports: "daily", Operations: true}) {
			t.Errorf("PUT daily alone keeps operations: %d %s", res.Code, res.Body)
		}
		if got := alertsOf(t, apptest.Do(t, a, "GET", api.PathAdminV1AccountAlerts, adminS).Body.Bytes()); got.Reports != "daily" || !got.Operations {
			t.Errorf("read back: %+v", got)
		}

		for _, body := range []string{`{"reports":"weekly"}`, `{}`, `{"reports":"NOW"}`} {
			res = apptest.DoBody(t, a, "PUT", api.PathAdminV1AccountAlerts, adminS, body)
			var e api.V1Error
			if err := json.Unmarshal(res.Body.Bytes(), &e); err != nil || res.Code != 422 || e.Success || e.Error.Code != api.CodeValidationError {
				t.Errorf("PUT %s: %d %s, want 422 VALIDATION_ERROR in the v1 envelope", body, res.Code, res.Body)
			}
		}
		if res = apptest.DoBody(t, a, "PUT", api.PathAdminV1AccountAlerts, adminS, `{"reports":"weekly"}`); !strings.Contains(res.Body.String(), `"field":"reports"`) {
			t.Errorf("a bad setting names its field: %s", res.Body)
		}

		// Moderators: the versioned family is the admin role's; the
		// console's twin takes them, and refuses them operations alerts.
		if res = apptest.DoBody(t, a, "PUT", api.PathAdminV1AccountAlerts, modS, `{"reports":"now"}`); res.Code != 403 {
			t.Errorf("a moderator on the versioned route: %d", res.Code)
		}
		res = apptest.DoBody(t, a, "POST", api.PathConsoleAccountAlerts, modS, `{"reports":"now"}`)
		if got := alertsOf(t, res.Body.Bytes()); res.Code != 200 || got != (api.AlertPreferences{Reports: "now"}) {
			t.Errorf("a moderator's choice on the console: %d %s", res.Code, res.Body)
		}
		res = apptest.DoBody(t, a, "POST", api.PathConsoleAccountAlerts, modS, `{"reports":"daily","operations":true}`)
		if res.Code != 403 {
			t.Errorf("a moderator turning operations alerts on: %d %s, want 403", res.Code, res.Body)
		}
		if got := alertsOf(t, apptest.Do(t, a, "GET", api.PathConsoleAccountAlerts, modS).Body.Bytes()); got != (api.AlertPreferences{Reports: "now"}) {
			t.Errorf("a refused change changed something: %+v", got)
		}
		if res = apptest.DoBody(t, a, "POST", api.PathConsoleAccountAlerts, modS, `{"reports":"weekly"}`); res.Code != 422 {
			t.Errorf("a moderator's bad setting: %d", res.Code)
		}
		if res = apptest.DoBody(t, a, "POST", api.PathConsoleAccountAlerts, member, `{"reports":"now"}`); res.Code != 403 {
			t.Errorf("a member: %d", res.Code)
		}

		// Tokens read one's own account with account:read, and never
		// change it.
		read, _ := a.TokenFor(t, admin.ID, access.PermAdminRead)
		if res = apptest.Do(t, a, "GET", api.PathAdminV1AccountAlerts, read); res.Code != 403 {
			t.Errorf("an admin:read token without account:read: %d", res.Code)
		}
		readAccount, _ := a.TokenFor(t, admin.ID, access.PermAdminRead, access.ScopeAccountRead)
		if res = apptest.Do(t, a, "GET", api.PathAdminV1AccountAlerts, readAccount); res.Code != 200 || alertsOf(t, res.Body.Bytes()).Reports != "daily" {
			t.Errorf("a token with account:read: %d %s", res.Code, res.Body)
		}
		write, _ := a.TokenFor(t, admin.ID, access.AllPermissions()...)
		if res = apptest.DoBody(t, a, "PUT", api.PathAdminV1AccountAlerts, write, `{"reports":"never"}`); res.Code != 403 {
			t.Errorf("a token changing its owner's alerts: %d", res.Code)
		}

		var changes []models.AuditEntry
		for _, e := range a.AuditEntries(t) {
			if e.Action == "account.alerts" && e.Status == 200 {
				changes = append(changes, e)
			}
		}
		if len(changes) != 3 || changes[0].TargetID != itoa(admin.ID) || changes[0].Details["reports"] != "hourly" {
			t.Errorf("audited changes: %+v", changes)
		}
	})
}

// TestAlertsPage: the account's "Mail alerts" page offers operations
// alerts to admins only, works as a plain form (303 to the page, which
// says so; a refusal under its field) and answers htmx with the form and
// a toast.
func TestAlertsPage(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		a := apptest.New(t, db)
		adminS := a.SessionFor(t, a.User(t, "admin@example.com", access.RoleAdmin).ID)
		modS := a.SessionFor(t, a.User(t, "mod@example.com", access.RoleModerator).ID)
		page := func(h http.Header) string {
			t.Helper()
			res := apptest.Do(t, a, "GET", api.PathConsoleAccountAlerts, withHeader(h, "Accept", "text/html"))
			if res.Code != 200 || !strings.Contains(res.Body.String(), `data-testid="alerts-form"`) {
				t.Fatalf("the page: %d %.300s", res.Code, res.Body)
			}
			return res.Body.String()
		}
		if strings.Contains(page(modS), `data-testid="alerts-operations"`) || !strings.Contains(page(adminS), `data-testid="alerts-operations"`) {
			t.Error("operations alerts are offered to moderators, or not to admins")
		}
		if !strings.Contains(page(modS), `href="/admin/account/alerts"`) {
			t.Error("the account menu does not lead to the page")
		}

		form := withHeader(modS, "Content-Type", "application/x-www-form-urlencoded", "Accept", "text/html")
		res := apptest.DoBody(t, a, "POST", api.PathConsoleAccountAlerts, form, url.Values{"reports": {"daily"}}.Encode())
		if res.Code != http.StatusSeeOther || res.Header().Get("Location") != api.PathConsoleAccountAlerts+"?saved=1" {
			t.Fatalf("a plain form: %d to %q", res.Code, res.Header().Get("Location"))
		}
		res = apptest.Do(t, a, "GET", api.PathConsoleAccountAlerts+"?saved=1", withHeader(modS, "Accept", "text/html"))
		if body := res.Body.String(); !strings.Contains(body, `data-testid="alerts-saved"`) || !strings.Contains(body, `<option value="daily" selected>`) {
			t.Errorf("the page after saving:\n%.2000s", body)
		}
		res = apptest.DoBody(t, a, "POST", api.PathConsoleAccountAlerts, form, url.Values{"reports": {"weekly"}}.Encode())
		if body := res.Body.String(); res.Code != 422 || !strings.Contains(body, "reports must be now, hourly, daily or never") || !strings.Contains(body, `aria-invalid="true"`) {
			t.Errorf("a refused plain form: %d\n%.2000s", res.Code, body)
		}

		// An admin unticks operations alerts: the box sends nothing.
		adminForm := withHeader(adminS, "Content-Type", "application/x-www-form-urlencoded", "Accept", "text/html")
		apptest.DoBody(t, a, "POST", api.PathConsoleAccountAlerts, adminForm, url.Values{"reports": {"now"}, "operations": {"true"}}.Encode())
		if !strings.Contains(page(adminS), `checked`) {
			t.Error("operations alerts ticked by a plain form do not show")
		}
		apptest.DoBody(t, a, "POST", api.PathConsoleAccountAlerts, adminForm, url.Values{"reports": {"now"}}.Encode())
		if got := alertsOf(t, apptest.Do(t, a, "GET", api.PathAdminV1AccountAlerts, adminS).Body.Bytes()); got != (api.AlertPreferences{Reports: "now"}) {
			t.Errorf("after unticking: %+v", got)
		}

		htmx := withHeader(modS, "HX-Request", "true", "Accept", "text/html")
		res = apptest.DoBody(t, a, "POST", api.PathConsoleAccountAlerts, htmx, `{"reports":"hourly"}`)
		if res.Code != 200 || !strings.Contains(res.Body.String(), `id="alerts-panel"`) || !strings.Contains(res.Header().Get("HX-Trigger"), "Mail alerts saved") ||
			!strings.Contains(res.Body.String(), `<option value="hourly" selected>`) {
			t.Errorf("htmx: %d %q\n%.500s", res.Code, res.Header().Get("HX-Trigger"), res.Body)
		}
	})
}

// alertClock is a clock the test moves while the app's jobs read it.
type alertClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *alertClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *alertClock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// alertsApp is the app sending mail through srv, on clock (the store's
// too, which dates reports and decides when a digest is due), with its
// job queue working.
func alertsApp(t *testing.T, db *bun.DB, srv *mailtest.Server, clock *alertClock) *apptest.App {
	t.Helper()
	cfg := apptest.Config(t)
	server, err := mail.ParseURL(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	cfg.SMTPURL, cfg.SMTP = mail.Redact(srv.URL()), server
	a := apptest.NewWithConfig(t, db, cfg, app.Options{MailBackoff: func(int) time.Duration { return time.Millisecond }},
		func(d *web.Deps) { d.Now, d.Store.Now = clock.Now, clock.Now })
	if err := a.Runtime.StartJobs(context.Background()); err != nil {
		t.Fatal(err)
	}
	return a
}

// setAlerts chooses u's alerts through the console's route.
func setAlerts(t *testing.T, a *apptest.App, u *models.User, body string) {
	t.Helper()
	if res := apptest.DoBody(t, a, "POST", api.PathConsoleAccountAlerts, a.SessionFor(t, u.ID), body); res.Code != 200 {
		t.Fatalf("alerts of %s: %d %s", u.Email, res.Code, res.Body)
	}
}

// outboxOf are the outbox's messages of kind, oldest first.
func outboxOf(t *testing.T, a *apptest.App, kind mail.Kind) []models.MailMessage {
	t.Helper()
	var rows []models.MailMessage
	if err := a.Store.DB.NewSelect().Model(&rows).Where("kind = ?", string(kind)).Order("id").Scan(context.Background()); err != nil {
		t.Fatal(err)
	}
	return rows
}

// publishedPosts are n published posts by author.
func publishedPosts(t *testing.T, a *apptest.App, author *models.User, n int) []int64 {
	t.Helper()
	ids := make([]int64, n)
	for i := range ids {
		err := a.Store.Change(context.Background(), func(ctx context.Context) error {
			p, err := a.Store.Posts.CreateUserPost(ctx, models.PostInput{AuthorID: author.ID, Title: fmt.Sprintf("Post %d", i),
				Content: "Cheap watches, every day.", Published: true})
			if err == nil {
				ids[i] = p.ID
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return ids
}

func fileReport(t *testing.T, a *apptest.App, h http.Header, post int64, reason string) {
	t.Helper()
	if res := apptest.DoBody(t, a, "POST", api.PostReportPath(itoa(post)), h, `{"reason":"`+reason+`"}`); res.Code != http.StatusCreated {
		t.Fatalf("report post %d: %d %s", post, res.Code, res.Body)
	}
}

// TestReportAlertAtOnce: a report mails, in its own change, each staff
// member who asked for every report at once, through the mail server;
// not the reporter, even when they asked too, nor staff who chose never,
// a digest or nothing, nor someone no longer staff.
func TestReportAlertAtOnce(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		srv := mailtest.Start(t)
		a := alertsApp(t, db, srv, &alertClock{now: time.Now().UTC()})
		now := a.User(t, "now@example.com", access.RoleModerator)
		reporter := a.User(t, "reporting-mod@example.com", access.RoleModerator)
		never := a.User(t, "never@example.com", access.RoleAdmin)
		hourly := a.User(t, "hourly@example.com", access.RoleModerator)
		demoted := a.User(t, "demoted@example.com", access.RoleModerator)
		a.User(t, "silent@example.com", access.RoleModerator)
		for u, body := range map[*models.User]string{now: `{"reports":"now"}`, reporter: `{"reports":"now"}`, never: `{"reports":"never"}`,
			hourly: `{"reports":"hourly"}`, demoted: `{"reports":"now"}`} {
			setAlerts(t, a, u, body)
		}
		if _, err := a.Store.DB.NewRaw("DELETE FROM user_roles WHERE user_id = ?", demoted.ID).Exec(context.Background()); err != nil {
			t.Fatal(err)
		}
		author := a.User(t, "author@example.com")
		post := publishedPosts(t, a, author, 1)[0]
		fileReport(t, a, a.SessionFor(t, reporter.ID), post, "Spam")

		got := srv.Wait(t, 1, 10*time.Second)
		if len(got[0].To) != 1 || got[0].To[0] != now.Email || got[0].Subject() != "New report on Plaza" {
			t.Fatalf("the alert went to %v: %q", got[0].To, got[0].Subject())
		}
		text := got[0].Text()
		for _, want := range []string{"“Post 0” by @" + author.Username, "Reason: Spam", "> Cheap watches, every day.",
			"http://127.0.0.1:8080/admin/posts/" + itoa(post), "http://127.0.0.1:8080/admin/account/alerts"} {
			if !strings.Contains(text, want) {
				t.Errorf("the alert lacks %q:\n%s", want, text)
			}
		}
		rows := outboxOf(t, a, mail.KindReportAlert)
		if len(rows) != 1 || rows[0].Recipient != now.Email || rows[0].UserID == nil || *rows[0].UserID != now.ID {
			t.Errorf("report alerts in the outbox: %+v, want one to %s", rows, now.Email)
		}
	})
}

// runDigests runs the report_digest job once through the job queue and
// waits until it has completed.
func runDigests(t *testing.T, a *apptest.App) {
	t.Helper()
	ctx := context.Background()
	res, err := a.Runtime.Jobs.Client().Insert(ctx, jobs.ReportDigestArgs{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	apptest.WaitFor(t, "the report_digest job", func() bool {
		var state string
		err := a.Store.DB.NewRaw("SELECT state FROM river_job WHERE id = ?", res.Job.ID).Scan(ctx, &state)
		if err == nil && (state == "retryable" || state == "discarded") {
			t.Fatalf("the report_digest job is %s", state)
		}
		return err == nil && state == "completed"
	})
}

// TestReportDigest: fifty reports are one digest mail to the hourly
// subscriber once their hour has run, through the mail server, counting
// them all and listing twenty; the job run again at once sends nothing; a
// daily subscriber gets nothing until their day has run, and then one
// mail of the same fifty. A period without reports mails nothing.
func TestReportDigest(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		srv := mailtest.Start(t)
		clock := &alertClock{now: time.Now().UTC().Truncate(time.Second)}
		a := alertsApp(t, db, srv, clock)
		hourly := a.User(t, "hourly@example.com", access.RoleModerator)
		daily := a.User(t, "daily@example.com", access.RoleAdmin)
		setAlerts(t, a, hourly, `{"reports":"hourly"}`)
		setAlerts(t, a, daily, `{"reports":"daily"}`)

		clock.Add(time.Minute)
		author := a.User(t, "author@example.com")
		reporter := a.SessionFor(t, a.User(t, "reporter@example.com").ID)
		for _, id := range publishedPosts(t, a, author, 50) {
			fileReport(t, a, reporter, id, "Spam")
		}
		runDigests(t, a) // within the hour: nothing due
		if rows := outboxOf(t, a, mail.KindReportDigest); len(rows) != 0 {
			t.Fatalf("%d digests before the hour has run", len(rows))
		}

		clock.Add(time.Hour)
		runDigests(t, a)
		got := srv.Wait(t, 1, 10*time.Second)
		if len(got[0].To) != 1 || got[0].To[0] != hourly.Email || got[0].Subject() != "50 new reports on Plaza" {
			t.Fatalf("the digest went to %v: %q", got[0].To, got[0].Subject())
		}
		text := got[0].Text()
		if !strings.Contains(text, "50 reports arrived on Plaza") || !strings.Contains(text, "and 30 more") ||
			strings.Count(text, "by @"+author.Username+": Spam") != mail.DigestListed || !strings.Contains(text, "http://127.0.0.1:8080/admin/moderation") {
			t.Errorf("the digest:\n%s", text)
		}
		runDigests(t, a)
		if rows := outboxOf(t, a, mail.KindReportDigest); len(rows) != 1 {
			t.Errorf("%d digests after running the job again at once, want 1", len(rows))
		}

		clock.Add(22 * time.Hour) // 23 hours and a minute after the daily choice
		runDigests(t, a)
		if rows := outboxOf(t, a, mail.KindReportDigest); len(rows) != 1 {
			t.Errorf("%d digests before the day has run (and an hour without reports), want 1", len(rows))
		}

		clock.Add(time.Hour)
		runDigests(t, a)
		got = srv.Wait(t, 2, 10*time.Second)
		if len(got) != 2 || got[1].To[0] != daily.Email || got[1].Subject() != "50 new reports on Plaza" {
			t.Errorf("after the day: %d messages, the last to %v: %q", len(got), got[len(got)-1].To, got[len(got)-1].Subject())
		}
		runDigests(t, a)
		if rows := outboxOf(t, a, mail.KindReportDigest); len(rows) != 2 {
			t.Errorf("%d digests in all, want 2", len(rows))
		}
	})
}

// TestReportDigestOnceAtATime: runs of the digest at the same moment (two
// instances) send each due digest once.
func TestReportDigestOnceAtATime(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		clock := &alertClock{now: time.Now().UTC()}
		a := apptest.New(t, db, func(d *web.Deps) { d.Now, d.Store.Now = clock.Now, clock.Now })
		var staff []*models.User
		for i := range 4 {
			u := a.User(t, fmt.Sprintf("staff%d@example.com", i), access.RoleModerator)
			setAlerts(t, a, u, `{"reports":"hourly"}`)
			staff = append(staff, u)
		}
		clock.Add(time.Minute)
		reporter := a.SessionFor(t, a.User(t, "reporter@example.com").ID)
		for _, id := range publishedPosts(t, a, a.User(t, "author@example.com"), 3) {
			fileReport(t, a, reporter, id, "Spam")
		}
		clock.Add(time.Hour)
		job := actions.AlertJob{Store: a.Store, Mail: a.Runtime.Mail}
		var wg sync.WaitGroup
		errs := make([]error, 3)
		for i := range errs {
			wg.Go(func() { errs[i] = job.SendReportDigests(context.Background()) })
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		rows := outboxOf(t, a, mail.KindReportDigest)
		if len(rows) != len(staff) {
			t.Fatalf("%d digests for %d subscribers", len(rows), len(staff))
		}
		seen := map[string]bool{}
		for _, r := range rows {
			if seen[r.Recipient] || r.Status != models.MailHeld || r.Subject != "3 new reports on Plaza" {
				t.Errorf("digest %+v (twice to %s: %v)", r, r.Recipient, seen[r.Recipient])
			}
			seen[r.Recipient] = true
		}
	})
}

// TestOperationsAlert: a scheduled backup and a maintenance job that fail
// mail each admin who asked for operations alerts, in the change that
// records the failure, with what failed, the error and the jobs page.
func TestOperationsAlert(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		srv := mailtest.Start(t)
		a := alertsApp(t, db, srv, &alertClock{now: time.Now().UTC()})
		ops := a.User(t, "ops@example.com", access.RoleAdmin)
		quiet := a.User(t, "quiet@example.com", access.RoleAdmin)
		setAlerts(t, a, ops, `{"reports":"never","operations":true}`)
		setAlerts(t, a, quiet, `{"reports":"now"}`)

		dir := a.Runtime.Config.BackupDir
		if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dir, []byte("a file where the folder should be"), 0o600); err != nil {
			t.Fatal(err)
		}
		cfg := models.MaintenanceConfig{BackupDir: dir, DatabaseURL: a.Runtime.Config.DatabaseURL, BackupKeep: 2}
		if err := a.Store.Maintenance.ScheduledBackup(context.Background(), cfg); err != nil {
			t.Fatal(err)
		}
		got := srv.Wait(t, 1, 10*time.Second)
		if got[0].To[0] != ops.Email || got[0].Subject() != "Failed on Plaza: The scheduled backup" {
			t.Fatalf("the alert went to %v: %q", got[0].To, got[0].Subject())
		}
		for _, want := range []string{"The scheduled backup failed on Plaza on ", "> ", "backup folder", "http://127.0.0.1:8080/admin/system"} {
			if !strings.Contains(got[0].Text(), want) {
				t.Errorf("the alert lacks %q:\n%s", want, got[0].Text())
			}
		}

		root, _ := a.Admin(t)
		job := runJob(t, a, root, `{"action":"backup_database"}`)
		if job.Status != "failed" {
			t.Fatalf("a backup into a file: %+v", job)
		}
		got = srv.Wait(t, 2, 10*time.Second)
		if got[1].To[0] != ops.Email || got[1].Subject() != "Failed on Plaza: A backup of the database" {
			t.Errorf("the second alert went to %v: %q", got[1].To, got[1].Subject())
		}
		if rows := outboxOf(t, a, mail.KindOpsAlert); len(rows) != 2 {
			t.Errorf("%d operations alerts, want 2 (none to %s)", len(rows), quiet.Email)
		}
	})
}
