package quotes

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"
)

// Each source's answer format is read into a Quote.
func TestSourceFormats(t *testing.T) {
	tests := []struct {
		name string
		cfg  func(url string) Config
		h    http.HandlerFunc
		want Quote
	}{
		{"zenquotes", func(u string) Config { return Config{ZenQuotesURL: u} }, jsonBody(zenOK), Quote{"Zen quote.", "Zen Author"}},
		{"quotable", func(u string) Config { return Config{QuotableURL: u} }, jsonBody(quotableOK), Quote{"Quotable quote.", "Quotable Author"}},
		{"quotable list", func(u string) Config { return Config{QuotableURL: u} }, jsonBody(`[` + quotableOK + `]`), Quote{"Quotable quote.", "Quotable Author"}},
		{"dummyjson", func(u string) Config { return Config{DummyJSONURL: u} }, jsonBody(dummyOK), Quote{"Dummy quote.", "Dummy Author"}},
		{"ninjas", func(u string) Config { return Config{NinjasURL: u, NinjasKey: testKey} }, ninjasHandler(ninjasOK), Quote{"Ninjas quote.", "Ninjas Author"}},
		{"white space tidied", func(u string) Config { return Config{DummyJSONURL: u} }, jsonBody(`{"quote":"  Two\n  lines\t here. ","author":" A\u0000 B "}`), Quote{"Two lines here.", "A B"}},
		{"missing author", func(u string) Config { return Config{DummyJSONURL: u} }, jsonBody(`{"quote":"Orphan."}`), Quote{"Orphan.", "Unknown"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t, tt.h)
			cfg := tt.cfg(f.URL)
			cfg.Timeout = testTimeout
			got, err := Fetch(context.Background(), cfg)
			if err != nil || got != tt.want {
				t.Errorf("Fetch = %+v, %v; want %+v", got, err, tt.want)
			}
			if f.hits.Load() != 1 {
				t.Errorf("%d calls, want 1", f.hits.Load())
			}
		})
	}
}

// Answers that are not quotes are refused: every source falls through.
func TestBadResponses(t *testing.T) {
	bad := map[string]http.HandlerFunc{
		"html error page, status 200": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(htmlPage))
		},
		"html error page, status 502": status(http.StatusBadGateway, htmlPage),
		"status 500 with json":        status(http.StatusInternalServerError, zenOK),
		"status 429":                  status(http.StatusTooManyRequests, `{"error":"slow down"}`),
		"redirect loop":               func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, r.URL.Path, http.StatusFound) },
		"empty body":                  jsonBody(""),
		"null":                        jsonBody("null"),
		"empty list":                  jsonBody("[]"),
		"empty object":                jsonBody("{}"),
		"truncated json":              jsonBody(`[{"q":"Half a quo`),
		"wrong types":                 jsonBody(`{"content":5,"quote":["x"],"q":{"a":1}}`),
		"wrong shape":                 jsonBody(`{"data":{"text":"nested"}}`),
		"empty quote":                 jsonBody(`[{"q":"","a":"Nobody","quote":"   ","author":"Nobody"}]`),
		"white-space quote":           jsonBody(`{"content":" \n\t ","quote":" \n ","author":"Nobody"}`),
		"huge quote":                  jsonBody(`{"content":"` + strings.Repeat("word ", 200) + `","quote":"` + strings.Repeat("word ", 200) + `"}`),
		"huge body":                   jsonBody(`{"content":"ok","pad":"` + strings.Repeat("x", 100<<10) + `"}`),
		"zenquotes rate limit notice": jsonBody(`[{"q":"Too many requests. Obtain an auth key for unlimited access.","a":"zenquotes.io","h":"..."}]`),
	}
	for name, h := range bad {
		t.Run(name, func(t *testing.T) {
			f := newFake(t, h)
			cfg := Config{ZenQuotesURL: f.URL, QuotableURL: f.URL, DummyJSONURL: f.URL, NinjasURL: f.URL, NinjasKey: testKey, Timeout: testTimeout}
			q, err := Fetch(context.Background(), cfg)
			if !errors.Is(err, ErrUnavailable) {
				t.Fatalf("Fetch = %+v, %v; want ErrUnavailable", q, err)
			}
			if f.hits.Load() < 4 {
				t.Errorf("%d calls, want each of the 4 sources tried", f.hits.Load())
			}
		})
	}
}

