// Command analytics is the load generator behind docs/performance.md,
// "Analytics ingestion": it signs in users of a running Plaza, has each of
// -clients clients post batches of -batch events to POST
// /api/analytics/collect back to back for -duration, reports throughput and
// latency, then checks in the database that every acknowledged event id is
// stored.
//
// It talks only to a Plaza on the loopback interface and stops after
// -duration or -max-events, whichever comes first. The server must run with
// RATE_LIMIT_ANALYTICS_EVENTS_PER_MINUTE raised (the default 100 per user and
// minute would need thousands of users) and RATE_LIMIT_API_ANONYMOUS raised
// (sign-ins from 127.0.0.1 count against it). See bench/analytics/run.sh.
//
//	go run ./bench/analytics -url http://127.0.0.1:18090 -db postgres://… -clients 50 -batch 10 -duration 60s
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
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/models"
)

type options struct {
	url       string
	db        string
	clients   int
	batch     int
	duration  time.Duration
	warmup    time.Duration
	maxEvents int64
	rate      float64 // events/s in all; 0 sends back to back
}

func main() {
	var o options
	flag.StringVar(&o.url, "url", "http://127.0.0.1:18090", "base URL of the Plaza under test (loopback only)")
	flag.StringVar(&o.db, "db", "", "its DATABASE_URL, to create the users and verify the stored events")
	flag.IntVar(&o.clients, "clients", 50, "concurrent clients, each a signed-in user sending requests back to back")
	flag.IntVar(&o.batch, "batch", 10, "events per request (1 sends the single-event shape)")
	flag.DurationVar(&o.duration, "duration", 60*time.Second, "measured time (at most 10m)")
	flag.DurationVar(&o.warmup, "warmup", 3*time.Second, "unmeasured load before the measured time")
	flag.Int64Var(&o.maxEvents, "max-events", 5_000_000, "stop after this many acknowledged events")
	flag.Float64Var(&o.rate, "rate", 0, "offered load in events/s, spread evenly over the clients (0: each client sends back to back)")
	flag.Parse()
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "analytics bench:", err)
		os.Exit(1)
	}
}

func run(o options) error {
	if err := checkLoopback(o.url); err != nil {
		return err
	}
	if o.db == "" || o.clients < 1 || o.clients > 1000 || o.batch < 1 || o.batch > 100 || o.duration <= 0 || o.duration > 10*time.Minute {
		return errors.New("need -db, -clients 1..1000, -batch 1..100 and -duration up to 10m")
	}
	ctx := context.Background()
	dbURL, err := config.ParseDatabaseURL(o.db)
	if err != nil {
		return err
	}
	db, err := models.Open(ctx, dbURL, models.OpenOptions{MaxConns: 4})
	if err != nil {
		return err
	}
	defer db.Close()
	store := models.NewStore(db)

	cookies, err := signIn(ctx, store, o)
	if err != nil {
		return err
	}
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		MaxIdleConnsPerHost: o.clients, MaxConnsPerHost: o.clients, DisableCompression: true}}
	body := requestBody(o.batch)

	fmt.Printf("%d clients, %d event(s) per request, warm-up %s, measured %s, against %s (%s)\n",
		o.clients, o.batch, o.warmup, o.duration, o.url, dbURL.Dialect)
	if o.rate > 0 {
		fmt.Printf("paced at %.0f events/s; latency counts from each request's scheduled start\n", o.rate)
	}
	if o.warmup > 0 {
		load(client, o, cookies, body, o.warmup, o.maxEvents)
	}
	r := load(client, o, cookies, body, o.duration, o.maxEvents)
	r.print()

	start := time.Now()
	// The month's partition was nearly empty when its statistics were
	// last taken; without fresh ones the planner scans it for every list
	// of ids (a minute for a million ids instead of seconds).
	if _, err := store.Maintenance.RefreshPlannerStats(ctx); err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	missing, err := store.Analytics.MissingEvents(ctx, r.ids)
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	fmt.Printf("verified %d acknowledged ids in the database in %s: %d missing\n", len(r.ids), time.Since(start).Round(time.Millisecond), len(missing))
	if len(missing) > 0 {
		return fmt.Errorf("%d acknowledged events are not stored, e.g. %s", len(missing), missing[0])
	}
	return nil
}

// checkLoopback refuses any target but this machine's loopback interface.
func checkLoopback(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return err
	}
	host := u.Hostname()
	if ip := net.ParseIP(host); (ip == nil || !ip.IsLoopback()) && host != "localhost" {
		return fmt.Errorf("-url %s: only a loopback address (127.0.0.1) may be targeted", raw)
	}
	return nil
}

