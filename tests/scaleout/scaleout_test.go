// Package scaleout proves docs/operations.md, "Scaling out": three `plaza
// serve` processes on one PostgreSQL database and one Redis behave as one
// Plaza. It builds the real binary, starts it three times on 127.0.0.1 and
// talks to the three over HTTP; nothing else is ever contacted.
package scaleout

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/internal/redistest"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

const (
	// adminUsersLimit is RATE_LIMIT_ADMIN_USERS: GET /api/admin/users per
	// caller and hour, a route only the rate-limit subtest calls.
	adminUsersLimit = 7
	password        = "scaleout-password-1234"
	jwtSecret       = "scaleout-jwt-secret-of-at-least-32-characters"
)

var (
	buildOnce sync.Once
	binary    string
	buildErr  error
	buildDir  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// plazaBinary builds plaza once per test process.
func plazaBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		if buildDir, buildErr = os.MkdirTemp("", "plaza-scaleout-"); buildErr != nil {
			return
		}
		binary = filepath.Join(buildDir, "plaza")
		cmd := exec.Command("go", "build", "-o", binary, ".")
		cmd.Dir = "../.."
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binary
}

// cluster is one database, one Redis and the instances serving them.
type cluster struct {
	t       *testing.T
	bin     string
	env     []string
	store   *models.Store
	insts   []*instance
	client  *http.Client
	super   string // bearer token of a super admin (holds locks, queues jobs)
	admin   string // bearer token of another admin
	hash    string // password hash of the users the test makes
	redis   *redis.Client
	prefix  string // REDIS_KEY_PREFIX of this run
	userSeq int
}

type instance struct {
	name string
	url  string
	cmd  *exec.Cmd
	logs *syncBuffer
	done chan struct{} // closed when the process has exited
	err  error         // its Wait error, once done
}

type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestThreeInstances(t *testing.T) {
	db, dbURL := dbtest.OpenURL(t, config.DialectPostgres)
	c := &cluster{t: t, store: models.NewStore(db), client: &http.Client{Timeout: 20 * time.Second}}
	redisEnv := []string{"REDIS_URL=" + redisURL(t), "REDIS_KEY_PREFIX=" + c.redisPrefix(t)}
	c.bin = plazaBinary(t) // once both servers answer
	c.env = append(append(baseEnv(), redisEnv...), "DATABASE_URL="+dbURL,
		"RATE_LIMIT_ADMIN_USERS="+fmt.Sprint(adminUsersLimit),
		// Sign-ins from 127.0.0.1 and the load's events are many.
		"RATE_LIMIT_API_ANONYMOUS=100000", "RATE_LIMIT_ANALYTICS_EVENTS_PER_MINUTE=10000000")
	c.super = c.adminToken("super@scaleout.test", "super_admin", "admin:super,admin:read,admin:write,admin:delete,users:manage")
	c.admin = c.adminToken("admin@scaleout.test", "admin", "admin:read,admin:write,admin:delete,users:manage")
	hash, err := auth.HashPassword(password)
	if err != nil {
		t.Fatal(err)
	}
	c.hash = hash
	c.start("A", "B", "C")

	t.Run("rate limits are counted once", c.rateLimits)
	t.Run("a lock taken on one is 423 on another", c.locks)
	t.Run("a ban ends the sessions everywhere at once", c.ban)
	t.Run("a maintenance job runs once", c.maintenanceOnce)
	t.Run("a scheduled broadcast is sent once", c.broadcastOnce)
	t.Run("SIGTERM under load loses nothing", c.sigterm)
}

// baseEnv is what every plaza process gets: no inherited configuration,
// quote sources off (a test never reaches the internet), secrets shared.
func baseEnv() []string {
	return []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "TMPDIR=" + os.TempDir(),
		"PLAZA_ENV=test", "LOG_LEVEL=info", "SEED_DEMO=false", "ADDR=127.0.0.1:0",
		"JWT_SECRET=" + jwtSecret, "SESSION_SECRET=scaleout-session-secret-of-32-characters",
		"QUOTE_SOURCE_ZENQUOTES_URL=off", "QUOTE_SOURCE_QUOTABLE_URL=off",
		"QUOTE_SOURCE_DUMMYJSON_URL=off", "QUOTE_SOURCE_NINJAS_URL=off"}
}