// Each parser alone refuses a bad body with ErrBadResponse.
func TestParsersRefuse(t *testing.T) {
	parsers := map[string]func([]byte) (Quote, error){"zenquotes": parseZenQuotes, "quotable": parseQuotable, "dummyjson": parseDummyJSON, "ninjas": parseNinjas}
	for name, parse := range parsers {
		for _, body := range []string{htmlPage, "", "null", "[]", "{}", "[{}]", `{"quote":""}`, `[{"q":" "}]`, "\xff\xfe"} {
			if q, err := parse([]byte(body)); !errors.Is(err, ErrBadResponse) {
				t.Errorf("%s(%.30q) = %+v, %v; want ErrBadResponse", name, body, q, err)
			}
		}
	}
}

// The pick follows the weights 40/30/20/10 (each source a slice of [0, 1)).
func TestPickWeights(t *testing.T) {
	cfg := Config{ZenQuotesURL: "z", QuotableURL: "q", DummyJSONURL: "d", NinjasURL: "n", NinjasKey: "k"}
	srcs := cfg.sources()
	edges := []struct {
		u    float64
		want string
	}{{0, "zenquotes"}, {0.3999, "zenquotes"}, {0.4, "quotable"}, {0.6999, "quotable"}, {0.7, "dummyjson"}, {0.8999, "dummyjson"}, {0.9, "ninjas"}, {0.99999, "ninjas"}}
	for _, e := range edges {
		if got := srcs[pick(srcs, e.u)].name; got != e.want {
			t.Errorf("pick(%v) = %s, want %s", e.u, got, e.want)
		}
	}
	// Without a key the 10% is shared out: 40/90, 30/90, 20/90.
	cfg.NinjasKey = ""
	srcs = cfg.sources()
	if len(srcs) != 3 {
		t.Fatalf("%d sources without a key, want 3", len(srcs))
	}
	for _, e := range []struct {
		u    float64
		want string
	}{{4.0/9 - 1e-9, "zenquotes"}, {4.0 / 9, "quotable"}, {7.0/9 - 1e-9, "quotable"}, {7.0 / 9, "dummyjson"}, {0.999999, "dummyjson"}} {
		if got := srcs[pick(srcs, e.u)].name; got != e.want {
			t.Errorf("no key: pick(%v) = %s, want %s", e.u, got, e.want)
		}
	}
	if n := len(Config{}.sources()); n != 0 {
		t.Errorf("the zero Config has %d sources, want none (no default URLs)", n)
	}
}

// Over many fetches through real HTTP the sources are hit in proportion
// to their weights, within five standard deviations.
func TestWeightsOverManyDraws(t *testing.T) {
	for _, withKey := range []bool{true, false} {
		t.Run(fmt.Sprintf("key=%v", withKey), func(t *testing.T) {
			zen, quo, dum, nin := newFake(t, jsonBody(zenOK)), newFake(t, jsonBody(quotableOK)), newFake(t, jsonBody(dummyOK)), newFake(t, ninjasHandler(ninjasOK))
			cfg := Config{ZenQuotesURL: zen.URL, QuotableURL: quo.URL, DummyJSONURL: dum.URL, NinjasURL: nin.URL, Timeout: testTimeout, Rand: seeded(42)}
			want := []float64{0.4, 0.3, 0.2, 0.1}
			if withKey {
				cfg.NinjasKey = testKey
			} else {
				want = []float64{4.0 / 9, 3.0 / 9, 2.0 / 9, 0}
			}
			const n = 2000
			for range n {
				if _, err := Fetch(context.Background(), cfg); err != nil {
					t.Fatal(err)
				}
			}
			for i, f := range []*fakeSource{zen, quo, dum, nin} {
				got := float64(f.hits.Load())
				mean := want[i] * n
				sd := math.Sqrt(n * want[i] * (1 - want[i]))
				if math.Abs(got-mean) > 5*sd+0.5 {
					t.Errorf("source %d: %v hits of %d, want %.0f ± %.0f", i, got, n, mean, 5*sd)
				}
			}
		})
	}
}

