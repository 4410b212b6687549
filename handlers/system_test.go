package handlers_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

type v1Job struct {
	JobID, Action, Scope, Status string
	Progress, Attempts           int
	StartedAt, FinishedAt, Error *string
	Result                       map[string]any
}

// runJob queues action with scope as h and waits until it has finished.
func runJob(t *testing.T, app *apptest.App, h http.Header, body string) v1Job {
	t.Helper()
	res := apptest.DoBody(t, app, "POST", "/api/v1/admin/system/maintenance", h, body)
	var queued struct {
		Data struct{ JobID, Status string }
	}
	if err := json.Unmarshal(res.Body.Bytes(), &queued); err != nil || res.Code != 202 || queued.Data.Status != "queued" {
		t.Fatalf("%s: %d %s", body, res.Code, res.Body)
	}
	var job v1Job
	apptest.WaitFor(t, body+" to finish", func() bool {
		var got struct{ Data v1Job }
		json.Unmarshal(apptest.Do(t, app, "GET", "/api/v1/admin/system/jobs/"+queued.Data.JobID, h).Body.Bytes(), &got)
		job = got.Data
		return job.Status == "completed" || job.Status == "failed"
	})
	if job.Status == "completed" && (job.Progress != 100 || job.StartedAt == nil || job.FinishedAt == nil || job.Attempts != 1) {
		t.Errorf("%s finished as %+v", body, job)
	}
	return job
}

func startJobs(t *testing.T, app *apptest.App) {
	t.Helper()
	if err := app.Runtime.StartJobs(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// TestCacheClear: sessions clears expired sessions only; all signs every
// session out but the caller's and tells the admins when asked.
func TestCacheClear(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		// The periodic sweep deletes expired sessions too, once as the job
		// queue starts: wait for it, or it may take the job's.
		insertRows(t, db, &models.Session{Token: "swept", Data: []byte("x"), Expiry: time.Now().Add(-time.Hour)})
		startJobs(t, app)
		apptest.WaitFor(t, "the first sweep", func() bool {
			n, err := db.NewSelect().Model((*models.Session)(nil)).Where("token = 'swept'").Count(context.Background())
			return err == nil && n == 0
		})
		root, rootUser := app.Admin(t)
		other := app.SessionFor(t, app.User(t, "ada@example.com").ID)
		colleague := app.User(t, "boss@example.com", access.ImpliedRoles(access.RoleAdmin)...)
		insertRows(t, db, &models.Session{Token: "stale", Data: []byte("x"), Expiry: time.Now().Add(-time.Hour)})
		job := runJob(t, app, root, `{"action":"cache_clear","scope":"sessions"}`)
		if job.Status != "completed" || job.Result["expiredSessions"] != float64(1) {
			t.Errorf("sessions: %+v", job)
		}
		if res := apptest.Do(t, app, "GET", "/api/notifications", other); res.Code != 200 {
			t.Fatalf("a live session after clearing expired ones: %d", res.Code)
		}
		job = runJob(t, app, root, `{"action":"cache_clear","notify":true}`)
		if job.Status != "completed" || job.Result["queries"] != "purged" || job.Result["previews"] != float64(0) {
			t.Errorf("all: %+v", job)
		}
		// The job's arguments name the caller's session by its stored key,
		// never by the token itself.
		rootToken := strings.TrimPrefix(root.Get("Cookie"), "plaza_session=")
		var args []string
		db.NewRaw("SELECT CAST(args AS TEXT) FROM river_job WHERE kind = 'maintenance'").Scan(context.Background(), &args)
		for _, a := range args {
			if strings.Contains(a, rootToken) || !strings.Contains(a, models.SessionKey(rootToken)) {
				t.Errorf("maintenance job arguments %s hold the session token, or not its key", a)
			}
		}
		if res := apptest.Do(t, app, "GET", "/api/notifications", root); res.Code != 200 {
			t.Errorf("the caller's own session after a sign-out of everyone: %d", res.Code)
		}
		if res := apptest.Do(t, app, "GET", "/api/notifications", other); res.Code != 401 {
			t.Errorf("another user's session after a sign-out of everyone: %d", res.Code)
		}
		for _, u := range []int64{rootUser.ID, colleague.ID} {
			if got := inboxTitles(t, app, u)[u]; len(got) == 0 || got[0] != "Maintenance finished: cache_clear" {
				t.Errorf("admin %d's inbox: %q", u, got)
			}
		}
	})
}