// redisURL is the Redis server tests use (internal/redistest).
func redisURL(t *testing.T) string {
	t.Helper()
	redistest.Client(t) // skips, or fails under REQUIRE_REDIS=1, when Redis does not answer
	return cmp.Or(os.Getenv("TEST_REDIS_URL"), "redis://127.0.0.1:6379/15")
}

// redisPrefix is a key prefix of this run alone: every run starts its user
// ids from 1 again, and other runs may share the Redis database. Its keys
// are deleted when the test ends.
func (c *cluster) redisPrefix(t *testing.T) string {
	t.Helper()
	prefix := fmt.Sprintf("scaleout:%d", time.Now().UnixNano())
	client := redistest.Client(t)
	c.redis, c.prefix = client, prefix
	t.Cleanup(func() {
		ctx := context.Background()
		keys, err := client.Keys(ctx, prefix+":*").Result()
		if err == nil && len(keys) > 0 {
			err = client.Del(ctx, keys...).Err()
		}
		if err != nil {
			t.Errorf("remove the run's Redis keys: %v", err)
		}
	})
	return prefix
}

// plaza runs a command of the binary to completion.
func (c *cluster) plaza(args ...string) string {
	c.t.Helper()
	cmd := exec.Command(c.bin, args...)
	cmd.Env = c.env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		c.t.Fatalf("plaza %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// adminToken creates an admin with `plaza user create` and returns a
// token made by `plaza token create`.
func (c *cluster) adminToken(email, role, perms string) string {
	c.plaza("user", "create", "--email", email, "--password", password, "--role", role)
	return strings.TrimSpace(c.plaza("token", "create", "--email", email, "--permissions", perms, "--ttl", "1h"))
}

var readyAddr = regexp.MustCompile(`msg="Plaza is ready" addr=(\S+)`)

// start runs one `plaza serve` per name and waits until each answers
// /api/health.
func (c *cluster) start(names ...string) {
	c.t.Helper()
	for _, name := range names {
		in := &instance{name: name, logs: &syncBuffer{}, done: make(chan struct{})}
		in.cmd = exec.Command(c.bin, "serve")
		in.cmd.Env = c.env
		in.cmd.Stdout, in.cmd.Stderr = in.logs, in.logs
		if err := in.cmd.Start(); err != nil {
			c.t.Fatal(err)
		}
		go func() { in.err = in.cmd.Wait(); close(in.done) }()
		c.t.Cleanup(func() { in.stop(c.t) })
		c.insts = append(c.insts, in)
	}
	for _, in := range c.insts {
		c.waitReady(in)
	}
}

func (c *cluster) waitReady(in *instance) {
	c.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if in.url == "" {
			if m := readyAddr.FindStringSubmatch(in.logs.String()); m != nil {
				in.url = "http://" + m[1]
			}
		}
		if in.url != "" {
			if res, err := c.client.Get(in.url + "/api/health"); err == nil {
				res.Body.Close()
				if res.StatusCode == http.StatusOK {
					return
				}
			}
		}
		select {
		case <-in.done:
			c.t.Fatalf("instance %s exited before it was ready (%v):\n%s", in.name, in.err, in.logs)
		case <-time.After(20 * time.Millisecond):
		}
	}
	c.t.Fatalf("instance %s was not ready within 60 s:\n%s", in.name, in.logs)
}

// stop ends the process with SIGTERM, killing it if it does not exit.
func (in *instance) stop(t *testing.T) {
	select {
	case <-in.done:
		return
	default:
	}
	in.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-in.done:
	case <-time.After(30 * time.Second):
		in.cmd.Process.Kill()
		<-in.done
		t.Errorf("instance %s did not stop within 30 s of SIGTERM:\n%s", in.name, in.logs)
	}
}

// answer is one HTTP response, its body decoded.
type answer struct {
	status int
	body   map[string]any
	cookie string
}

func (a answer) data() map[string]any {
	d, _ := a.body["data"].(map[string]any)
	return d
}