// signIn creates one user per client (all with one password hash) and
// signs each in through POST /api/auth/signin.
func signIn(ctx context.Context, store *models.Store, o options) ([]string, error) {
	const password = "bench-password-1234"
	hash, err := auth.HashPassword(password)
	if err != nil {
		return nil, err
	}
	runID := time.Now().UnixNano()
	cookies := make([]string, o.clients)
	for i := range cookies {
		email := fmt.Sprintf("bench-%d-%d@bench.invalid", runID, i)
		if _, err := store.Users.CreateUser(ctx, models.NewUser{Email: email, Username: fmt.Sprintf("bench_%d_%d", runID, i), PasswordHash: hash}); err != nil {
			return nil, fmt.Errorf("create bench user: %w", err)
		}
		b, _ := json.Marshal(map[string]string{"email": email, "password": password})
		res, err := http.Post(o.url+"/api/auth/signin", "application/json", bytes.NewReader(b))
		if err != nil {
			return nil, err
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		for _, c := range res.Cookies() {
			if c.Name == "plaza_session" {
				cookies[i] = c.Name + "=" + c.Value
			}
		}
		if cookies[i] == "" {
			return nil, fmt.Errorf("sign-in of %s: %s (raise RATE_LIMIT_API_ANONYMOUS?)", email, res.Status)
		}
	}
	return cookies, nil
}

// requestBody is a collect body of n events, shaped like a browser's.
func requestBody(n int) []byte {
	event := func(i int) string {
		return fmt.Sprintf(`{"event_type":%q,"event_data":{"path":"/posts/%d","referrer":"https://example.com/","session_id":"bench-tab","load_ms":%d}}`,
			[]string{"page_view", "click", "scroll", "button_click"}[i%4], 1000+i, 80+i)
	}
	if n == 1 {
		return []byte(event(0))
	}
	events := make([]string, n)
	for i := range events {
		events[i] = event(i)
	}
	return []byte(`{"events":[` + strings.Join(events, ",") + `]}`)
}

type result struct {
	elapsed   time.Duration
	latencies []time.Duration // of acknowledged requests
	statuses  map[string]int
	ids       []string
}

// load runs the clients for d (or until maxEvents are acknowledged).
func load(client *http.Client, o options, cookies []string, body []byte, d time.Duration, maxEvents int64) result {
	var acked atomic.Int64
	deadline := time.Now().Add(d)
	type partial struct {
		lat      []time.Duration
		statuses map[string]int
		ids      []string
	}
	parts := make([]partial, o.clients)
	var wg sync.WaitGroup
	start := time.Now()
	for c := range o.clients {
		wg.Go(func() {
			p := partial{statuses: map[string]int{}}
			next := pacer(o, c, start)
			for time.Now().Before(deadline) && acked.Load() < maxEvents {
				req, _ := http.NewRequest(http.MethodPost, o.url+"/api/analytics/collect", bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Cookie", cookies[c])
				t0 := next()
				res, err := client.Do(req)
				if err != nil {
					p.statuses["transport error"]++
					time.Sleep(10 * time.Millisecond)
					continue
				}
				var r struct {
					Success  bool     `json:"success"`
					EventID  string   `json:"event_id"`
					EventIDs []string `json:"event_ids"`
				}
				decErr := json.NewDecoder(res.Body).Decode(&r)
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
				lat := time.Since(t0)
				p.statuses[res.Status]++
				if res.StatusCode != http.StatusAccepted || decErr != nil || !r.Success {
					continue
				}
				if r.EventID != "" {
					r.EventIDs = []string{r.EventID}
				}
				p.lat = append(p.lat, lat)
				p.ids = append(p.ids, r.EventIDs...)
				acked.Add(int64(len(r.EventIDs)))
			}
			parts[c] = p
		})
	}
	wg.Wait()
	r := result{elapsed: time.Since(start), statuses: map[string]int{}}
	for _, p := range parts {
		r.latencies = append(r.latencies, p.lat...)
		r.ids = append(r.ids, p.ids...)
		for k, v := range p.statuses {
			r.statuses[k] += v
		}
	}
	slices.Sort(r.latencies)
	return r
}

// pacer returns the function a client calls before each request: it waits
// for the request's slot on a fixed schedule (when -rate is set) and returns
// the slot's time, so that a server that falls behind is charged for the
// wait (no coordinated omission). Without -rate it returns now.
func pacer(o options, client int, start time.Time) func() time.Time {
	if o.rate <= 0 {
		return time.Now
	}
	interval := time.Duration(float64(time.Second) * float64(o.clients*o.batch) / o.rate)
	slot := start.Add(interval * time.Duration(client) / time.Duration(o.clients)) // staggered
	return func() time.Time {
		at := slot
		slot = slot.Add(interval)
		time.Sleep(time.Until(at))
		return at
	}
}

func (r result) print() {
	sec := r.elapsed.Seconds()
	fmt.Printf("acknowledged: %d requests, %d events in %.1f s: %.0f requests/s, %.0f events/s\n",
		len(r.latencies), len(r.ids), sec, float64(len(r.latencies))/sec, float64(len(r.ids))/sec)
	if n := len(r.latencies); n > 0 {
		q := func(p float64) time.Duration {
			return r.latencies[min(n-1, int(p*float64(n)))].Round(10 * time.Microsecond)
		}
		fmt.Printf("latency of acknowledged requests: p50 %s, p90 %s, p99 %s, p99.9 %s, max %s\n",
			q(0.50), q(0.90), q(0.99), q(0.999), r.latencies[n-1].Round(10*time.Microsecond))
	}
	keys := make([]string, 0, len(r.statuses))
	for k := range r.statuses {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s × %d", k, r.statuses[k]))
	}
	fmt.Printf("answers: %s\n", strings.Join(parts, ", "))
}