// TestCacheClearAsksBeforeSigningOut: the console's cache clear defaults
// to the cached callers and flags and offers signing everyone out last;
// a scope that signs other people out answers the console with a step
// that says how many sessions end and queues nothing until that count
// comes back; a count gone stale asks again; an API client keeps the
// contract (no count needed) but a wrong count it sends is 409.
func TestCacheClearAsksBeforeSigningOut(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		startJobs(t, app)
		root, _ := app.Admin(t)
		ada := app.SessionFor(t, app.User(t, "ada@example.com").ID)
		bob := app.User(t, "bob@example.com")
		app.SessionFor(t, bob.ID)
		app.SessionFor(t, bob.ID)
		page := apptest.Do(t, app, "GET", "/admin/system", withHeader(root, "Accept", "text/html")).Body.String()
		scopes := page[strings.Index(page, `data-testid="scope-cache_clear"`):]
		if first := strings.Index(scopes, `<option value="queries"`); first < 0 || first > strings.Index(scopes, `<option value="all"`) {
			t.Errorf("the console's first (default) cache scope is not the cached callers and flags: %.400s", scopes)
		}
		console := root.Clone()
		console.Set("HX-Request", "true")
		console.Set("Accept", "text/html")
		run := func(h http.Header, body string) (int, string) {
			res := apptest.DoBody(t, app, "POST", "/api/v1/admin/system/maintenance", h, body)
			return res.Code, res.Body.String()
		}
		code, body := run(console, `{"action":"cache_clear","scope":"all"}`)
		if code != 200 || !strings.Contains(body, "3 other sessions") || !strings.Contains(body, "2 people") || !strings.Contains(body, `{&#34;confirm&#34;:3}`) {
			t.Fatalf("the console's sign-out of everyone without a count: %d %s", code, body)
		}
		if code, body := run(console, `{"action":"cache_clear","scope":"all","confirm":2}`); code != 200 || !strings.Contains(body, "The count changed") {
			t.Errorf("a stale count: %d %s", code, body)
		}
		if code, body := run(root, `{"action":"cache_clear","scope":"all","confirm":5}`); code != 409 || !strings.Contains(body, "send confirm 3") {
			t.Errorf("an API client's wrong count: %d %s", code, body)
		}
		var jobs struct{ Data []v1Job }
		json.Unmarshal(apptest.Do(t, app, "GET", "/api/v1/admin/system/jobs", root).Body.Bytes(), &jobs)
		if len(jobs.Data) != 0 || apptest.Do(t, app, "GET", "/api/notifications", ada).Code != 200 {
			t.Fatalf("unconfirmed, a job was queued or ada signed out: %+v", jobs.Data)
		}
		if code, body := run(console, `{"action":"cache_clear","scope":"queries"}`); code != 202 {
			t.Fatalf("the cached callers and flags need no confirmation: %d %s", code, body)
		}
		apptest.WaitFor(t, "the cache clear to finish", func() bool {
			json.Unmarshal(apptest.Do(t, app, "GET", "/api/v1/admin/system/jobs", root).Body.Bytes(), &jobs)
			return len(jobs.Data) == 1 && jobs.Data[0].Status == "completed"
		})
		if apptest.Do(t, app, "GET", "/api/notifications", ada).Code != 200 {
			t.Fatal("clearing the cached callers and flags signed ada out")
		}
		if code, body := run(console, `{"action":"cache_clear","scope":"all","confirm":3}`); code != 202 {
			t.Fatalf("confirmed: %d %s", code, body)
		}
		apptest.WaitFor(t, "everyone else signed out", func() bool {
			return apptest.Do(t, app, "GET", "/api/notifications", ada).Code == 401
		})
		if apptest.Do(t, app, "GET", "/api/notifications", root).Code != 200 {
			t.Error("the admin who confirmed was signed out too")
		}
	})
}