// do sends a JSON request; auth is a bearer token or a cookie
// ("plaza_session=…").
func (c *cluster) do(in *instance, method, path, auth string, body any) answer {
	c.t.Helper()
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			c.t.Fatal(err)
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, in.url+path, r)
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	switch {
	case strings.HasPrefix(auth, "plaza_session="):
		req.Header.Set("Cookie", auth)
	case auth != "":
		req.Header.Set("Authorization", "Bearer "+auth)
	}
	res, err := c.client.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s on %s: %v", method, path, in.name, err)
	}
	defer res.Body.Close()
	a := answer{status: res.StatusCode}
	raw, _ := io.ReadAll(res.Body)
	json.Unmarshal(raw, &a.body)
	for _, ck := range res.Cookies() {
		if ck.Name == "plaza_session" {
			a.cookie = ck.Name + "=" + ck.Value
		}
	}
	return a
}

// user creates a plain user and returns its id.
func (c *cluster) user() (int64, string) {
	c.t.Helper()
	c.userSeq++
	email := fmt.Sprintf("user%d@scaleout.test", c.userSeq)
	u, err := c.store.Users.CreateUser(context.Background(), models.NewUser{Email: email,
		Username: fmt.Sprintf("user%d", c.userSeq), PasswordHash: c.hash, IsVerified: true})
	if err != nil {
		c.t.Fatal(err)
	}
	return u.ID, email
}

// signIn signs a user in through an instance and returns the cookie.
func (c *cluster) signIn(in *instance, email string) string {
	c.t.Helper()
	a := c.do(in, http.MethodPost, "/api/auth/signin", "", map[string]string{"email": email, "password": password})
	if a.status != http.StatusOK || a.cookie == "" {
		c.t.Fatalf("sign-in of %s through %s: %d %v", email, in.name, a.status, a.body)
	}
	return a.cookie
}

// rateLimits: requests spread over the three instances spend one window.
func (c *cluster) rateLimits(t *testing.T) {
	var ok, limited int
	limitedOn := map[string]bool{}
	for i := range adminUsersLimit + 2*len(c.insts) {
		in := c.insts[i%len(c.insts)]
		a := c.do(in, http.MethodGet, "/api/admin/users", c.admin, nil)
		switch {
		case a.status == http.StatusOK && limited == 0:
			ok++
		case a.status == http.StatusTooManyRequests:
			limited++
			limitedOn[in.name] = true
		default:
			t.Fatalf("request %d through %s: %d %v after %d successes and %d refusals", i+1, in.name, a.status, a.body, ok, limited)
		}
	}
	if ok != adminUsersLimit || len(limitedOn) != len(c.insts) {
		t.Errorf("%d requests succeeded and the refusals came from %v; want exactly %d, then 429 on every instance",
			ok, limitedOn, adminUsersLimit)
	}
	keys, err := c.redis.Keys(context.Background(), c.prefix+":rl:admin_users*").Result()
	if err != nil || len(keys) != 1 {
		t.Errorf("Redis keys of the window: %v, %v; want one under REDIS_KEY_PREFIX %s", keys, err, c.prefix)
	}
}

// locks: a lock taken through A holds on B and C.
func (c *cluster) locks(t *testing.T) {
	a, b, cc := c.insts[0], c.insts[1], c.insts[2]
	id, _ := c.user()
	target := fmt.Sprint(id)
	path := "/api/v1/admin/users/" + target
	if r := c.do(a, http.MethodPost, "/api/v1/admin/locks", c.super, map[string]string{"type": "user", "id": target}); r.status != http.StatusCreated {
		t.Fatalf("take the lock through A: %d %v", r.status, r.body)
	}
	for _, in := range []*instance{b, cc} {
		r := c.do(in, http.MethodPut, path, c.admin, map[string]string{"notes": "another admin's note"})
		e, _ := r.body["error"].(map[string]any)
		if r.status != http.StatusLocked || e["code"] != "RESOURCE_LOCKED" || e["lockedBy"] != "super" {
			t.Errorf("another admin's write through %s: %d %v; want 423 RESOURCE_LOCKED", in.name, r.status, r.body)
		}
	}
	if r := c.do(cc, http.MethodPut, path, c.super, map[string]string{"notes": "the holder's note"}); r.status != http.StatusOK {
		t.Errorf("the holder's write through C: %d %v; want 200", r.status, r.body)
	}
	if r := c.do(b, http.MethodDelete, "/api/v1/admin/locks/user/"+target, c.super, nil); r.status != http.StatusOK {
		t.Errorf("release through B: %d %v", r.status, r.body)
	}
	if r := c.do(a, http.MethodPut, path, c.admin, map[string]string{"notes": "after the release"}); r.status != http.StatusOK {
		t.Errorf("another admin's write after the release, through A: %d %v; want 200", r.status, r.body)
	}
}

