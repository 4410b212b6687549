package handlers_test

import (
	"bytes"
	"context"
	"encoding/xml"
	"image/png"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/internal/ogimage"
	"github.com/plazahq/plaza/internal/quotes"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// User-Agents of the callers /api/og-image tells apart.
const (
	uaChrome   = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
	uaFirefox  = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.7; rv:133.0) Gecko/20100101 Firefox/133.0"
	uaTwitter  = "Twitterbot/1.0"
	uaFacebook = "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)"
	uaSlack    = "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)"
	uaDiscord  = "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)"
	uaCurl     = "curl/8.5.0"

	acceptPage  = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
	acceptImage = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"
)

// ogServer serves the real app over loopback HTTP. Its quote pool is the
// default one (built-in quotes only) unless mutate sets web.Deps.Quotes.
func ogServer(t *testing.T, mutate ...func(*web.Deps)) *httptest.Server {
	t.Helper()
	app := apptest.New(t, dbtest.Open(t, "sqlite"), mutate...)
	srv := httptest.NewServer(app)
	t.Cleanup(srv.Close)
	return srv
}

// get sends a GET with the given User-Agent and Accept and does not follow
// redirects.
func get(t *testing.T, srv *httptest.Server, target, ua, accept string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, srv.URL+target, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("User-Agent", ua)
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, body
}

func TestOGImageRedirectsBrowsers(t *testing.T) {
	srv := ogServer(t)
	const q = "/api/og-image?seed=ada&quote=Hello%20there&author=Ada"
	tests := []struct {
		name, target, ua, accept string
		wantLocation             string // "" means the image
	}{
		{"chrome page load", q, uaChrome, acceptPage, "/og-image-viewer?seed=ada&quote=Hello%20there&author=Ada"},
		{"firefox page load", q + "&type=svg", uaFirefox, "text/html", "/og-image-viewer?seed=ada&quote=Hello%20there&author=Ada&type=svg"},
		{"browser without a query", "/api/og-image", uaChrome, acceptPage, "/og-image-viewer"},
		{"browser with a bad direct value", q + "&direct=yes", uaChrome, acceptPage, "/og-image-viewer?seed=ada&quote=Hello%20there&author=Ada&direct=yes"},
		{"browser with direct=true", q + "&direct=true", uaChrome, acceptPage, ""},
		{"browser with direct=TRUE", q + "&direct=TRUE", uaChrome, acceptPage, ""},
		{"browser fetching an img", q, uaChrome, acceptImage, ""},
		{"browser with text/html;q=0", q, uaChrome, "text/html;q=0, */*", ""},
		{"twitterbot", q, uaTwitter, acceptPage, ""},
		{"facebookexternalhit", q, uaFacebook, acceptPage, ""},
		{"slackbot", q, uaSlack, acceptPage, ""},
		{"discordbot looking like Mozilla", q, uaDiscord, acceptPage, ""},
		{"curl", q, uaCurl, "*/*", ""},
		{"no user agent", q, "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, body := get(t, srv, tt.target, tt.ua, tt.accept)
			if cc := res.Header.Get("Cache-Control"); cc != "no-cache, no-store, must-revalidate" {
				t.Errorf("Cache-Control %q", cc)
			}
			if tt.wantLocation != "" {
				if res.StatusCode != http.StatusFound || res.Header.Get("Location") != tt.wantLocation {
					t.Errorf("got %d Location %q, want 302 to %q", res.StatusCode, res.Header.Get("Location"), tt.wantLocation)
				}
				return
			}
			if res.StatusCode != http.StatusOK || res.Header.Get("Location") != "" {
				t.Fatalf("got %d Location %q, want 200 with the image", res.StatusCode, res.Header.Get("Location"))
			}
			wantType := "image/png"
			if strings.Contains(tt.target, "type=svg") {
				wantType = "image/svg+xml"
			}
			if ct := res.Header.Get("Content-Type"); ct != wantType || len(body) == 0 {
				t.Errorf("Content-Type %q with %d bytes, want %s", ct, len(body), wantType)
			}
		})
	}
}

