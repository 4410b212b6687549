package web

import (
	"crypto/rand"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"runtime/debug"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/plazahq/plaza/internal/metrics"
	"github.com/plazahq/plaza/views"
)

// The edge of every route's chain: request id, access log, metrics, panic
// recovery, security headers and the body limit. They sit in each route's
// own chain, built once at start, rather than in echo's global middleware,
// which echo rebuilds on every request; and each route pays only for what
// it declares (a quiet route writes no access line for its successes).
func (p *pipeline) edge(r Route) []echo.MiddlewareFunc {
	mws := []echo.MiddlewareFunc{p.requestID, p.observe(r), recoverer, p.secure}
	if r.admin() {
		mws = append(mws, noStore)
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		mws = append(mws, middleware.BodyLimit(maxBody))
	}
	if !r.Quiet {
		// Quiet routes serve images and static files, which carry their
		// own caching and encoding; everything else, pages and JSON alike,
		// is compressed (web/compress.go).
		mws = append(mws, p.assets, compress)
	} else if r.Compress {
		mws = append(mws, compress)
	}
	return mws
}

// assets lets the pages a route may render (its own, or an error page)
// link static files by version; quiet routes, which serve images, render
// no page and skip it.
func (p *pipeline) assets(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		c.SetRequest(req.WithContext(views.WithAssets(req.Context(), p.static)))
		return next(c)
	}
}

// requestIDs makes request ids: a random prefix per process and a counter,
// unique across instances and restarts without drawing randomness per
// request.
type requestIDs struct {
	prefix string
	n      atomic.Uint64
}

func newRequestIDs() *requestIDs {
	return &requestIDs{prefix: rand.Text()[:16] + "-"}
}

func (ids *requestIDs) next() string {
	var buf [40]byte
	return string(strconv.AppendUint(append(buf[:0], ids.prefix...), ids.n.Add(1), 36))
}

// requestID names the request in the X-Request-Id header, keeping a
// well-formed id a proxy in front already gave it.
func (p *pipeline) requestID(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		id := c.Request().Header.Get(echo.HeaderXRequestID)
		if id == "" || len(id) > 64 || !cleanText(id) {
			id = p.ids.next()
		}
		c.Response().Header()[echo.HeaderXRequestID] = []string{id}
		return next(c)
	}
}

// observe logs and measures the route's requests: one structured line
// per request, written after any error is rendered so that it has the
// real status (a quiet route writes lines only for failures), and the
// route's request count and latency. The route's metric series are
// resolved once, so a request costs two atomic adds; unmatched paths share
// one label instead of a series per path probed.
func (p *pipeline) observe(r Route) echo.MiddlewareFunc {
	route := r.Path
	if r.unmatched {
		route = "unmatched"
	}
	series := newRouteSeries(p.metrics, route)
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			start := time.Now()
			if err := next(c); err != nil {
				c.Error(err)
			}
			took := time.Since(start)
			req, status := c.Request(), c.Response().Status
			method := methodLabel(req.Method)
			series.requests(method, status).Inc()
			series.duration(method).Observe(took.Seconds())
			if r.Quiet && status < http.StatusBadRequest || !p.log.Enabled(req.Context(), slog.LevelInfo) {
				return nil
			}
			p.log.LogAttrs(req.Context(), slog.LevelInfo, "request",
				slog.String("request_id", c.Response().Header().Get(echo.HeaderXRequestID)),
				slog.String("method", req.Method),
				slog.String("route", c.Path()),
				slog.String("path", req.URL.Path),
				slog.Int("status", status),
				slog.Int64("bytes", c.Response().Size),
				slog.Float64("duration_ms", float64(took.Microseconds())/1000),
			)
			return nil
		}
	}
}

// routeSeries holds one route's metric series, looked up on first use.
type routeSeries struct {
	m        *metrics.Metrics
	route    string
	counters sync.Map // "METHOD status" → prometheus.Counter
	timers   sync.Map // method → prometheus.Observer
}

func newRouteSeries(m *metrics.Metrics, route string) *routeSeries {
	return &routeSeries{m: m, route: route}
}

func (s *routeSeries) requests(method string, status int) prometheus.Counter {
	key := statusKey{method, status}
	if c, ok := s.counters.Load(key); ok {
		return c.(prometheus.Counter)
	}
	c, _ := s.counters.LoadOrStore(key, s.m.Requests.WithLabelValues(s.route, method, strconv.Itoa(status)))
	return c.(prometheus.Counter)
}

type statusKey struct {
	method string
	status int
}

func (s *routeSeries) duration(method string) prometheus.Observer {
	if o, ok := s.timers.Load(method); ok {
		return o.(prometheus.Observer)
	}
	o, _ := s.timers.LoadOrStore(method, s.m.Duration.WithLabelValues(s.route, method))
	return o.(prometheus.Observer)
}

// recoverer turns a panic into a 500 through the error handler; the stack
// goes to the log only.
func recoverer(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) (err error) {
		defer func() {
			if r := recover(); r != nil {
				if r == http.ErrAbortHandler { //nolint:errorlint // sentinel compared by identity, as net/http does
					panic(r)
				}
				err = fmt.Errorf("panic: %v\n%s", r, debug.Stack())
			}
		}()
		return next(c)
	}
}

// securityHeaders are the headers every response carries. Plaza loads no
// third-party resources, so the policy allows its own origin only. Keys
// are canonical and values shared, so setting them allocates nothing.
func securityHeaders(publicURL string) http.Header {
	h := http.Header{
		"X-Xss-Protection":       {"0"},
		"X-Content-Type-Options": {"nosniff"},
		"X-Frame-Options":        {"DENY"},
		"Referrer-Policy":        {"strict-origin-when-cross-origin"},
		// Plaza uses none of these powerful features; nothing it embeds may.
		"Permissions-Policy": {"camera=(), microphone=(), geolocation=(), payment=(), usb=()"},
		// A window Plaza opens, or that opens Plaza, gets no handle on the other.
		"Cross-Origin-Opener-Policy": {"same-origin"},
		"Content-Security-Policy":    {"default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"},
	}
	if u, err := url.Parse(publicURL); err == nil && u.Scheme == "https" {
		h["Strict-Transport-Security"] = []string{"max-age=63072000"}
	}
	return h
}

// noStore keeps admin answers (JSON, partials and pages alike, errors
// included) out of browser and proxy caches: they hold other people's
// data, and a shared computer's back button must not show them again.
func noStore(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		c.Response().Header()[echo.HeaderCacheControl] = noStoreValue[:1:1]
		return next(c)
	}
}

var noStoreValue = []string{"no-store"}

// secure sets the security headers. The value slices are shared by every
// response: net/http only reads them, and a later Set or Add replaces or
// grows a slice of its own (each has length and capacity one).
func (p *pipeline) secure(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		for k, v := range p.headers {
			h[k] = v[:1:1]
		}
		return next(c)
	}
}