// ban: a session made on B, remembered by every instance, is refused on A
// at the very next request after a ban through A, and on B and C as soon
// as the database's news reaches them: well within a second, never only
// when the caches' 5-second TTL runs out.
func (c *cluster) ban(t *testing.T) {
	a, b, cc := c.insts[0], c.insts[1], c.insts[2]
	id, email := c.user()
	cookie := c.signIn(b, email)
	for _, in := range c.insts { // every instance now remembers the caller
		if r := c.do(in, http.MethodGet, "/api/notifications", cookie, nil); r.status != http.StatusOK {
			t.Fatalf("signed-in request through %s: %d %v", in.name, r.status, r.body)
		}
	}
	r := c.do(a, http.MethodPost, fmt.Sprintf("/api/v1/admin/users/%d/ban", id), c.super,
		map[string]string{"action": "ban", "reason": "spam from every instance"})
	if r.status != http.StatusOK {
		t.Fatalf("ban through A: %d %v", r.status, r.body)
	}
	if r := c.do(a, http.MethodGet, "/api/notifications", cookie, nil); r.status != http.StatusUnauthorized {
		t.Errorf("the banned user's next request through A: %d %v; want 401", r.status, r.body)
	}
	for _, in := range []*instance{cc, b} {
		waitFor(t, "the banned user refused through "+in.name, time.Second, func() bool {
			return c.do(in, http.MethodGet, "/api/notifications", cookie, nil).status == http.StatusUnauthorized
		})
	}
}

// waitFor polls cond until it holds, failing after the deadline.
func waitFor(t *testing.T, what string, d time.Duration, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(d); !cond(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, d)
		}
	}
}

// ranOnce checks River's record of a job, once River has finished with it
// (it marks the job after the work has committed): completed at its first
// attempt, by one instance.
func (c *cluster) ranOnce(t *testing.T, kind, argsWhere string, arg any) {
	t.Helper()
	var rows []struct {
		State       string   `bun:"state"`
		Attempt     int      `bun:"attempt"`
		AttemptedBy []string `bun:"attempted_by,array"`
	}
	waitFor(t, "River finished with the "+kind+" job", 10*time.Second, func() bool {
		rows = rows[:0]
		err := c.store.DB.NewRaw(`SELECT state, attempt, attempted_by FROM river_job WHERE kind = ? AND `+argsWhere, kind, arg).
			Scan(context.Background(), &rows)
		if err != nil {
			t.Fatal(err)
		}
		return len(rows) != 1 || (rows[0].State != "running" && rows[0].State != "available" && rows[0].State != "scheduled")
	})
	if len(rows) != 1 || rows[0].State != "completed" || rows[0].Attempt != 1 || len(rows[0].AttemptedBy) != 1 {
		t.Errorf("river jobs of kind %s: %+v; want one, completed at its first attempt by one instance", kind, rows)
	}
}

// maintenanceOnce: a job queued through A is worked once, by one instance.
func (c *cluster) maintenanceOnce(t *testing.T) {
	a, b := c.insts[0], c.insts[1]
	r := c.do(a, http.MethodPost, "/api/v1/admin/system/maintenance", c.super,
		map[string]string{"action": "cache_clear", "scope": "sessions"})
	jobID, _ := r.data()["jobId"].(string)
	if r.status != http.StatusAccepted || jobID == "" {
		t.Fatalf("queue through A: %d %v", r.status, r.body)
	}
	var job map[string]any
	waitFor(t, "job "+jobID+" completed", 30*time.Second, func() bool {
		r := c.do(b, http.MethodGet, "/api/v1/admin/system/jobs/"+jobID, c.super, nil)
		job = r.data()
		return job["status"] == "completed" || job["status"] == "failed"
	})
	if job["status"] != "completed" || job["attempts"] != float64(1) {
		t.Errorf("job %v; want completed with one attempt", job)
	}
	c.ranOnce(t, "maintenance", "args->>'id' = ?", jobID)
}

