// Command peer is the load driver behind docs/performance.md, "Plaza and
// PocketBase side by side (issue 26)": it runs the same three admin user
// queries against a PocketBase (with and without its total count) and two
// Plazas (SQLite, PostgreSQL) holding the same users, -clients clients at a
// time, in -rounds alternating rounds, and prints req/s and p99 per cell,
// then a Markdown table over all rounds.
//
// Tokens come from the environment (PB_TOKEN: a PocketBase superuser token;
// PLAZA_SQLITE_TOKEN, PLAZA_PG_TOKEN: super admin bearer tokens from `plaza
// token create`), so they stay out of the process list. A target whose URL
// is empty is left out. It talks only to the loopback interface.
//
//	go run ./bench/peer -pb http://127.0.0.1:18090 -sqlite http://127.0.0.1:18091 -pg http://127.0.0.1:18092
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"time"
)

type options struct {
	pb, sqlite, pg string
	clients        int
	rounds         int
	users          int
	duration       time.Duration
	warmup         time.Duration
	terms          string
}

// A target is one column of the table: a server and how it spells each query.
type target struct {
	name  string
	base  string
	auth  string
	query func(kind string, r *rand.Rand, terms []string) string
}

// The three rows of the table, in order.
var kinds = []string{"list", "search", "post_count"}

var kindTitles = map[string]string{
	"list":       "v1 list, random page (offset up to 100k)",
	"search":     "v1 search, page-filling substrings",
	"post_count": "sort by post count, random page",
}

func main() {
	var o options
	flag.StringVar(&o.pb, "pb", "", "PocketBase base URL (its users collection holds the same users)")
	flag.StringVar(&o.sqlite, "sqlite", "", "base URL of a Plaza on the SQLite copy")
	flag.StringVar(&o.pg, "pg", "", "base URL of a Plaza on the PostgreSQL copy")
	flag.IntVar(&o.clients, "clients", 10, "concurrent clients, each sending requests back to back")
	flag.IntVar(&o.rounds, "rounds", 3, "alternating rounds over every target")
	flag.IntVar(&o.users, "users", 100000, "users in the databases: random pages stay inside them")
	flag.DurationVar(&o.duration, "duration", 8*time.Second, "measured time per query, target and round")
	flag.DurationVar(&o.warmup, "warmup", time.Second, "unmeasured load before each measured cell")
	flag.StringVar(&o.terms, "terms", "bench/peer/terms.txt", "search terms, one a line (# starts a comment)")
	flag.Parse()
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "peer bench:", err)
		os.Exit(1)
	}
}

func run(o options) error {
	if o.clients < 1 || o.clients > 200 || o.rounds < 1 || o.duration <= 0 || o.users < 100 {
		return errors.New("need -clients 1..200, -rounds ≥ 1, -duration > 0 and -users ≥ 100")
	}
	terms, err := readTerms(o.terms)
	if err != nil {
		return err
	}
	targets, err := buildTargets(o)
	if err != nil {
		return err
	}
	client := &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{
		MaxIdleConnsPerHost: o.clients, MaxConnsPerHost: o.clients}}
	results := map[string]*result{}
	for round := 1; round <= o.rounds; round++ {
		for _, kind := range kinds {
			for _, t := range targets {
				if o.warmup > 0 {
					load(client, t, kind, terms, o, o.warmup)
				}
				r := load(client, t, kind, terms, o, o.duration)
				fmt.Printf("round %d  %-11s %-28s %8.1f req/s  p50 %7.1f ms  p99 %7.1f ms  errors %d\n",
					round, kind, t.name, r.rate(), r.quantile(0.50), r.quantile(0.99), r.errors)
				key := kind + "|" + t.name
				if results[key] == nil {
					results[key] = &result{}
				}
				results[key].add(r)
			}
		}
	}
	printTable(targets, results)
	return nil
}

func buildTargets(o options) ([]target, error) {
	var ts []target
	if o.pb != "" {
		tok := os.Getenv("PB_TOKEN")
		ts = append(ts, target{"PocketBase +idx", o.pb, tok, pocketBase(o.users, false)},
			target{"PocketBase +idx, no total", o.pb, tok, pocketBase(o.users, true)})
	}
	if o.sqlite != "" {
		ts = append(ts, target{"Plaza SQLite", o.sqlite, "Bearer " + os.Getenv("PLAZA_SQLITE_TOKEN"), plaza(o.users)})
	}
	if o.pg != "" {
		ts = append(ts, target{"Plaza PostgreSQL", o.pg, "Bearer " + os.Getenv("PLAZA_PG_TOKEN"), plaza(o.users)})
	}
	if len(ts) == 0 {
		return nil, errors.New("name at least one of -pb, -sqlite, -pg")
	}
	for _, t := range ts {
		if err := checkLoopback(t.base); err != nil {
			return nil, err
		}
	}
	return ts, nil
}