// TestRebuildSearch: the search indexes are rebuilt and searches still
// find what they found.
func TestRebuildSearch(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		startJobs(t, app)
		root, _ := app.Admin(t)
		author := app.User(t, "gardener@example.com")
		newPostAs(t, app, author.ID, "Tomatoes in November")
		for _, scope := range []string{"posts", "users", "all"} {
			job := runJob(t, app, root, `{"action":"rebuild_search","scope":"`+scope+`"}`)
			if rebuilt, _ := job.Result["rebuilt"].([]any); job.Status != "completed" || len(rebuilt) == 0 {
				t.Errorf("%s: %+v %v", scope, job, *job.Error)
			}
		}
		for q, want := range map[string]string{"tomatoes": "Tomatoes in November", "gardener": "gardener"} {
			res := apptest.Do(t, app, "GET", "/api/search?q="+q, root)
			if res.Code != 200 || !strings.Contains(res.Body.String(), want) {
				t.Errorf("search %s after the rebuild: %d %s", q, res.Code, res.Body)
			}
		}
	})
}

// TestRebuildSearchKeepsWrites: writes made while the posts index is
// rebuilt, to rows already loaded and rows not yet loaded, are all in the
// new index; on SQLite, whose index first holds a post that is not there,
// the rebuild loads in
// batches, and FTS5 finds the new index equal to the posts, with no shadow
// left and the index still kept by later writes.
func TestRebuildSearchKeepsWrites(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		app := apptest.New(t, db)
		root, _ := app.Admin(t)
		author := app.User(t, "gardener@example.com")
		for i := range 100 {
			newPostAs(t, app, author.ID, fmt.Sprintf("Tomatoes number %d", i))
		}
		var ids []int64
		if err := db.NewSelect().Table("posts").Column("id").Order("id").Scan(ctx, &ids); err != nil {
			t.Fatal(err)
		}
		sqlite := models.Dialect(db) == "sqlite"
		if sqlite {
			mustExec(t, db, "INSERT INTO posts_fts (rowid, title, content) VALUES (?, 'Ghost', 'gone')", ids[99]+1000)
			if _, err := db.ExecContext(ctx, "INSERT INTO posts_fts (posts_fts, rank) VALUES ('integrity-check', 1)"); err == nil {
				t.Fatal("an index holding a post that does not exist passes FTS5's check")
			}
		}
		app.Store.SearchBatch = 20
		var once sync.Once
		var batches atomic.Int32
		app.Store.Progressed = func(string, int) {
			batches.Add(1)
			once.Do(func() {
				mustExec(t, db, "UPDATE posts SET title = 'Pumpkins ahead' WHERE id = ?", ids[0])
				mustExec(t, db, "DELETE FROM posts WHERE id = ?", ids[1])
				mustExec(t, db, "UPDATE posts SET title = 'Squash behind' WHERE id = ?", ids[90])
				newPostAs(t, app, author.ID, "Zucchini after")
			})
		}
		startJobs(t, app)
		if job := runJob(t, app, root, `{"action":"rebuild_search","scope":"posts"}`); job.Status != "completed" {
			t.Fatalf("%+v", job)
		}
		newPostAs(t, app, author.ID, "Eggplant later")
		for q, want := range map[string]int{"tomatoes": 97, "pumpkins": 1, "squash": 1, "zucchini": 1, "eggplant": 1} {
			if found := searchTitles(t, app, root, q); len(found) != want {
				t.Errorf("search %s: %d posts, want %d: %q", q, len(found), want, found)
			}
		}
		if !sqlite {
			return
		}
		if n := batches.Load(); n < 5 {
			t.Errorf("the rebuild loaded %d batches of 20 rows", n)
		}
		mustExec(t, db, "INSERT INTO posts_fts (posts_fts, rank) VALUES ('integrity-check', 1)")
		var left int
		if err := db.NewRaw(`SELECT (SELECT count(*) FROM sqlite_master WHERE name LIKE 'rebuild%') +
			(SELECT count(*) FROM search_rebuilds)`).Scan(ctx, &left); err != nil || left != 0 {
			t.Errorf("left behind: %d %v", left, err)
		}
	})
}

// searchTitles are the titles of the posts /api/search finds for q.
func searchTitles(t *testing.T, app *apptest.App, h http.Header, q string) []string {
	t.Helper()
	res := apptest.Do(t, app, "GET", "/api/search?type=posts&limit=100&q="+q, h)
	var got struct {
		Results []struct{ Title string }
	}
	if err := json.Unmarshal(res.Body.Bytes(), &got); err != nil || res.Code != 200 {
		t.Fatalf("search %s: %d %s", q, res.Code, res.Body)
	}
	titles := make([]string, len(got.Results))
	for i, r := range got.Results {
		titles[i] = r.Title
	}
	return titles
}

