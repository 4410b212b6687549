// Command outage re-runs issue 27's outage row behind docs/operations.md,
// "Outages": it starts `plaza serve` on the loopback against a PostgreSQL
// database, signs in -clients users who post analytics events back to back
// and -admins admins who read the users list, then takes the database away
// once, either by running -restart (a real restart, e.g. `pg_ctlcluster 15
// main restart -m fast`) or, with -cut, by cutting a proxy between Plaza
// and PostgreSQL for that long. It counts every answer by kind and status,
// measures how long after the database came back health said healthy and
// each kind of request succeeded, and checks in the database that every
// event acknowledged with 202 is stored. It fails on any 500 or lost event.
//
// It talks only to 127.0.0.1 and stops after -before, the outage and -after.
//
//	go run ./bench/outage -plaza ./plaza -db postgres://postgres@127.0.0.1:5432/plaza_outage?sslmode=disable -cut 2s
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/internal/tcpproxy"
	"github.com/plazahq/plaza/models"
)

type options struct {
	plaza, db, restart string
	cut, before, after time.Duration
	clients, admins    int
	port               int
}

func main() {
	var o options
	flag.StringVar(&o.plaza, "plaza", "./plaza", "the plaza binary to serve")
	flag.StringVar(&o.db, "db", "", "the DATABASE_URL of an empty PostgreSQL database on 127.0.0.1")
	flag.StringVar(&o.restart, "restart", "", "a shell command that restarts PostgreSQL (the outage); empty: -cut")
	flag.DurationVar(&o.cut, "cut", 2*time.Second, "without -restart: how long a proxy between Plaza and PostgreSQL is cut")
	flag.DurationVar(&o.before, "before", 5*time.Second, "load before the outage")
	flag.DurationVar(&o.after, "after", 10*time.Second, "load after the outage")
	flag.IntVar(&o.clients, "clients", 8, "users posting analytics events back to back")
	flag.IntVar(&o.admins, "admins", 2, "admins reading the users list back to back")
	flag.IntVar(&o.port, "port", 18091, "Plaza's port on 127.0.0.1")
	flag.Parse()
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "outage bench:", err)
		os.Exit(1)
	}
}

func run(o options) error {
	if o.db == "" || o.clients < 1 || o.clients > 100 || o.admins < 0 || o.admins > 100 ||
		o.before > 10*time.Minute || o.after > 10*time.Minute || o.cut > time.Minute {
		return errors.New("need -db, -clients 1..100, -admins 0..100, -before and -after up to 10m, -cut up to 1m")
	}
	dbURL, err := url.Parse(o.db)
	if err != nil {
		return err
	}
	if ip := net.ParseIP(dbURL.Hostname()); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("-db %s: only a database on 127.0.0.1 may be used", dbURL.Redacted())
	}
	served := *dbURL
	var proxy *tcpproxy.Proxy
	if o.restart == "" {
		if proxy, err = tcpproxy.New(dbURL.Host); err != nil {
			return err
		}
		defer proxy.Close()
		served.Host = proxy.Addr()
	}
	base := fmt.Sprintf("http://127.0.0.1:%d", o.port)
	stop, err := serve(o, served.String(), base)
	if err != nil {
		return err
	}
	defer stop()

	ctx := context.Background()
	parsed, err := config.ParseDatabaseURL(o.db)
	if err != nil {
		return err
	}
	db, err := models.Open(ctx, parsed, models.OpenOptions{MaxConns: 2})
	if err != nil {
		return err
	}
	defer db.Close()
	store := models.NewStore(db)
	users, err := signIn(ctx, store, base, o.clients, nil)
	if err != nil {
		return err
	}
	admins, err := signIn(ctx, store, base, o.admins, access.ImpliedRoles(models.RoleSuperAdmin))
	if err != nil {
		return err
	}

	l := newLoad(base)
	loadCtx, stopLoad := context.WithCancel(ctx)
	defer stopLoad()
	var wg sync.WaitGroup
	for _, c := range users {
		wg.Go(func() { l.collect(loadCtx, c) })
	}
	for _, c := range admins {
		wg.Go(func() { l.read(loadCtx, c) })
	}
	wg.Go(func() { l.probe(loadCtx) })
	time.Sleep(o.before)

	fmt.Printf("%d analytics clients and %d admin readers against %s; outage: %s\n", o.clients, o.admins, base, outageName(o))
	start := time.Now()
	l.begin(start)
	if o.restart != "" {
		out, err := exec.Command("sh", "-c", o.restart).CombinedOutput()
		if err != nil {
			stopLoad()
			wg.Wait()
			return fmt.Errorf("%s: %v: %s", o.restart, err, out)
		}
	} else {
		proxy.Down()
		time.Sleep(o.cut)
		if err := proxy.Up(); err != nil {
			return err
		}
	}
	back := time.Now()
	l.end(back)
	fmt.Printf("the database was away for %s (until the restart command returned, or the proxy let connections through again)\n",
		back.Sub(start).Round(time.Millisecond))
	time.Sleep(o.after)
	stopLoad()
	wg.Wait()
	l.print()

	missing, err := store.Analytics.MissingEvents(ctx, l.acked)
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	fmt.Printf("acknowledged events: %d, of which stored: %d, lost: %d\n", len(l.acked), len(l.acked)-len(missing), len(missing))
	if n := l.fivehundreds(); n > 0 || len(missing) > 0 {
		return fmt.Errorf("%d answers of 500 and %d lost events", n, len(missing))
	}
	return nil
}