// plaza spells the queries for Plaza's versioned admin API.
func plaza(users int) func(string, *rand.Rand, []string) string {
	return func(kind string, r *rand.Rand, terms []string) string {
		q := url.Values{"limit": {"50"}}
		switch kind {
		case "list":
			q.Set("offset", fmt.Sprint(r.IntN(users-49)))
		case "search":
			q.Set("search", terms[r.IntN(len(terms))])
		case "post_count":
			q.Set("sort", "post_count")
			q.Set("order", "desc")
			q.Set("offset", fmt.Sprint(r.IntN(users-49)))
		}
		return "/api/v1/admin/users?" + q.Encode()
	}
}

// pocketBase spells them for PocketBase's records API; the list and the
// search sort by newest first, as Plaza's do.
func pocketBase(users int, skipTotal bool) func(string, *rand.Rand, []string) string {
	return func(kind string, r *rand.Rand, terms []string) string {
		q := url.Values{"perPage": {"50"}}
		if skipTotal {
			q.Set("skipTotal", "1")
		}
		switch kind {
		case "list":
			q.Set("page", fmt.Sprint(r.IntN(users-49)/50+1))
			q.Set("sort", "-created")
		case "search":
			t := terms[r.IntN(len(terms))]
			q.Set("filter", fmt.Sprintf("(username~'%s'||email~'%s')", t, t))
			q.Set("sort", "-created")
		case "post_count":
			q.Set("page", fmt.Sprint(r.IntN(users-49)/50+1))
			q.Set("sort", "-post_count")
		}
		return "/api/collections/users/records?" + q.Encode()
	}
}

// load runs o.clients clients against one target and query for d.
func load(client *http.Client, t target, kind string, terms []string, o options, d time.Duration) *result {
	var mu sync.Mutex
	res := &result{}
	deadline := time.Now().Add(d)
	var wg sync.WaitGroup
	for c := range o.clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(c), uint64(time.Now().UnixNano())))
			var lat []time.Duration
			errs := 0
			for time.Now().Before(deadline) {
				start := time.Now()
				if err := get(client, t, t.query(kind, r, terms)); err != nil {
					errs++
					if errs == 1 {
						fmt.Fprintf(os.Stderr, "%s %s: %v\n", t.name, kind, err)
					}
					continue
				}
				lat = append(lat, time.Since(start))
			}
			mu.Lock()
			res.latencies = append(res.latencies, lat...)
			res.errors += errs
			mu.Unlock()
		}()
	}
	wg.Wait()
	res.elapsed = d
	return res
}

func get(client *http.Client, t target, path string) error {
	req, err := http.NewRequest(http.MethodGet, t.base+path, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", t.auth)
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %d %.200s", path, resp.StatusCode, body)
	}
	return nil
}

// result holds the latencies of successful requests over one or more cells.
type result struct {
	latencies []time.Duration
	elapsed   time.Duration
	errors    int
	sorted    bool
}

func (r *result) add(o *result) {
	r.latencies = append(r.latencies, o.latencies...)
	r.elapsed += o.elapsed
	r.errors += o.errors
	r.sorted = false
}

func (r *result) rate() float64 { return float64(len(r.latencies)) / r.elapsed.Seconds() }

func (r *result) quantile(q float64) float64 {
	if len(r.latencies) == 0 {
		return 0
	}
	if !r.sorted {
		slices.Sort(r.latencies)
		r.sorted = true
	}
	i := int(q * float64(len(r.latencies)-1))
	return float64(r.latencies[i].Microseconds()) / 1000
}

// printTable writes every round together: requests over total measured time,
// p99 over every request.
func printTable(targets []target, results map[string]*result) {
	fmt.Println()
	head := "| query |"
	rule := "|---|"
	for _, t := range targets {
		head += " " + t.name + " |"
		rule += "---|"
	}
	fmt.Println(head)
	fmt.Println(rule)
	for _, kind := range kinds {
		line := "| " + kindTitles[kind] + " |"
		for _, t := range targets {
			r := results[kind+"|"+t.name]
			line += fmt.Sprintf(" %s (%s ms)", figure(r.rate()), figure(r.quantile(0.99)))
			if r.errors > 0 {
				line += fmt.Sprintf(" [%d errors]", r.errors)
			}
			line += " |"
		}
		fmt.Println(line)
	}
}

// figure rounds to three significant digits, the precision a shared machine allows.
func figure(v float64) string {
	switch {
	case v >= 1000:
		return fmt.Sprintf("%s,%03d", fmt.Sprint(int(v+0.5)/1000), int(v+0.5)%1000)
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	default:
		return fmt.Sprintf("%.2f", v)
	}
}

func readTerms(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var terms []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line != "" && !strings.HasPrefix(line, "#") {
			terms = append(terms, line)
		}
	}
	if len(terms) == 0 && sc.Err() == nil {
		return nil, fmt.Errorf("%s: no terms", path)
	}
	return terms, sc.Err()
}

// checkLoopback refuses any target but this machine's loopback interface.
func checkLoopback(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return err
	}
	ip := net.ParseIP(u.Hostname())
	if ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("%s: only loopback addresses (127.0.0.0/8, ::1) are allowed", raw)
	}
	return nil
}
