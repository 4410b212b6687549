package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/plazahq/plaza/api"

	"github.com/plazahq/plaza/app"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/web"
)

// apiClients is the concurrency of the API latency benchmarks: a busy
// console (a few admins at once), not a load test. PLAZA_BENCH_CLIENTS
// changes it (1 measures requests one after another).
var apiClients = benchClients()

func benchClients() int {
	if n, err := strconv.Atoi(os.Getenv("PLAZA_BENCH_CLIENTS")); err == nil && n > 0 {
		return n
	}
	return 4
}

// benchServer serves Plaza over loopback on the seeded database that
// PLAZA_BENCH_URL names (`plaza seed --users N --posts M` makes them), with the rate limits
// lifted, and returns its URL and a super admin's bearer header.
func benchServer(b *testing.B) (string, http.Header) {
	_, url, h := benchRuntime(b)
	return url, h
}

// benchRuntime is benchServer with the runtime behind it.
func benchRuntime(b *testing.B) (*app.Runtime, string, http.Header) {
	rt, _, url, h := benchWeb(b)
	return rt, url, h
}

// benchWeb is benchRuntime with the web dependencies too.
func benchWeb(b *testing.B) (*app.Runtime, web.Deps, string, http.Header) {
	dbURL := os.Getenv("PLAZA_BENCH_URL")
	if dbURL == "" {
		b.Skip("set PLAZA_BENCH_URL to a database seeded with plaza seed")
	}
	ctx := context.Background()
	cfg := apptest.Config(b)
	cfg.DatabaseURL = dbURL
	cfg.RateLimit.AdminUsers, cfg.RateLimit.APIAdmin, cfg.RateLimit.APIAuthed = 1<<30, 1<<30, 1<<30
	cfg.RateLimit.APIAnonymous, cfg.RateLimit.AdminGeneral, cfg.RateLimit.AdminSuper = 1<<30, 1<<30, 1<<30
	rt, err := app.Open(ctx, cfg, discardLog(), app.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(rt.Close)
	d, err := rt.Web(ctx, app.WebOptions{Static: os.DirFS(apptest.StaticDir()), Version: "bench", Started: time.Now()})
	if err != nil {
		b.Fatal(err)
	}
	e, err := web.New(d)
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(e)
	b.Cleanup(srv.Close)
	return rt, d, srv.URL, benchAdmin(b, rt.Store, []byte(rt.Config.JWTSecret))
}

// benchAdmin finds or makes the benchmarks' super admin and mints a token.
func benchAdmin(b *testing.B, s *models.Store, secret []byte) http.Header {
	ctx := context.Background()
	const email = "bench-admin@plaza.invalid"
	u, err := s.Users.UserByEmail(ctx, email)
	if err != nil {
		if u, err = s.Users.CreateUser(ctx, models.NewUser{Email: email, Roles: access.ImpliedRoles(access.RoleSuperAdmin)}); err != nil {
			b.Fatal(err)
		}
	}
	tok, claims, err := auth.NewToken(secret, u.ID, access.AllPermissions(), time.Now(), time.Hour)
	if err != nil {
		b.Fatal(err)
	}
	if err := s.Change(ctx, func(ctx context.Context) error {
		return s.Auth.RecordAPIToken(ctx, models.NewAPIToken(claims, "bench", nil))
	}); err != nil {
		b.Fatal(err)
	}
	return http.Header{"Authorization": {"Bearer " + tok}}
}

// latencyCase is one request shape of an API benchmark.
type latencyCase struct {
	name string
	url  func(i int) string
}

// runLatency measures each case with apiClients clients and reports p50
// and p99 in milliseconds.
func runLatency(b *testing.B, h http.Header, cases []latencyCase) {
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			lat := apptest.MeasureWith(b, apiClients, c.url, h, http.StatusOK)
			b.ReportMetric(apptest.Millis(apptest.Quantile(lat, 0.5)), "p50-ms")
			b.ReportMetric(apptest.Millis(apptest.Quantile(lat, 0.99)), "p99-ms")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// BenchmarkAdminUsersList measures GET /api/admin/users: the first page,
// pages spread over the whole list (the last included), and searches of
// every length and frequency by name, email domain, provider and whole
// address.
func BenchmarkAdminUsersList(b *testing.B) {
	base, h := benchServer(b)
	total := adminUsersTotal(b, base, h)
	lastPage := (total + 19) / 20
	list := func(q string) func(int) string {
		return func(int) string { return base + "/api/admin/users?" + q }
	}
	terms := []string{"e", "ov", "smith", "garcia", "example.org", "github", "lee", "user1234", someEmail(b, base, h), "nobody-matches-this"}
	runLatency(b, h, []latencyCase{
		{"first-page", list("page=1&limit=20")},
		{"first-page-100", list("page=1&limit=100")},
		{"spread-pages", func(i int) string {
			return fmt.Sprintf("%s/api/admin/users?page=%d&limit=20", base, 1+(i*7919)%lastPage)
		}},
		{"last-page", list(fmt.Sprintf("page=%d&limit=20", lastPage))},
		{"search", func(i int) string {
			return base + "/api/admin/users?search=" + url.QueryEscape(terms[i%len(terms)])
		}},
		{"search-page-5", func(i int) string {
			return base + "/api/admin/users?page=5&search=" + url.QueryEscape(terms[i%len(terms)])
		}},
	})
}

func discardLog() *slog.Logger { return slog.New(slog.DiscardHandler) }

// adminUsersTotal asks the list for its total, once.
func adminUsersTotal(b *testing.B, base string, h http.Header) int {
	req, _ := http.NewRequest(http.MethodGet, base+"/api/admin/users?limit=1", nil)
	req.Header = h
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer res.Body.Close()
	var list api.AdminUserList
	if err := json.NewDecoder(res.Body).Decode(&list); err != nil || list.Pagination.Total == 0 {
		b.Fatalf("the users list answered %d: %v", res.StatusCode, err)
	}
	return list.Pagination.Total
}

// BenchmarkSearch measures /api/search and its two narrow forms: two common
// words, a rare word, a typo, both kinds at once, and users.
func BenchmarkSearch(b *testing.B) {
	base, _ := benchServer(b)
	get := func(path string, qs ...string) func(int) string {
		return func(i int) string { return base + path + "?q=" + url.QueryEscape(qs[i%len(qs)]) }
	}
	common := []string{"garden community", "bike chain", "sourdough starter", "film camera", "trail shoes"}
	runLatency(b, nil, []latencyCase{
		{"posts-two-common-words", get("/api/search/posts", common...)},
		{"posts-rare-word", get("/api/search/posts", "derailleur", "banneton", "varroa")},
		{"posts-typo", get("/api/search/posts", "moderatoin", "sourdogh", "compots")},
		{"all-two-common-words", get("/api/search", common...)},
		{"users", get("/api/search/users", "garcia", "lee", "smith", "nakamura")},
	})
}

// BenchmarkBulkUpdate measures POST /api/v1/admin/users/bulk-update with
// 500 users spread over the whole list, one request at a time (a bulk
// change is one admin's act), alternating isVerified so every request
// changes every row; the audit entry holds all 500 befores and afters.
func BenchmarkBulkUpdate(b *testing.B) {
	base, h := benchServer(b)
	total := adminUsersTotal(b, base, h)
	var ids []string
	for page := range 5 {
		ids = append(ids, v1UserIDs(b, base, h, 1+(page+1)*total/7)...)
	}
	list, _ := json.Marshal(ids)
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		body := fmt.Sprintf(`{"userIds":%s,"changes":{"isVerified":%t}}`, list, i%2 == 0)
		req, _ := http.NewRequest(http.MethodPost, base+"/api/v1/admin/users/bulk-update", strings.NewReader(body))
		req.Header = h.Clone()
		req.Header.Set("Content-Type", "application/json")
		start := time.Now()
		res, err := http.DefaultClient.Do(req)
		if err != nil || res.StatusCode != http.StatusOK {
			b.Fatalf("bulk update: %v %v", err, res)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		lat = append(lat, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(apptest.Millis(apptest.Quantile(lat, 0.5)), "p50-ms")
	b.ReportMetric(apptest.Millis(apptest.Quantile(lat, 0.99)), "p99-ms")
	b.ReportMetric(0, "ns/op")
}

// v1UserIDs reads the ids of the 100 users from offset on.
func v1UserIDs(b *testing.B, base string, h http.Header, offset int) []string {
	req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/api/v1/admin/users?limit=100&offset=%d", base, offset), nil)
	req.Header = h
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer res.Body.Close()
	var page struct{ Data []api.V1User }
	if err := json.NewDecoder(res.Body).Decode(&page); err != nil || len(page.Data) != 100 {
		b.Fatalf("users from %d: %d, %v", offset, res.StatusCode, err)
	}
	ids := make([]string, len(page.Data))
	for i, u := range page.Data {
		ids[i] = u.ID
	}
	return ids
}

// BenchmarkAdminPosts measures GET /api/v1/admin/posts?openReports=true,
// the moderation queue: its first page and pages spread over all of it.
func BenchmarkAdminPosts(b *testing.B) {
	base, h := benchServer(b)
	queue := base + "/api/v1/admin/posts?openReports=true&limit=50"
	total := v1Total(b, base, h, queue)
	runLatency(b, h, []latencyCase{
		{"queue-first-page", func(int) string { return queue }},
		{"queue-spread-pages", spreadPages(queue, total)},
	})
}

// BenchmarkV1PostList measures pages of the versioned admin posts list
// spread over the whole list (any offset up to the last page), newest and
// oldest first, in another order, and filtered by status.
func BenchmarkV1PostList(b *testing.B) {
	rt, base, h := benchRuntime(b)
	list := base + "/api/v1/admin/posts?limit=50"
	total := v1Total(b, base, h, list)
	published := v1Total(b, base, h, list+"&status=published")
	spread := func(name, filter string) latencyCase {
		return latencyCase{name, spreadPages(list+"&"+filter, v1Total(b, base, h, list+"&"+filter))}
	}
	runLatency(b, h, []latencyCase{
		{"first-page", func(int) string { return list }},
		{"spread-newest-first", spreadPages(list, total)},
		{"spread-oldest-first", spreadPages(list+"&sort=created_at&order=asc", total)},
		{"last-page", func(int) string { return fmt.Sprintf("%s&offset=%d", list, max(total-50, 0)) }},
		{"spread-by-title", spreadPages(list+"&sort=title&order=asc", total)},
		{"spread-by-last-update", spreadPages(list+"&sort=updated_at&order=desc", total)},
		{"spread-by-report-count", spreadPages(list+"&sort=report_count&order=desc", total)},
		{"spread-published", spreadPages(list+"&status=published", published)},
		// Filters no counter counts, each with its largest match set.
		spread("spread-published-by-title", "status=published&sort=title&order=asc"),
		spread("spread-published-by-last-update", "status=published&sort=updated_at&order=desc"),
		spread("spread-published-by-report-count", "status=published&sort=report_count&order=desc"),
		spread("spread-busiest-author", "authorId="+strconv.FormatInt(busiestAuthor(b, rt), 10)),
		spread("spread-reported", "reported=true"),
		spread("spread-open-reports", "openReports=true"),
		spread("spread-title-search", "search=the"),
	})
}

// BenchmarkV1PostSearch measures title searches of the versioned admin
// posts list: common, rare and absent terms, terms of one or two letters,
// pages spread over the matches a search keeps (models.TitleSearchCap),
// another order and a status filter beside the term.
func BenchmarkV1PostSearch(b *testing.B) {
	base, h := benchServer(b)
	list := base + "/api/v1/admin/posts?limit=50"
	search := func(extra string, terms ...string) func(int) string {
		return func(i int) string {
			offset := []int{0, 500, 950}[i/len(terms)%3]
			return fmt.Sprintf("%s&search=%s&offset=%d%s", list, url.QueryEscape(terms[i%len(terms)]), offset, extra)
		}
	}
	common := []string{"the", "budget", "tips", "weekend"}
	rare := []string{"singapore", "toaster", "derailleur", "varroa"}
	runLatency(b, h, []latencyCase{
		{"common", search("", common...)},
		{"common-by-title", search("&sort=title&order=asc", common...)},
		{"common-hidden", search("&status=hidden", common...)},
		{"common-review-queue", search("&needsReview=true&sort=report_count&order=desc", common...)},
		{"rare", search("", rare...)},
		{"rare-hidden", search("&status=hidden", rare...)},
		{"common-published", search("&status=published", common...)},
		{"rare-published", search("&status=published", rare...)},
		{"absent", search("", "zzz", "qqqq", "xylophones")},
		{"short-common", search("", "ur", "x", "e", "ga")},
		{"short-rare", search("", "nk", "lb", "kj", "wn")},
		{"short-absent", search("", "qz", "jx", "7")},
	})
}

// busiestAuthor is the author of the most posts in the benchmark's
// database.
func busiestAuthor(b *testing.B, rt *app.Runtime) int64 {
	var id int64
	err := rt.DB.NewSelect().Model((*models.Post)(nil)).Column("author_id").Group("author_id").
		OrderExpr("count(*) DESC").Limit(1).Scan(context.Background(), &id)
	if err != nil {
		b.Fatal(err)
	}
	return id
}

// BenchmarkAuditList measures pages of the audit log spread over all of
// it, the last page, and pages spread over the entries of one action, of
// the admin with the most entries and of one kind of target.
func BenchmarkAuditList(b *testing.B) {
	rt, base, h := benchRuntime(b)
	list := base + api.PathAdminAuditLogs + "?limit=50"
	total := v1Total(b, base, h, list)
	one := func(filter string) latencyCase {
		return latencyCase{"spread-one-" + filter, spreadPages(list+"&"+filter, v1Total(b, base, h, list+"&"+filter))}
	}
	var busiest int64
	err := rt.DB.NewSelect().Model((*models.AuditEntry)(nil)).Column("admin_id").Where("admin_id IS NOT NULL").
		Group("admin_id").OrderExpr("count(*) DESC").Limit(1).Scan(context.Background(), &busiest)
	if err != nil {
		b.Fatal(err)
	}
	runLatency(b, h, []latencyCase{
		{"first-page", func(int) string { return list }},
		{"spread", spreadPages(list, total)},
		{"last-page", func(int) string { return fmt.Sprintf("%s&offset=%d", list, max(total-50, 0)) }},
		one("action=user.update"),
		one("adminId=" + strconv.FormatInt(busiest, 10)),
		one("targetType=user"),
		// Two or three filters at once, one target, a time window.
		one("adminId=" + strconv.FormatInt(busiest, 10) + "&action=user.update"),
		one("adminId=" + strconv.FormatInt(busiest, 10) + "&targetType=user"),
		one("action=user.update&targetType=user"),
		one("adminId=" + strconv.FormatInt(busiest, 10) + "&action=user.update&targetType=user"),
		one("targetType=user&targetId=" + busiestTarget(b, rt)),
		one("startDate=" + windowStart(b, rt).Format(time.RFC3339) + "&endDate=" + windowStart(b, rt).AddDate(0, 1, 0).Format(time.RFC3339)),
	})
}

// busiestTarget is the user whose audit entries are most numerous.
func busiestTarget(b *testing.B, rt *app.Runtime) string {
	var id string
	err := rt.DB.NewSelect().Model((*models.AuditEntry)(nil)).Column("target_id").Where("target_type = 'user'").
		Group("target_id").OrderExpr("count(*) DESC").Limit(1).Scan(context.Background(), &id)
	if err != nil {
		b.Fatal(err)
	}
	return id
}

// windowStart begins a month of the audit log that ends a month before
// its newest entry: a window in its middle.
func windowStart(b *testing.B, rt *app.Runtime) time.Time {
	var newest time.Time
	err := rt.DB.NewSelect().Model((*models.AuditEntry)(nil)).ColumnExpr("max(created_at)").Scan(context.Background(), &newest)
	if err != nil {
		b.Fatal(err)
	}
	return newest.UTC().Truncate(24*time.Hour).AddDate(0, -2, 0)
}

// spreadPages gives the i-th request of a walk over pages of url spread
// over all of its n items.
func spreadPages(url string, n int) func(int) string {
	return func(i int) string { return fmt.Sprintf("%s&offset=%d", url, (i*7919*257)%max(n, 1)) }
}

// v1Total is how many items a versioned list holds.
func v1Total(b *testing.B, base string, h http.Header, url string) int {
	b.Helper()
	req, _ := http.NewRequest(http.MethodGet, url+"&limit=1", nil)
	req.Header = h
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer res.Body.Close()
	var first struct{ Meta api.V1Meta }
	if err := json.NewDecoder(res.Body).Decode(&first); err != nil || first.Meta.Pagination.Total == 0 {
		b.Fatalf("%s answered %d: %v", url, res.StatusCode, err)
	}
	return first.Meta.Pagination.Total
}

// BenchmarkBroadcast measures a broadcast to every user: how long POST
// /api/v1/admin/notifications/broadcast takes to accept it, and checks
// that the newest user's inbox holds it as soon as it answers. Each
// round's broadcast is deleted afterwards.
func BenchmarkBroadcast(b *testing.B) {
	rt, base, h := benchRuntime(b)
	ctx := context.Background()
	var newest int64
	if err := rt.DB.NewSelect().Model((*models.User)(nil)).ColumnExpr("max(id)").Scan(ctx, &newest); err != nil {
		b.Fatal(err)
	}
	var accept []time.Duration
	for i := range b.N {
		start := time.Now()
		id := postBroadcast(b, base, h, fmt.Sprintf(`{"title":"Bench %d","message":"To everyone","targets":["all"]}`, i))
		accept = append(accept, time.Since(start))
		b.StopTimer()
		items, _, _, err := rt.Store.Notices.Inbox(ctx, newest, 100, 0)
		if err != nil || !slices.ContainsFunc(items, func(it models.InboxItem) bool { return it.Broadcast && fmt.Sprint(it.ID) == id }) {
			b.Fatalf("the newest user's inbox lacks broadcast %s right after the answer: %+v (%v)", id, items, err)
		}
		if _, err := rt.DB.NewDelete().Model((*models.Broadcast)(nil)).Where("id = ?", id).Exec(ctx); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.ReportMetric(apptest.Millis(slices.Max(accept)), "accept-max-ms")
	b.ReportMetric(0, "ns/op")
}

func postBroadcast(b *testing.B, base string, h http.Header, body string) string {
	req, _ := http.NewRequest(http.MethodPost, base+api.PathAdminV1Broadcast, strings.NewReader(body))
	req.Header = h.Clone()
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != http.StatusCreated {
		b.Fatalf("broadcast: %v %v", err, res)
	}
	defer res.Body.Close()
	var out struct{ Data struct{ ID string } }
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		b.Fatal(err)
	}
	return out.Data.ID
}

// BenchmarkV1UserList measures GET /api/v1/admin/users without a search:
// pages spread over the whole list (offset up to the last page) in the
// default order, by username and by last sign-in, filtered by role, and
// the last page.
func BenchmarkV1UserList(b *testing.B) {
	base, h := benchServer(b)
	total := v1UsersTotal(b, base, h)
	spread := func(q string) func(int) string {
		return func(i int) string {
			return fmt.Sprintf("%s/api/v1/admin/users?limit=50&offset=%d%s", base, (i*7919)%total, q)
		}
	}
	runLatency(b, h, []latencyCase{
		{"spread-offsets", spread("")},
		{"spread-offsets-by-username", spread("&sort=username")},
		{"spread-offsets-by-last-login", spread("&sort=last_login_at&order=desc")},
		{"last-page", func(int) string { return fmt.Sprintf("%s/api/v1/admin/users?limit=50&offset=%d", base, total-total%50) }},
		{"role-user-deep", func(i int) string {
			return fmt.Sprintf("%s/api/v1/admin/users?limit=50&role=user&offset=%d", base, (i*7919)%(total/2))
		}},
	})
}

// v1UsersTotal reads the versioned list's total.
func v1UsersTotal(b *testing.B, base string, h http.Header) int {
	req, _ := http.NewRequest(http.MethodGet, base+"/api/v1/admin/users?limit=1", nil)
	req.Header = h
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer res.Body.Close()
	var first struct{ Meta api.V1Meta }
	if err := json.NewDecoder(res.Body).Decode(&first); err != nil || first.Meta.Pagination.Total == 0 {
		b.Fatalf("the users list answered %d: %v", res.StatusCode, err)
	}
	return first.Meta.Pagination.Total
}

// BenchmarkV1UserSearch measures GET /api/v1/admin/users with a search
// term, across term lengths and frequencies: one letter (nearly everyone),
// two letters, a term a third of the users hold (their email domain), one
// in a hundred (a surname), one in a thousand, a whole address (one user),
// none; sorted by post count (most first), with a deep page, the default
// order, a username sort, and status and role filters.
func BenchmarkV1UserSearch(b *testing.B) {
	base, h := benchServer(b)
	list := base + "/api/v1/admin/users?limit=50&sort=post_count&order=desc&search="
	address := url.QueryEscape(someEmail(b, base, h))
	runLatency(b, h, []latencyCase{
		{"one-letter", func(int) string { return list + "e" }},
		{"two-letters", func(int) string { return list + "ov" }},
		{"common-term", func(int) string { return list + "example.org" }},
		{"one-in-a-hundred", func(int) string { return list + "petrov" }},
		{"one-in-a-thousand", func(int) string { return list + "ricci5" }},
		{"whole-address", func(int) string { return list + address }},
		{"no-match", func(int) string { return list + "zzq" }},
		{"common-term-page-4", func(int) string { return list + "example.org&offset=150" }},
		{"common-term-deep", func(i int) string { return list + fmt.Sprintf("example.org&offset=%d", (i*7919)%100_000) }},
		{"common-term-newest", func(int) string { return base + "/api/v1/admin/users?limit=50&search=example.org" }},
		{"one-letter-by-username", func(int) string { return base + "/api/v1/admin/users?limit=50&sort=username&search=a" }},
		{"banned-with-term", func(int) string { return base + "/api/v1/admin/users?limit=50&status=banned&search=example" }},
		{"moderators-with-term", func(int) string { return base + "/api/v1/admin/users?limit=50&role=moderator&search=a" }},
		// A new term every request (100 of them in turn, more than the
		// index remembers), so each one is scanned for.
		{"new-term-two-digits", func(i int) string { return list + fmt.Sprintf("%02d", (i*37)%100) }},
		{"new-term-letter-pairs", func(i int) string { return list + string(rune('a'+(i*7)%26)) + string(rune('a'+(i*11)%26)) }},
	})
}

// someEmail is the newest user's email address.
func someEmail(b *testing.B, base string, h http.Header) string {
	req, _ := http.NewRequest(http.MethodGet, base+"/api/v1/admin/users?limit=1", nil)
	req.Header = h
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer res.Body.Close()
	var first struct{ Data []struct{ Email string } }
	if err := json.NewDecoder(res.Body).Decode(&first); err != nil || len(first.Data) == 0 {
		b.Fatalf("the users list answered %d: %v", res.StatusCode, err)
	}
	return first.Data[0].Email
}

// BenchmarkAnalytics measures GET /api/v1/admin/analytics with every
// section, for a day (by the hour), a week, a month and a year.
func BenchmarkAnalytics(b *testing.B) {
	base, h := benchServer(b)
	url := base + "/api/v1/admin/analytics?metrics=users,content,engagement,moderation&period="
	var cases []latencyCase
	for _, p := range []string{"day", "week", "month", "year"} {
		cases = append(cases, latencyCase{p, func(int) string { return url + p }})
	}
	runLatency(b, h, cases)
}

// BenchmarkActivityReport measures pages of the user-activity report
// (JSON) over the last 30 days (the default window) and the 90 days the
// seeded events span: the first page, pages at offsets spread over every
// active user, and the last page.
func BenchmarkActivityReport(b *testing.B) {
	base, h := benchServer(b)
	var cases []latencyCase
	for _, days := range []int{30, 90} {
		window := fmt.Sprintf("%s%s?startDate=%s", base, api.PathAdminV1ActivityRep,
			time.Now().UTC().AddDate(0, 0, -days).Format(time.DateOnly))
		total := v1Total(b, base, h, window)
		page := func(offset int) string { return fmt.Sprintf("%s&limit=50&offset=%d", window, offset) }
		cases = append(cases,
			latencyCase{fmt.Sprintf("%dd-first-page", days), func(int) string { return page(0) }},
			latencyCase{fmt.Sprintf("%dd-spread-offsets", days), func(i int) string { return page((i * 7919) % total) }},
			latencyCase{fmt.Sprintf("%dd-last-page", days), func(int) string { return page(total - total%50) }})
	}
	runLatency(b, h, cases)
}

// BenchmarkActivityCSV streams the user-activity CSV of the 90 days the
// seeded events span, every active user, one request at a time, and
// reports rows per second as the client reads them.
func BenchmarkActivityCSV(b *testing.B) {
	base, h := benchServer(b)
	start := time.Now().UTC().AddDate(0, 0, -90).Format(time.DateOnly)
	var rows int
	var took time.Duration
	for range b.N {
		req, _ := http.NewRequest(http.MethodGet, base+"/api/v1/admin/reports/user-activity?format=csv&startDate="+start, nil)
		req.Header = h
		begin := time.Now()
		res, err := http.DefaultClient.Do(req)
		if err != nil || res.StatusCode != http.StatusOK {
			b.Fatalf("report: %v %v", err, res)
		}
		n, err := countLines(res.Body)
		res.Body.Close()
		if err != nil {
			b.Fatal(err)
		}
		rows, took = rows+n-1, took+time.Since(begin)
	}
	b.ReportMetric(float64(rows)/took.Seconds(), "rows/s")
	b.ReportMetric(float64(rows)/float64(b.N), "rows")
	b.ReportMetric(0, "ns/op")
}

func countLines(r io.Reader) (int, error) {
	buf := make([]byte, 64<<10)
	n := 0
	for {
		k, err := r.Read(buf)
		n += bytes.Count(buf[:k], []byte{'\n'})
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

// BenchmarkMaintenance runs rebuild_search of the posts and a backup
// through the API, once each per iteration, and reports how long each
// job took and the backup's size.
func BenchmarkMaintenance(b *testing.B) {
	rt, base, h := benchRuntime(b)
	if err := rt.StartJobs(context.Background()); err != nil {
		b.Fatal(err)
	}
	for range b.N {
		for _, c := range []struct{ name, body string }{
			{"rebuild-posts-s", `{"action":"rebuild_search","scope":"posts"}`},
			{"backup-s", `{"action":"backup_database"}`},
		} {
			start := time.Now()
			job := runBenchJob(b, base, h, c.body)
			b.ReportMetric(time.Since(start).Seconds(), c.name)
			if size, ok := job.Result["sizeBytes"].(float64); ok {
				b.ReportMetric(size/1e6, "backup-MB")
			}
		}
	}
	b.ReportMetric(0, "ns/op")
}

type benchJob struct {
	Status string
	Error  *string
	Result map[string]any
}

func runBenchJob(b *testing.B, base string, h http.Header, body string) benchJob {
	req, _ := http.NewRequest(http.MethodPost, base+api.PathAdminV1Maintenance, strings.NewReader(body))
	req.Header = h.Clone()
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != http.StatusAccepted {
		b.Fatalf("%s: %v %v", body, err, res)
	}
	var queued struct{ Data struct{ JobID string } }
	json.NewDecoder(res.Body).Decode(&queued)
	res.Body.Close()
	for {
		req, _ := http.NewRequest(http.MethodGet, base+api.PathAdminV1Jobs+"/"+queued.Data.JobID, nil)
		req.Header = h
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		var got struct{ Data benchJob }
		json.NewDecoder(res.Body).Decode(&got)
		res.Body.Close()
		switch got.Data.Status {
		case "completed":
			return got.Data
		case "failed":
			b.Fatalf("%s failed: %s", body, *got.Data.Error)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// BenchmarkRebuildSearchWrites edits posts, one every 10 ms, first for
// five seconds alone and then while rebuild_search of the posts runs, and
// reports the slowest and the 99th percentile edit of each phase: how long
// the rebuild makes a writer wait.
func BenchmarkRebuildSearchWrites(b *testing.B) {
	rt, base, h := benchRuntime(b)
	if err := rt.StartJobs(context.Background()); err != nil {
		b.Fatal(err)
	}
	var top int64
	if err := rt.Store.DB.NewRaw("SELECT max(id) FROM posts").Scan(context.Background(), &top); err != nil {
		b.Fatal(err)
	}
	for range b.N {
		alone := editPostsWhile(b, rt.Store, top, func() { time.Sleep(5 * time.Second) })
		var took time.Duration
		rebuilding := editPostsWhile(b, rt.Store, top, func() {
			start := time.Now()
			runBenchJob(b, base, h, `{"action":"rebuild_search","scope":"posts"}`)
			took = time.Since(start)
		})
		b.ReportMetric(took.Seconds(), "rebuild-s")
		for name, lat := range map[string][]time.Duration{"alone": alone, "rebuilding": rebuilding} {
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, name+"-p99-ms")
			b.ReportMetric(float64(lat[len(lat)-1].Microseconds())/1000, name+"-max-ms")
			b.ReportMetric(float64(len(lat)), name+"-edits")
		}
	}
	b.ReportMetric(0, "ns/op")
}

// editPostsWhile retitles a random post of the first top every 10 ms
// until during returns, and gives each edit's time.
func editPostsWhile(b *testing.B, s *models.Store, top int64, during func()) []time.Duration {
	stop, done := make(chan struct{}), make(chan []time.Duration)
	go func() {
		var lat []time.Duration
		for i := 0; ; i++ {
			select {
			case <-stop:
				done <- lat
				return
			case <-time.After(10 * time.Millisecond):
			}
			title, id := fmt.Sprintf("Edited while measuring %d", i), 1+rand.Int64N(top)
			start := time.Now()
			err := s.Change(context.Background(), func(ctx context.Context) error {
				_, err := s.Posts.EditPost(ctx, id, models.PostEdit{Title: &title})
				if errors.Is(err, models.ErrNotFound) {
					return nil
				}
				return err
			})
			if err != nil {
				b.Error(err)
			}
			lat = append(lat, time.Since(start))
		}
	}()
	during()
	close(stop)
	return <-done
}