func TestOGImagePNG(t *testing.T) {
	srv := ogServer(t)
	start := time.Now()
	res, body := get(t, srv, "/api/og-image?seed=png&quote=Ship%20it&author=Plaza", uaTwitter, "*/*")
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "image/png" {
		t.Fatalf("got %d %q", res.StatusCode, res.Header.Get("Content-Type"))
	}
	img, err := png.Decode(bytes.NewReader(body))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 1200 || b.Dy() != 630 {
		t.Errorf("PNG is %dx%d, want 1200x630", b.Dx(), b.Dy())
	}
	// The PNG is written out from where it was encoded, its length told first.
	if res.ContentLength != int64(len(body)) || len(res.TransferEncoding) != 0 {
		t.Errorf("Content-Length %d, Transfer-Encoding %v, for a body of %d bytes", res.ContentLength, res.TransferEncoding, len(body))
	}
	h := res.Header
	reset, _ := strconv.ParseInt(h.Get("X-RateLimit-Reset"), 10, 64)
	if h.Get("X-RateLimit-Limit") != "120" || h.Get("X-RateLimit-Remaining") != "119" ||
		reset < start.Unix() || reset > start.Add(61*time.Second).Unix() {
		t.Errorf("rate headers limit %q remaining %q reset %q, want 120, 119 and within a minute",
			h.Get("X-RateLimit-Limit"), h.Get("X-RateLimit-Remaining"), h.Get("X-RateLimit-Reset"))
	}
	if h.Get("Cache-Control") != "no-cache, no-store, must-revalidate" {
		t.Errorf("Cache-Control %q", h.Get("Cache-Control"))
	}
}

// svgDoc is the part of the og-image SVG the tests read.
type svgDoc struct {
	XMLName xml.Name `xml:"svg"`
	Width   string   `xml:"width,attr"`
	Height  string   `xml:"height,attr"`
	Title   string   `xml:"title"`
	Desc    string   `xml:"desc"`
}

func parseSVG(t *testing.T, body []byte) svgDoc {
	t.Helper()
	var doc svgDoc
	if err := xml.Unmarshal(body, &doc); err != nil {
		t.Fatalf("not XML: %v\n%.300s", err, body)
	}
	return doc
}

func TestOGImageSVG(t *testing.T) {
	srv := ogServer(t)
	fetch := func(target string) []byte {
		t.Helper()
		res, body := get(t, srv, target, uaCurl, "*/*")
		if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "image/svg+xml" {
			t.Fatalf("%s: got %d %q", target, res.StatusCode, res.Header.Get("Content-Type"))
		}
		return body
	}
	const q = "/api/og-image?type=svg&seed=Ada&quote=" + "Simplicity%20is%20prerequisite%20for%20reliability.&author=Edsger%20Dijkstra"
	first := fetch(q)
	doc := parseSVG(t, first)
	if doc.Width != "1200" || doc.Height != "630" || doc.Title != "Simplicity is prerequisite for reliability." || doc.Desc != "— Edsger Dijkstra" {
		t.Errorf("got %+v", doc)
	}
	if again := fetch(q); !bytes.Equal(again, first) {
		t.Error("the same seed, quote and author must give byte-identical SVG")
	}
	if bytes.Equal(fetch(strings.Replace(q, "seed=Ada", "seed=ada", 1)), first) {
		t.Error("another seed must give another image")
	}
	if bytes.Equal(fetch(q+"&random=true"), first) {
		t.Error("random=true must ignore the seed")
	}
	parseSVG(t, fetch("/api/og-image?type=SVG&quote=x")) // type is case-insensitive
}

func TestOGImageQuoteWhenNoneGiven(t *testing.T) {
	srv := ogServer(t)
	builtin := map[string]string{}
	for _, q := range quotes.Builtin() {
		builtin[q.Text] = q.Author
	}
	res, body := get(t, srv, "/api/og-image?type=svg&seed=s", uaCurl, "")
	doc := parseSVG(t, body)
	author, ok := builtin[doc.Title]
	if res.StatusCode != http.StatusOK || !ok || doc.Desc != "— "+author {
		t.Errorf("got %d title %q desc %q, want a built-in quote with its author", res.StatusCode, doc.Title, doc.Desc)
	}
	_, body = get(t, srv, "/api/og-image?type=svg&seed=s&author=Somebody%20Else", uaCurl, "")
	if doc := parseSVG(t, body); builtin[doc.Title] == "" || doc.Desc != "— Somebody Else" {
		t.Errorf("a given author stays: title %q desc %q", doc.Title, doc.Desc)
	}
	_, body = get(t, srv, "/api/og-image?type=svg&seed=s&quote=%20%20", uaCurl, "")
	if doc := parseSVG(t, body); builtin[doc.Title] == "" {
		t.Errorf("a blank quote counts as none: title %q", doc.Title)
	}
}

// quoteServer is a stand-in for the public quote services on loopback.
// It answers ZenQuotes' shape at /zen and API Ninjas' at /ninjas (only with
// the right X-Api-Key) and counts the calls.
func quoteServer(t *testing.T, key string) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.URL.Path == "/zen":
			io.WriteString(w, `[{"q":"Loopback quotes are the best quotes.","a":"Zen Tester","h":""}]`)
		case r.URL.Path == "/ninjas" && r.Header.Get("X-Api-Key") == key:
			io.WriteString(w, `[{"quote":"Keys open doors.","author":"Ninja Tester","category":"test"}]`)
		default:
			http.Error(w, "no", http.StatusUnauthorized)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