func mustExec(t *testing.T, db *bun.DB, query string, args ...any) {
	t.Helper()
	if _, err := db.ExecContext(context.Background(), query, args...); err != nil {
		t.Errorf("%s: %v", query, err)
	}
}

// TestCleanupUploads: an old file no row names goes; an old file a row
// names and a new file no row names stay; the scope keeps to its folder;
// progress moves as the files are checked.
func TestCleanupUploads(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		var mu sync.Mutex
		var steps []int
		app.Store.Progressed = func(_ string, pct int) { mu.Lock(); steps = append(steps, pct); mu.Unlock() }
		startJobs(t, app)
		root, _ := app.Admin(t)
		dir := app.Runtime.Config.UploadsDir
		old := time.Now().Add(-2 * time.Hour)
		files := map[string]time.Time{"avatars/orphan.png": old, "avatars/kept.png": old, "avatars/new.png": time.Now(),
			"attachments/orphan.pdf": old}
		for name, at := range files {
			path := filepath.Join(dir, name)
			if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte("x"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(path, at, at); err != nil {
				t.Fatal(err)
			}
		}
		insertRows(t, db, &models.Upload{Kind: "avatar", Path: "avatars/kept.png", SizeBytes: 1, CreatedAt: old})
		job := runJob(t, app, root, `{"action":"cleanup_uploads","scope":"avatars"}`)
		if job.Status != "completed" || job.Result["removed"] != float64(1) || job.Result["scanned"] != float64(2) {
			t.Errorf("avatars: %+v", job)
		}
		for name, want := range map[string]bool{"avatars/orphan.png": false, "avatars/kept.png": true, "avatars/new.png": true, "attachments/orphan.pdf": true} {
			if _, err := os.Stat(filepath.Join(dir, name)); (err == nil) != want {
				t.Errorf("%s there: %v, want %v", name, err == nil, want)
			}
		}
		// 1,200 orphans: progress moves per 500 files checked.
		for i := range 1200 {
			path := filepath.Join(dir, "attachments", fmt.Sprintf("bulk%04d.bin", i))
			if err := os.WriteFile(path, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			os.Chtimes(path, old, old)
		}
		mu.Lock()
		steps = nil
		mu.Unlock()
		if job := runJob(t, app, root, `{"action":"cleanup_uploads"}`); job.Result["removed"] != float64(1201) {
			t.Errorf("all: %+v", job)
		}
		mu.Lock()
		defer mu.Unlock()
		if fmt.Sprint(steps) != "[41 83 99]" {
			t.Errorf("progress went %v, want [41 83 99] (then 100 when finished)", steps)
		}
	})
}

// TestBackupJob: the backup is in BACKUP_DIR with the size and checksum
// the job reports; a backup that cannot be written is a failed job with
// its error, and the admins hear of it.
func TestBackupJob(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		startJobs(t, app)
		root, rootUser := app.Admin(t)
		job := runJob(t, app, root, `{"action":"backup_database"}`)
		if job.Status != "completed" {
			t.Fatalf("backup: %+v", job)
		}
		body, err := os.ReadFile(filepath.Join(app.Runtime.Config.BackupDir, job.Result["file"].(string)))
		sum := sha256.Sum256(body)
		if err != nil || len(body) == 0 || job.Result["sizeBytes"] != float64(len(body)) || job.Result["sha256"] != hex.EncodeToString(sum[:]) {
			t.Errorf("the backup file (%v) differs from %+v", err, job.Result)
		}
		// The backup counts only if it restores: into a database of its
		// own, where the admin of the moment is found.
		restored := restoredBackup(t, models.Dialect(db), filepath.Join(app.Runtime.Config.BackupDir, job.Result["file"].(string)))
		var emails []string
		if err := restored.NewRaw("SELECT email FROM users").Scan(context.Background(), &emails); err != nil || !slices.Contains(emails, rootUser.Email) {
			t.Errorf("the restored backup's users: %v (%v)", emails, err)
		}
		if err := os.RemoveAll(app.Runtime.Config.BackupDir); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(app.Runtime.Config.BackupDir, []byte("a file where the folder should be"), 0o600); err != nil {
			t.Fatal(err)
		}
		job = runJob(t, app, root, `{"action":"backup_database","notify":true}`)
		if job.Status != "failed" || job.Error == nil || !strings.Contains(*job.Error, "backup folder") || job.Result != nil {
			t.Errorf("a backup into a file: %+v", job)
		}
		if got := inboxTitles(t, app, rootUser.ID)[rootUser.ID]; len(got) == 0 || got[0] != "Maintenance failed: backup_database" {
			t.Errorf("the admin's inbox: %q", got)
		}
	})
}