// broadcastOnce: a broadcast scheduled a moment ahead is sent once,
// whichever instance takes its job: one note to its sender, and once in
// each target's inbox.
func (c *cluster) broadcastOnce(t *testing.T) {
	b := c.insts[1]
	var (
		targets []string
		ids     []int64
	)
	for range 3 {
		id, _ := c.user()
		ids = append(ids, id)
		targets = append(targets, fmt.Sprintf("user:%d", id))
	}
	r := c.do(b, http.MethodPost, "/api/v1/admin/notifications/broadcast", c.super, map[string]any{
		"title": "Scheduled", "message": "Once each", "targets": targets,
		"schedule": time.Now().Add(2 * time.Second).UTC().Format(time.RFC3339Nano)})
	if r.status != http.StatusCreated || r.data()["status"] != "scheduled" {
		t.Fatalf("schedule through B: %d %v", r.status, r.body)
	}
	id := fmt.Sprint(r.data()["id"])
	ctx := context.Background()
	waitFor(t, "broadcast "+id+" sent by its job", 30*time.Second, func() bool {
		var status string
		err := c.store.DB.NewSelect().Model((*models.Broadcast)(nil)).Column("status").Where("id = ?", id).Scan(ctx, &status)
		if err != nil {
			t.Fatal(err)
		}
		return status == models.BroadcastSent
	})
	c.ranOnce(t, "broadcast", "(args->>'id')::bigint = ?", id)
	notes, err := c.store.DB.NewSelect().Model((*models.Notification)(nil)).
		Where("title = 'Broadcast sent' AND message LIKE ?", `"Scheduled"%`).Count(ctx)
	if err != nil || notes != 1 {
		t.Errorf("the sender was told %d times (%v), want once", notes, err)
	}
	for _, u := range ids {
		items, _, _, err := c.store.Notices.Inbox(ctx, u, 100, 0)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, it := range items {
			if it.Broadcast && fmt.Sprint(it.ID) == id {
				n++
			}
		}
		if n != 1 {
			t.Errorf("user %d's inbox holds the broadcast %d times: %+v", u, n, items)
		}
	}
}

// loadResult is what the load's clients saw.
type loadResult struct {
	mu        sync.Mutex
	ids       []string
	failures  []string       // answers other than 202
	connErrs  map[string]int // by instance
	acksAfter map[string]int // acknowledged requests sent after the SIGTERM, by instance
	acks      map[string]int
}

// sigterm: clients send analytics events round-robin; one instance is
// stopped midway; nothing acknowledged is lost and nothing fails.
func (c *cluster) sigterm(t *testing.T) {
	const clients, perRequest = 4, 5
	victim := c.insts[2]
	cookies := make([]string, clients)
	for i := range cookies {
		_, email := c.user()
		cookies[i] = c.signIn(c.insts[i%len(c.insts)], email)
	}
	body := []byte(`{"events":[` + strings.TrimSuffix(strings.Repeat(`{"event_type":"page_view","event_data":{"path":"/scaleout"}},`, perRequest), ",") + `]}`)
	res := &loadResult{connErrs: map[string]int{}, acksAfter: map[string]int{}, acks: map[string]int{}}
	var (
		termed = make(chan struct{})
		stop   = make(chan struct{})
		wg     sync.WaitGroup
	)
	for i := range clients {
		wg.Go(func() { c.send(cookies[i], body, i, res, termed, stop) })
	}
	begin := time.Now()
	// Midway, once every instance has acknowledged some events.
	waitFor(t, "events acknowledged by every instance", 20*time.Second, func() bool {
		res.mu.Lock()
		defer res.mu.Unlock()
		return time.Since(begin) > time.Second && res.acks["A"] > 0 && res.acks["B"] > 0 && res.acks["C"] > 0
	})
	finish := c.inFlight(t, victim, cookies[0], body)
	termAt := time.Now()
	close(termed)
	if err := victim.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "instance C shutting down", 10*time.Second, func() bool {
		return strings.Contains(victim.logs.String(), "shutting down")
	})
	ids := finish()
	res.mu.Lock()
	res.ids = append(res.ids, ids...)
	res.mu.Unlock()
	select {
	case <-victim.done:
	case <-time.After(30 * time.Second):
		t.Fatalf("instance C did not exit within 30 s of SIGTERM:\n%s", victim.logs)
	}
	// The others keep serving for a while after C is gone.
	waitFor(t, "acknowledgements from A and B after C exited", 20*time.Second, func() bool {
		res.mu.Lock()
		defer res.mu.Unlock()
		return time.Since(termAt) > time.Second && res.acksAfter["A"] > 5 && res.acksAfter["B"] > 5
	})
	close(stop)
	wg.Wait()

	if victim.err != nil {
		t.Errorf("instance C exited with %v after SIGTERM, want 0:\n%s", victim.err, victim.logs)
	}
	if len(res.failures) > 0 {
		t.Errorf("%d answers were not 202, e.g. %s", len(res.failures), res.failures[0])
	}
	for name, n := range res.connErrs {
		if name != victim.name {
			t.Errorf("%d connection errors from instance %s, which was never stopped", n, name)
		}
	}
	missing, err := c.store.Analytics.MissingEvents(context.Background(), res.ids)
	if err != nil {
		t.Fatal(err)
	}
	if len(missing) > 0 {
		t.Errorf("%d of %d acknowledged events are not stored, e.g. %s", len(missing), len(res.ids), missing[0])
	}
	t.Logf("%d events acknowledged (%v by instance; after the SIGTERM %v); connection errors %v",
		len(res.ids), res.acks, res.acksAfter, res.connErrs)
}