// TestOGImageQuotePool wires the pool as `plaza serve` does: from the
// QUOTE_* settings, started before serving, closed after.
func TestOGImageQuotePool(t *testing.T) {
	qs, calls := quoteServer(t, "k3y")
	tests := []struct {
		name       string
		cfg        config.Quotes
		wantQuote  string
		wantAuthor string
	}{
		{"zenquotes", config.Quotes{ZenQuotesURL: qs.URL + "/zen"}, "Loopback quotes are the best quotes.", "Zen Tester"},
		{"api ninjas with the premium key", config.Quotes{NinjasURL: qs.URL + "/ninjas", PremiumAPIKey: "k3y"}, "Keys open doors.", "Ninja Tester"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := calls.Load() // before the pool starts: its first fetch may be done at once
			pool := web.NewQuotePool(tt.cfg, slog.New(slog.DiscardHandler))
			pool.Start(context.Background())
			t.Cleanup(pool.Close)
			apptest.WaitFor(t, "the quote pool to fill", func() bool { return pool.Len() > 0 })
			srv := ogServer(t, func(d *web.Deps) { d.Quotes = pool })
			_, body := get(t, srv, "/api/og-image?type=svg&seed=pool", uaCurl, "")
			doc := parseSVG(t, body)
			if doc.Title != tt.wantQuote || doc.Desc != "— "+tt.wantAuthor || calls.Load() == before {
				t.Errorf("got %q %q after %d calls, want the served quote", doc.Title, doc.Desc, calls.Load()-before)
			}
		})
	}
}

// TestOGImageAlwaysAnImage: an <img> or og:image is built from someone's
// text, so no query is refused. Long text is fitted with "…", a long seed
// counts by its first 200 characters, and a flag that is not true or false
// is its default.
func TestOGImageAlwaysAnImage(t *testing.T) {
	srv := ogServer(t)
	long := func(n int) string { return url.QueryEscape(strings.Repeat("é", n)) }
	tests := []struct {
		name, query string
		svg, cut    bool // the answer is SVG; its text ends in "…"
	}{
		{"quote of 500 characters", "type=svg&quote=" + long(500), true, false},
		{"quote of 501 characters", "type=svg&quote=" + long(501), true, true},
		{"quote of 5000 characters", "type=svg&quote=" + long(5000), true, true},
		{"author of 80 characters", "type=svg&quote=q&author=" + long(80), true, false},
		{"author of 81 characters", "type=svg&quote=q&author=" + long(81), true, true},
		{"seed of 201 characters", "type=svg&quote=q&seed=" + long(201), true, false},
		{"type gif is PNG", "quote=q&type=gif", false, false},
		{"random yes is false", "type=svg&quote=q&random=yes", true, false},
		{"direct 1 is false", "type=svg&quote=q&direct=1", true, false},
		{"unknown parameters ignored", "type=svg&quote=q&utm_source=x", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, body := get(t, srv, "/api/og-image?"+tt.query, uaCurl, "")
			if res.StatusCode != http.StatusOK {
				t.Fatalf("got %d %.300s, want 200", res.StatusCode, body)
			}
			if !tt.svg {
				if res.Header.Get("Content-Type") != "image/png" || !bytes.HasPrefix(body, []byte("\x89PNG")) {
					t.Fatalf("got %q %.20q, want a PNG", res.Header.Get("Content-Type"), body)
				}
				return
			}
			if bytes.Equal(body, ogimage.FallbackSVG()) {
				t.Fatal("got the fallback image, want the image drawn")
			}
			doc := parseSVG(t, body)
			if got := strings.Contains(doc.Title+doc.Desc, "…"); got != tt.cut {
				t.Errorf("text cut = %v, want %v: %q %q", got, tt.cut, doc.Title, doc.Desc)
			}
		})
	}
}

// TestOGImageSeedCountsItsStart: a seed beyond 200 characters draws the
// image of its first 200, so the same long link always shows the same image.
func TestOGImageSeedCountsItsStart(t *testing.T) {
	srv := ogServer(t)
	start := strings.Repeat("s", 200)
	_, a := get(t, srv, "/api/og-image?type=svg&quote=q&seed="+start, uaCurl, "")
	_, b := get(t, srv, "/api/og-image?type=svg&quote=q&seed="+start+"tail", uaCurl, "")
	_, c := get(t, srv, "/api/og-image?type=svg&quote=q&seed="+start[:199]+"t", uaCurl, "")
	if !bytes.Equal(a, b) {
		t.Error("a seed's characters beyond 200 changed the image")
	}
	if bytes.Equal(a, c) {
		t.Error("a different seed drew the same image")
	}
}