// A source that fails (by status, body or timeout) hands over to the next
// one in order: ZenQuotes, Quotable, DummyJSON, API Ninjas, then around.
func TestFallThrough(t *testing.T) {
	zen := newFake(t, status(http.StatusServiceUnavailable, htmlPage))
	quo := newFake(t, slow(5*time.Second, quotableOK))
	dum := newFake(t, jsonBody(`{"quote":""}`))
	nin := newFake(t, ninjasHandler(ninjasOK))
	cfg := Config{ZenQuotesURL: zen.URL, QuotableURL: quo.URL, DummyJSONURL: dum.URL, NinjasURL: nin.URL, NinjasKey: testKey,
		Timeout: 100 * time.Millisecond, Rand: func() float64 { return 0 }} // picks ZenQuotes first
	t0 := time.Now()
	q, err := Fetch(context.Background(), cfg)
	if err != nil || q.Text != "Ninjas quote." {
		t.Fatalf("Fetch = %+v, %v; want the API Ninjas quote", q, err)
	}
	if el := time.Since(t0); el > 2*time.Second {
		t.Errorf("took %v: the slow source was not cut off by the timeout", el)
	}
	for i, f := range []*fakeSource{zen, quo, dum, nin} {
		if f.hits.Load() != 1 {
			t.Errorf("source %d called %d times, want once", i, f.hits.Load())
		}
	}

	// Picking DummyJSON first wraps around to ZenQuotes after API Ninjas.
	good := newFake(t, jsonBody(zenOK))
	bad := newFake(t, status(http.StatusInternalServerError, ""))
	cfg = Config{ZenQuotesURL: good.URL, QuotableURL: bad.URL, DummyJSONURL: bad.URL, NinjasURL: bad.URL, NinjasKey: testKey,
		Timeout: testTimeout, Rand: func() float64 { return 0.75 }}
	if q, err := Fetch(context.Background(), cfg); err != nil || q.Text != "Zen quote." {
		t.Errorf("Fetch = %+v, %v; want ZenQuotes after wrapping around", q, err)
	}
	if bad.hits.Load() != 2 {
		t.Errorf("failing sources called %d times, want DummyJSON and API Ninjas once each", bad.hits.Load())
	}
}

func TestTimeout(t *testing.T) {
	f := newFake(t, slow(10*time.Second, zenOK))
	cfg := Config{ZenQuotesURL: f.URL, Timeout: 50 * time.Millisecond}
	t0 := time.Now()
	_, err := Fetch(context.Background(), cfg)
	if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, ErrUnavailable) {
		t.Errorf("err = %v, want a deadline error wrapped in ErrUnavailable", err)
	}
	if el := time.Since(t0); el > time.Second {
		t.Errorf("took %v, want about the 50ms timeout", el)
	}
	if got := (Config{}).timeout(); got != 3*time.Second {
		t.Errorf("default timeout %v, want 3s", got)
	}
}

func TestNinjasNeedsKey(t *testing.T) {
	f := newFake(t, ninjasHandler(ninjasOK))
	_, err := Fetch(context.Background(), Config{NinjasURL: f.URL, Timeout: testTimeout})
	if !errors.Is(err, ErrUnavailable) || f.hits.Load() != 0 {
		t.Errorf("without a key: err %v, %d calls; want ErrUnavailable and no call", err, f.hits.Load())
	}
}

func TestBuiltin(t *testing.T) {
	b := Builtin()
	if len(b) != 6 {
		t.Fatalf("%d built-in quotes, want 6", len(b))
	}
	seen := map[Quote]bool{}
	for i := range 6 {
		q := randomBuiltin((float64(i) + 0.5) / 6)
		if q.Text == "" || q.Author == "" {
			t.Errorf("built-in quote %d is empty: %+v", i, q)
		}
		seen[q] = true
	}
	if len(seen) != 6 || randomBuiltin(0.99999999) != b[5] {
		t.Errorf("randomBuiltin reaches %d quotes, want all 6", len(seen))
	}
	b[0].Text = "changed"
	if Builtin()[0].Text == "changed" {
		t.Error("Builtin returns the package's own array")
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{zenOK, quotableOK, dummyOK, ninjasOK, htmlPage, "[]", "{}", `[{"q":"\u0000"}]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, parse := range []func([]byte) (Quote, error){parseZenQuotes, parseQuotable, parseDummyJSON, parseNinjas} {
			q, err := parse(body)
			if err != nil {
				if !errors.Is(err, ErrBadResponse) {
					t.Fatalf("error %v does not wrap ErrBadResponse", err)
				}
				continue
			}
			if q.Text == "" || q.Author == "" || strings.TrimSpace(q.Text) != q.Text {
				t.Fatalf("parsed %+v", q)
			}
		}
	})
}