func outageName(o options) string {
	if o.restart != "" {
		return o.restart
	}
	return fmt.Sprintf("a proxy between Plaza and PostgreSQL cut for %s", o.cut)
}

// serve starts plaza on the port and waits until it answers healthy.
func serve(o options, dbURL, base string) (func(), error) {
	cmd := exec.Command(o.plaza, "serve")
	cmd.Env = append(os.Environ(), "DATABASE_URL="+dbURL, fmt.Sprintf("ADDR=127.0.0.1:%d", o.port), "PLAZA_ENV=test",
		"LOG_LEVEL=error", "SEED_DEMO=false", "QUOTE_SOURCE_ZENQUOTES_URL=off", "QUOTE_SOURCE_QUOTABLE_URL=off",
		"QUOTE_SOURCE_DUMMYJSON_URL=off", "QUOTE_SOURCE_NINJAS_URL=off", "RATE_LIMIT_ANALYTICS_EVENTS_PER_MINUTE=100000000",
		"RATE_LIMIT_API_ANONYMOUS=100000", "RATE_LIMIT_ADMIN_GENERAL=100000000", "RATE_LIMIT_ADMIN_SUPER=100000000")
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	stop := func() {
		cmd.Process.Signal(os.Interrupt) //nolint:errcheck // it may have exited
		cmd.Wait()                       //nolint:errcheck // its exit is reported by the log
	}
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if res, err := http.Get(base + "/api/health"); err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return stop, nil
			}
		}
	}
	stop()
	return nil, fmt.Errorf("plaza did not answer healthy within 60 s:\n%s", logs.String())
}

// signIn creates n users with the roles and signs each in, returning
// their session cookies.
func signIn(ctx context.Context, store *models.Store, base string, n int, roles []string) ([]string, error) {
	const password = "bench-password-1234"
	hash, err := auth.HashPassword(password)
	if err != nil {
		return nil, err
	}
	run := time.Now().UnixNano()
	cookies := make([]string, n)
	for i := range cookies {
		email := fmt.Sprintf("outage-%d-%d-%d@bench.invalid", run, len(roles), i)
		if _, err := store.Users.CreateUser(ctx, models.NewUser{Email: email, PasswordHash: hash, Roles: roles}); err != nil {
			return nil, fmt.Errorf("create bench user: %w", err)
		}
		b, _ := json.Marshal(map[string]string{"email": email, "password": password})
		res, err := http.Post(base+"/api/auth/signin", "application/json", bytes.NewReader(b))
		if err != nil {
			return nil, err
		}
		io.Copy(io.Discard, res.Body) //nolint:errcheck // only the cookie matters
		res.Body.Close()
		for _, c := range res.Cookies() {
			if c.Name == "plaza_session" {
				cookies[i] = c.Name + "=" + c.Value
			}
		}
		if cookies[i] == "" {
			return nil, fmt.Errorf("sign-in of %s: %s", email, res.Status)
		}
	}
	return cookies, nil
}

// load sends the requests and keeps what they were answered.
type load struct {
	base   string
	client *http.Client

	mu       sync.Mutex
	statuses map[string]map[int]int // by kind
	missing  map[string]int         // 503s without Retry-After, by kind
	acked    []string
	answers  []answer // of requests sent from the outage on
	start    time.Time
	back     time.Time
}

type answer struct {
	kind string
	sent time.Time
	ok   bool
}

func newLoad(base string) *load {
	return &load{base: base, statuses: map[string]map[int]int{}, missing: map[string]int{},
		client: &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 200}}}
}

// begin notes the outage's start: answers from then on are kept in order.
func (l *load) begin(start time.Time) {
	l.mu.Lock()
	l.start = start
	l.mu.Unlock()
}