// TestOGImageFallback asks for a quote with nothing printable in it: the
// engine cannot lay it out, and the answer is the fallback image with 200.
func TestOGImageFallback(t *testing.T) {
	srv := ogServer(t)
	for _, typ := range []string{"svg", "png"} {
		res, body := get(t, srv, "/api/og-image?seed=x&quote=%01%02%E2%80%8B&type="+typ, uaCurl, "")
		if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "image/svg+xml" ||
			!bytes.Equal(body, ogimage.FallbackSVG()) || res.Header.Get("Cache-Control") != "no-cache, no-store, must-revalidate" {
			t.Errorf("type=%s: got %d %q %.100s, want 200 with the fallback SVG", typ, res.StatusCode, res.Header.Get("Content-Type"), body)
		}
	}
}

func TestOGImageRateLimit(t *testing.T) {
	srv := ogServer(t)
	for i := range 120 {
		if res, _ := get(t, srv, "/api/og-image?type=svg&quote=q", uaCurl, ""); res.StatusCode != http.StatusOK {
			t.Fatalf("request %d: %d", i+1, res.StatusCode)
		}
	}
	res, body := get(t, srv, "/api/og-image?type=svg&quote=q", uaCurl, "")
	retry, _ := strconv.Atoi(res.Header.Get("Retry-After"))
	if res.StatusCode != http.StatusTooManyRequests || res.Header.Get("X-RateLimit-Remaining") != "0" ||
		retry < 1 || retry > 60 || !strings.HasPrefix(string(body), `{"error":`) {
		t.Errorf("121st: got %d Retry-After %q %s", res.StatusCode, res.Header.Get("Retry-After"), body)
	}
	if res, _ := get(t, srv, "/og-image-viewer", uaChrome, acceptPage); res.StatusCode != http.StatusOK || res.Header.Get("X-RateLimit-Limit") != "" {
		t.Errorf("the viewer page is exempt: got %d with limit %q", res.StatusCode, res.Header.Get("X-RateLimit-Limit"))
	}
}

func TestOGViewerPage(t *testing.T) {
	srv := ogServer(t)
	page := func(query string) *goquery.Document {
		t.Helper()
		res, body := get(t, srv, api.PathOGViewer+query, uaChrome, acceptPage)
		if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
			t.Fatalf("got %d %q", res.StatusCode, res.Header.Get("Content-Type"))
		}
		doc, err := goquery.NewDocumentFromReader(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		return doc
	}
	val := func(doc *goquery.Document, id string) string {
		sel := doc.Find(`[data-testid="` + id + `"]`)
		if sel.Is("textarea") {
			return sel.Text()
		}
		v, _ := sel.Attr("value")
		return v
	}

	doc := page("?seed=s1&quote=Stay%20curious&author=Ada&type=png&direct=false")
	src, _ := doc.Find(`[data-testid="og-preview"]`).Attr("src")
	og, _ := doc.Find(`meta[property="og:image"]`).Attr("content")
	if val(doc, "og-seed") != "s1" || val(doc, "og-quote") != "Stay curious" || val(doc, "og-author") != "Ada" ||
		src != "/api/og-image?seed=s1&quote=Stay+curious&author=Ada&type=svg&direct=true" ||
		og != "http://127.0.0.1:8080/api/og-image?seed=s1&quote=Stay+curious&author=Ada" {
		t.Errorf("fields %q %q %q, src %q, og:image %q", val(doc, "og-seed"), val(doc, "og-quote"), val(doc, "og-author"), src, og)
	}
	if doc.Find(`script[src^="/static/js/og-viewer.js?v="]`).Length() != 1 || doc.Find("script:not([src])").Length() != 0 {
		t.Error("the page loads its script from /static only, with no inline script")
	}

	doc = page("")
	if val(doc, "og-seed") == "" || val(doc, "og-quote") == "" {
		t.Errorf("without a query the page picks a seed and a quote: seed %q quote %q", val(doc, "og-seed"), val(doc, "og-quote"))
	}
	if doc = page("?seed=s1&random=true&quote=q"); val(doc, "og-seed") == "s1" || val(doc, "og-quote") != "q" {
		t.Errorf("random=true draws a new seed and keeps the quote: seed %q quote %q", val(doc, "og-seed"), val(doc, "og-quote"))
	}
}