// inFlight starts a collect request on in and returns once in is inside
// its handler: the request says "Expect: 100-continue" and the server
// answers "100 Continue" when the handler first reads the body. finish
// sends the body and returns the acknowledged ids, failing unless the
// answer is 202.
func (c *cluster) inFlight(t *testing.T, in *instance, cookie string, body []byte) (finish func() []string) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(in.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	conn.SetDeadline(time.Now().Add(30 * time.Second))
	fmt.Fprintf(conn, "POST /api/analytics/collect HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n"+
		"Cookie: %s\r\nContent-Length: %d\r\nExpect: 100-continue\r\n\r\n", conn.RemoteAddr(), cookie, len(body))
	br := bufio.NewReader(conn)
	line, err := br.ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "HTTP/1.1 100 ") {
		t.Fatalf("want 100 Continue from %s, got %q, %v", in.name, line, err)
	}
	if blank, err := br.ReadString('\n'); err != nil || blank != "\r\n" {
		t.Fatalf("after 100 Continue: %q, %v", blank, err)
	}
	return func() []string {
		t.Helper()
		if _, err := conn.Write(body); err != nil {
			t.Fatalf("send the body of the request in flight: %v", err)
		}
		r, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("the request in flight on %s when it got SIGTERM: %v", in.name, err)
		}
		defer r.Body.Close()
		var ack struct {
			EventIDs []string `json:"event_ids"`
		}
		raw, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(raw, &ack); r.StatusCode != http.StatusAccepted || err != nil || len(ack.EventIDs) == 0 {
			t.Fatalf("the request in flight on %s when it got SIGTERM: %d %s; want 202", in.name, r.StatusCode, raw)
		}
		return ack.EventIDs
	}
}

// send is one load client: a request every 20 ms, to the next instance in
// turn, skipping the stopped one once it refuses connections.
func (c *cluster) send(cookie string, body []byte, first int, res *loadResult, termed <-chan struct{}, stop <-chan struct{}) {
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	client := &http.Client{Timeout: 20 * time.Second, Transport: tr}
	gone := map[string]bool{}
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for k := first; ; k++ {
		select {
		case <-stop:
			return
		case <-tick.C:
		}
		in := c.insts[k%len(c.insts)]
		if gone[in.name] {
			continue
		}
		sentAfterTerm := false
		select {
		case <-termed:
			sentAfterTerm = true
		default:
		}
		req, _ := http.NewRequest(http.MethodPost, in.url+"/api/analytics/collect", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Cookie", cookie)
		r, err := client.Do(req)
		if err != nil {
			res.mu.Lock()
			res.connErrs[in.name]++
			res.mu.Unlock()
			gone[in.name] = true
			continue
		}
		var ack struct {
			EventIDs []string `json:"event_ids"`
		}
		raw, _ := io.ReadAll(r.Body)
		r.Body.Close()
		decErr := json.Unmarshal(raw, &ack)
		res.mu.Lock()
		if r.StatusCode != http.StatusAccepted || decErr != nil || len(ack.EventIDs) == 0 {
			res.failures = append(res.failures, fmt.Sprintf("%s: %d %s", in.name, r.StatusCode, raw))
		} else {
			res.ids = append(res.ids, ack.EventIDs...)
			res.acks[in.name]++
			if sentAfterTerm {
				res.acksAfter[in.name]++
			}
		}
		res.mu.Unlock()
	}
}