// TestMaintenanceRefusals: a second job of an action while one is queued
// is 409; unknown actions and scopes are 422; only super admins may queue;
// an unknown job is 404; the list shows the latest first.
func TestMaintenanceRefusals(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		root, _ := app.Admin(t)
		post := func(h http.Header, body string) *struct {
			code int
			body string
		} {
			res := apptest.DoBody(t, app, "POST", "/api/v1/admin/system/maintenance", h, body)
			return &struct {
				code int
				body string
			}{res.Code, res.Body.String()}
		}
		if r := post(root, `{"action":"backup_database"}`); r.code != 202 {
			t.Fatalf("first: %d %s", r.code, r.body)
		}
		if r := post(root, `{"action":"backup_database"}`); r.code != 409 || !strings.Contains(r.body, "CONFLICT") {
			t.Errorf("second while the first is queued: %d %s", r.code, r.body)
		}
		if r := post(root, `{"action":"cache_clear","scope":"queries"}`); r.code != 202 {
			t.Errorf("another action: %d %s", r.code, r.body)
		}
		for body, field := range map[string]string{
			`{"action":"defrag"}`: "action",
			`{}`:                  "action",
			`{"action":"cache_clear","scope":"posts"}`:     "scope",
			`{"action":"backup_database","scope":"users"}`: "scope",
			`{"action":"cache_clear","when":"now"}`:        "when",
		} {
			wantInvalid(t, app, "POST", "/api/v1/admin/system/maintenance", root, body, field)
		}
		boss := app.User(t, "boss@example.com", access.ImpliedRoles(access.RoleAdmin)...)
		if r := post(app.SessionFor(t, boss.ID), `{"action":"rebuild_search"}`); r.code != 403 || !strings.Contains(r.body, "admin:super") {
			t.Errorf("an admin without admin:super: %d %s", r.code, r.body)
		}
		if res := apptest.Do(t, app, "GET", "/api/v1/admin/system/jobs/no-such-job", root); res.Code != 404 {
			t.Errorf("an unknown job: %d", res.Code)
		}
		var list struct {
			Data []v1Job
			Meta struct{ Pagination struct{ Total int } }
		}
		json.Unmarshal(apptest.Do(t, app, "GET", "/api/v1/admin/system/jobs", root).Body.Bytes(), &list)
		if list.Meta.Pagination.Total != 2 || list.Data[0].Action != "cache_clear" || list.Data[1].Status != "queued" || list.Data[1].Progress != 0 {
			t.Errorf("the list: %+v", list)
		}
		app.FlushAudit(t)
		queued := 0
		for _, e := range app.AuditEntries(t) {
			if e.Action == "system.maintenance" && e.Status == 202 && e.TargetType == "job" && e.TargetID != "" && e.Details["scope"] != nil {
				queued++
			}
		}
		if queued != 2 {
			t.Errorf("%d audit entries of queued jobs, want 2", queued)
		}
	})
}

// TestMaintenanceSurvivesARestart: a job whose instance died while it ran
// (River's row running since long ago, the job half done) is rescued by
// the next instance's job queue and run again to completion.
func TestMaintenanceSurvivesARestart(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		first := apptest.New(t, db)
		root, _ := first.Admin(t)
		res := apptest.DoBody(t, first, "POST", "/api/v1/admin/system/maintenance", root, `{"action":"cache_clear","scope":"sessions"}`)
		var queued struct{ Data struct{ JobID string } }
		if err := json.Unmarshal(res.Body.Bytes(), &queued); err != nil || res.Code != 202 {
			t.Fatalf("%d %s", res.Code, res.Body)
		}
		id := queued.Data.JobID
		long := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
		for _, q := range []string{
			"UPDATE river_job SET state = 'running', attempt = 1, attempted_at = ? WHERE kind = 'maintenance'",
			"UPDATE maintenance_jobs SET status = 'running', progress = 40, attempts = 1, started_at = ? WHERE id = ?",
		} {
			if _, err := db.ExecContext(ctx, q, long, id); err != nil {
				t.Fatal(err)
			}
		}
		next, err := app.Open(ctx, first.Runtime.Config, slog.New(slog.DiscardHandler), app.Options{DB: db, RescueJobsAfter: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(next.Close)
		if err := next.StartJobs(ctx); err != nil {
			t.Fatal(err)
		}
		var job *models.MaintenanceJob
		for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			if job, err = next.Store.Maintenance.MaintenanceJobByID(ctx, id); err != nil {
				t.Fatal(err)
			}
			if job.Status == models.JobCompleted || time.Now().After(deadline) {
				break
			}
		}
		if job.Status != models.JobCompleted || job.Attempts != 2 || job.Progress != 100 || job.StartedAt.Year() == 2000 {
			t.Errorf("after the restart: %+v", job)
		}
	})
}