// end notes when the database came back.
func (l *load) end(back time.Time) {
	l.mu.Lock()
	l.back = back
	l.mu.Unlock()
}

func (l *load) collect(ctx context.Context, cookie string) {
	body := []byte(`{"event_type":"page_view","event_data":{"path":"/outage-bench"}}`)
	for ctx.Err() == nil {
		code, b := l.do(ctx, "collect", http.MethodPost, "/api/analytics/collect", cookie, body)
		if code == http.StatusAccepted {
			var r struct {
				EventID string `json:"event_id"`
			}
			if json.Unmarshal(b, &r) == nil && r.EventID != "" {
				l.mu.Lock()
				l.acked = append(l.acked, r.EventID)
				l.mu.Unlock()
			}
		}
	}
}

func (l *load) read(ctx context.Context, cookie string) {
	for ctx.Err() == nil {
		l.do(ctx, "admin read", http.MethodGet, "/api/v1/admin/users?limit=20", cookie, nil)
	}
}

// probe asks /api/health every 50 ms.
func (l *load) probe(ctx context.Context) {
	for ctx.Err() == nil {
		l.do(ctx, "health", http.MethodGet, "/api/health", "", nil)
		select {
		case <-ctx.Done():
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// do sends one request and counts its answer.
func (l *load) do(ctx context.Context, kind, method, path, cookie string, body []byte) (int, []byte) {
	req, err := http.NewRequestWithContext(ctx, method, l.base+path, bytes.NewReader(body))
	if err != nil {
		return 0, nil
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if cookie != "" {
		req.Header.Set("Cookie", cookie)
	}
	sent := time.Now()
	res, err := l.client.Do(req)
	code := 0 // a transport error
	var b []byte
	if err == nil {
		b, _ = io.ReadAll(res.Body)
		res.Body.Close()
		code = res.StatusCode
	} else if ctx.Err() != nil {
		return 0, nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.statuses[kind] == nil {
		l.statuses[kind] = map[int]int{}
	}
	l.statuses[kind][code]++
	if code == http.StatusServiceUnavailable && res.Header.Get("Retry-After") == "" {
		l.missing[kind]++
	}
	if !l.start.IsZero() {
		l.answers = append(l.answers, answer{kind: kind, sent: sent, ok: code >= 200 && code < 300})
	}
	if err != nil {
		time.Sleep(10 * time.Millisecond) // a refused connection would spin
	}
	return code, b
}

func (l *load) fivehundreds() int {
	n := 0
	for _, byCode := range l.statuses {
		n += byCode[http.StatusInternalServerError]
	}
	return n
}

// print reports the answers by kind and status, and for each kind when
// its first and last failures and the first of the successes after them
// were sent, from the outage's start.
func (l *load) print() {
	kinds := make([]string, 0, len(l.statuses))
	for k := range l.statuses {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	for _, k := range kinds {
		codes := make([]int, 0, len(l.statuses[k]))
		for c := range l.statuses[k] {
			codes = append(codes, c)
		}
		slices.Sort(codes)
		var parts []string
		for _, c := range codes {
			name := fmt.Sprint(c)
			if c == 0 {
				name = "transport error"
			}
			parts = append(parts, fmt.Sprintf("%s × %d", name, l.statuses[k][c]))
		}
		fmt.Printf("%-10s %s", k+":", strings.Join(parts, ", "))
		if n := l.missing[k]; n > 0 {
			fmt.Printf(" (%d answers of 503 without Retry-After)", n)
		}
		fmt.Println()
	}
	for _, k := range kinds {
		slices.SortFunc(l.answers, func(a, b answer) int { return a.sent.Compare(b.sent) })
		var firstFail, lastFail time.Time
		for _, a := range l.answers {
			if a.kind == k && !a.ok {
				if firstFail.IsZero() {
					firstFail = a.sent
				}
				lastFail = a.sent
			}
		}
		if lastFail.IsZero() {
			fmt.Printf("%-10s no request sent from the outage on failed\n", k+":")
			continue
		}
		for _, a := range l.answers {
			if a.kind == k && a.ok && a.sent.After(lastFail) {
				fmt.Printf("%-10s failures sent from %s to %s, every request from %s on succeeded (times from the outage's start)\n",
					k+":", signed(firstFail.Sub(l.start)), signed(lastFail.Sub(l.start)), signed(a.sent.Sub(l.start)))
				break
			}
		}
	}
}

func signed(d time.Duration) string {
	if d < 0 {
		return "-" + (-d).Round(time.Millisecond).String()
	}
	return "+" + d.Round(time.Millisecond).String()
}