// TestBackupFiles: backups are listed newest first, downloaded whole by
// super admins only, deleted; BACKUP_KEEP prunes all but the newest; an
// unknown or path-like name is 404; a scheduled backup is a job too.
func TestBackupFiles(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		startJobs(t, app)
		root, _ := app.Admin(t)
		var made []string
		for range 2 {
			job := runJob(t, app, root, `{"action":"backup_database"}`)
			made = append(made, job.Result["file"].(string))
		}
		var list struct {
			Data []struct {
				File      string
				SizeBytes int64
			}
		}
		json.Unmarshal(apptest.Do(t, app, "GET", "/api/v1/admin/system/backups", root).Body.Bytes(), &list)
		if len(list.Data) != 2 || list.Data[0].File != made[1] || list.Data[1].File != made[0] {
			t.Fatalf("list: %+v, made %v", list.Data, made)
		}
		res := apptest.Do(t, app, "GET", "/api/v1/admin/system/backups/"+made[0], root)
		want, _ := os.ReadFile(filepath.Join(app.Runtime.Config.BackupDir, made[0]))
		if res.Code != 200 || res.Body.Len() != len(want) || res.Body.String() != string(want) ||
			!strings.Contains(res.Header().Get("Content-Disposition"), made[0]) {
			t.Errorf("download: %d, %d bytes of %d", res.Code, res.Body.Len(), len(want))
		}
		boss := app.SessionFor(t, app.User(t, "boss@example.com", access.ImpliedRoles(access.RoleAdmin)...).ID)
		if res := apptest.Do(t, app, "GET", "/api/v1/admin/system/backups/"+made[0], boss); res.Code != 403 {
			t.Errorf("download without admin:super: %d", res.Code)
		}
		for _, name := range []string{"plaza-20000101T000000.000000Z.db", "..%2Fplaza.db", "notes.txt"} {
			if res := apptest.Do(t, app, "GET", "/api/v1/admin/system/backups/"+name, root); res.Code != 404 {
				t.Errorf("download %s: %d", name, res.Code)
			}
		}
		if res := apptest.Do(t, app, "DELETE", "/api/v1/admin/system/backups/"+made[0], root); res.Code != 200 {
			t.Errorf("delete: %d %s", res.Code, res.Body)
		}
		if res := apptest.Do(t, app, "DELETE", "/api/v1/admin/system/backups/"+made[0], root); res.Code != 404 {
			t.Errorf("delete again: %d", res.Code)
		}
		cfg := models.MaintenanceConfig{BackupDir: app.Runtime.Config.BackupDir, DatabaseURL: app.Runtime.Config.DatabaseURL, BackupKeep: 2}
		for range 3 {
			if err := app.Store.Maintenance.ScheduledBackup(context.Background(), cfg); err != nil {
				t.Fatal(err)
			}
		}
		json.Unmarshal(apptest.Do(t, app, "GET", "/api/v1/admin/system/backups", root).Body.Bytes(), &list)
		if len(list.Data) != 2 || list.Data[1].File <= made[1] {
			t.Errorf("after three scheduled backups keeping 2: %+v", list.Data)
		}
		jobs, _, err := app.Store.Maintenance.MaintenanceJobs(context.Background(), 10, 0)
		if err != nil || len(jobs) != 5 || jobs[0].QueuedBy != nil || jobs[0].Status != models.JobCompleted {
			t.Errorf("jobs after the scheduled backups: %+v (%v)", jobs, err)
		}
	})
}

// TestAuditRetentionJob: with AUDIT_RETENTION_DAYS set, the job queue
// archives the older entries on start into a signed file in BACKUP_DIR,
// and the audit log still verifies.
func TestAuditRetentionJob(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		cfg := apptest.Config(t)
		cfg.DatabaseURL, cfg.AuditRetentionDays = dbtest.URL(t, db), 2
		rt, err := app.Open(ctx, cfg, slog.New(slog.DiscardHandler), app.Options{DB: db})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(rt.Close)
		for _, age := range []time.Duration{5 * day, 4 * day, time.Hour} {
			e := &models.AuditEntry{CreatedAt: time.Now().Add(-age).UTC(), Action: "test.entry", Status: 200, Details: map[string]any{}}
			if err := rt.Store.Audit.AppendAudit(ctx, db, e); err != nil {
				t.Fatal(err)
			}
		}
		if err := rt.StartJobs(ctx); err != nil {
			t.Fatal(err)
		}
		// The file is written first and the entries removed after, so wait
		// for the removal.
		var archives []string
		var v models.AuditVerification
		apptest.WaitFor(t, "the archived entries to leave the log", func() bool {
			archives, _ = filepath.Glob(filepath.Join(cfg.BackupDir, "audit-archive-*.jsonl"))
			v, err = rt.Store.Audit.VerifyAudit(ctx)
			return len(archives) == 1 && err == nil && v.Checked == 1
		})
		sig, err := models.VerifyArchive(archives[0], app.ArchiveKey(rt.Config.JWTSecret))
		if err != nil || sig.Entries != 2 {
			t.Errorf("the archive: %+v %v", sig, err)
		}
		if !v.Valid {
			t.Errorf("verify after archiving: %+v", v)
		}
	})
}

// restoredBackup restores a backup file into a database of its own, as
// plaza restore does, and opens it.
func restoredBackup(t *testing.T, dialect, path string) *bun.DB {
	t.Helper()
	var u string
	var err error
	if dialect == config.DialectPostgres {
		_, u = dbtest.OpenEmpty(t, dialect)
		err = models.RestorePostgres(context.Background(), path, u)
	} else {
		file := filepath.Join(t.TempDir(), "restored.db")
		u, err = "sqlite://"+file, models.RestoreSQLite(path, file)
	}
	if err != nil {
		t.Fatalf("restore %s: %v", path, err)
	}
	parsed, err := config.ParseDatabaseURL(u)
	if err != nil {
		t.Fatal(err)
	}
	restored, err := models.Open(context.Background(), parsed, models.OpenOptions{MaxConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { restored.Close() })
	return restored
}

// TestJobsReadInWords: the console's jobs list names each job as people
// say it and tells what it did in words, not with its API name and JSON.
func TestJobsReadInWords(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	startJobs(t, app)
	root, _ := app.Admin(t)
	backup := runJob(t, app, root, `{"action":"backup_database"}`)
	rebuild := runJob(t, app, root, `{"action":"rebuild_search","scope":"posts"}`)
	page := root.Clone()
	page.Set("Accept", "text/html")
	res := apptest.Do(t, app, http.MethodGet, api.PathConsoleSystem, page)
	doc, err := goquery.NewDocumentFromReader(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	row := func(id string) (name, result string) {
		tr := doc.Find(`[data-testid="job-` + id + `"]`)
		return strings.Join(strings.Fields(tr.Find("td").First().Text()), " "),
			strings.Join(strings.Fields(tr.Find(`[data-testid="job-result"]`).Text()), " ")
	}
	name, result := row(backup.JobID)
	if !strings.HasPrefix(name, "Database backup") || !strings.HasPrefix(result, "Wrote "+backup.Result["file"].(string)+" (") {
		t.Errorf("the backup reads %q / %q, want \"Database backup\" / \"Wrote <file> (<size>) …\"", name, result)
	}
	name, result = row(rebuild.JobID)
	if !strings.HasPrefix(name, "Search rebuild Posts only") || !strings.HasPrefix(result, "Rebuilt 2 search indexes in ") {
		t.Errorf("the rebuild reads %q / %q, want \"Search rebuild Posts only\" / \"Rebuilt 1 search index in …\"", name, result)
	}
	for _, raw := range []string{"backup_database", "rebuild_search", "sizeBytes", "sha256:", "[", "{"} {
		if strings.Contains(doc.Find(`[data-testid="job-list"]`).Text(), raw) {
			t.Errorf("the jobs list shows %q", raw)
		}
	}
}
