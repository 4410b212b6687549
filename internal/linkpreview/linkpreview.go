// Package linkpreview fetches a web page on behalf of a caller and tells what
// it is about: title, description and main image. It knows nothing of
// HTTP servers; it uses net/http as a
// client only, through a transport of its own that refuses to connect to
// loopback, private, link-local and other internal addresses.
//
// The address policy is internal/netguard's, shared with webhooks: it
// checks the URL's host as written, every address a name resolves to, and
// the address at the socket. Each redirect is dialled afresh and checked
// again. Config.AllowPrivate (LINK_PREVIEW_ALLOW_PRIVATE) turns it off.
package linkpreview

import (
	"bufio"
	"compress/gzip"
	"compress/zlib"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/andybalholm/brotli"

	"github.com/plazahq/plaza/internal/netguard"
)

// Defaults of Config.
const (
	DefaultTimeout      = 10 * time.Second
	DefaultMaxBody      = 2 << 20
	DefaultMaxRedirects = 5
	maxURLLength        = 4096
	maxHeaderBytes      = 64 << 10
)

// UserAgentProduct is the product token of the fetcher's User-Agent; the
// whole header is "Plaza-LinkPreview/1.0 (+<PUBLIC_APP_URL>)".
const UserAgentProduct = "Plaza-LinkPreview/1.0"

// Config configures a Fetcher. The zero value of every field but
// PublicAppURL is usable.
type Config struct {
	// PublicAppURL is the base of internal paths ("/posts/1") and appears in
	// the User-Agent.
	PublicAppURL string
	// AllowPrivate lifts the address policy (LINK_PREVIEW_ALLOW_PRIVATE), for
	// tests and intranets.
	AllowPrivate bool
	// Ports, when not empty, are the only ports fetched from, at every hop
	// (LINK_PREVIEW_PORTS); AllowPrivate does not lift it.
	Ports []int
	// Timeout bounds the whole exchange: resolving, connecting, every
	// redirect and reading the body. Default 10 s.
	Timeout time.Duration
	// MaxBody is how many bytes of a body are read at most (and how many
	// bytes decompression may produce). Default 2 MiB.
	MaxBody int64
	// MaxRedirects is how many redirects are followed. Default 5.
	MaxRedirects int
	// Resolver resolves host names. Default net.DefaultResolver.
	Resolver netguard.Resolver
	// Dial connects to an address ("203.0.113.10:443") that has passed the
	// policy. Default: a net.Dialer whose Control hook checks the address
	// once more, at the socket.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// TLSConfig is the client TLS configuration (tests add their CA here).
	// Default: system roots, TLS 1.2 or later.
	TLSConfig *tls.Config
	// RefusalCache, if set, remembers host names refused by the address
	// policy for RefusalTTL (default 1 min), so repeated attempts skip DNS.
	// Nothing else is stored: no successful response, no requested URL.
	RefusalCache netguard.Cache
	RefusalTTL   time.Duration
	// Self, when set, answers requests for PublicAppURL's origin (internal
	// paths included) in process, never over the network, so the address
	// policy does not stand between the app and its own pages.
	Self http.Handler
}

// Preview is the answer of GET /api/link-preview: the page's title,
// description and absolute image URL (any may be empty), and the URL as the
// caller requested it.
type Preview struct {
	Title       string
	Description string
	Image       string
	URL         string
}

// Fetcher fetches pages for previews. It is safe for concurrent use.
type Fetcher struct {
	cfg       Config
	appURL    *url.URL // nil if PublicAppURL is not an absolute http(s) URL
	userAgent string
	guard     *netguard.Guard
	client    *http.Client
}

// New builds a Fetcher, filling in defaults.
func New(cfg Config) *Fetcher {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = DefaultMaxBody
	}
	if cfg.MaxRedirects <= 0 {
		cfg.MaxRedirects = DefaultMaxRedirects
	}
	f := &Fetcher{cfg: cfg, guard: netguard.New(netguard.Config{AllowPrivate: cfg.AllowPrivate, Ports: cfg.Ports, Resolver: cfg.Resolver,
		Dial: cfg.Dial, DialTimeout: cfg.Timeout, RefusalCache: cfg.RefusalCache, RefusalTTL: cfg.RefusalTTL})}
	if u, err := url.Parse(cfg.PublicAppURL); err == nil && isHTTP(u) {
		f.appURL = u
	}
	f.userAgent = UserAgentProduct
	if cfg.PublicAppURL != "" {
		f.userAgent += " (+" + cfg.PublicAppURL + ")"
	}
	tlsConf := cfg.TLSConfig
	if tlsConf == nil {
		tlsConf = &tls.Config{MinVersion: tls.VersionTLS12}
	}
	tr := &http.Transport{
		Proxy:                  nil, // a proxy would dial for us, past the policy
		DialContext:            f.guard.DialContext,
		TLSClientConfig:        tlsConf,
		DisableKeepAlives:      true, // every hop dials, and is checked, afresh
		DisableCompression:     true, // we ask for and decode gzip and br ourselves
		MaxResponseHeaderBytes: maxHeaderBytes,
	}
	f.client = &http.Client{
		Transport:     transport{f: f, net: tr},
		CheckRedirect: f.checkRedirect,
		Jar:           nil, // no cookies kept, so none are sent
	}
	return f
}

// UserAgent returns the User-Agent the fetcher sends.
func (f *Fetcher) UserAgent() string { return f.userAgent }

// Preview fetches rawURL and extracts its preview. rawURL is an absolute
// http(s) URL or an internal path ("/…", resolved against PublicAppURL).
// Failures are *Error values (see Kind for the status of each); the only
// other error is ctx's own, when the caller gave up.
//
// A 2xx HTML page gives its metadata (see Extract); an image gives Image =
// the requested URL made absolute; anything else gives empty fields.
func (f *Fetcher) Preview(ctx context.Context, rawURL string) (Preview, error) {
	raw := strings.TrimSpace(rawURL)
	if raw == "" {
		return Preview{}, &Error{Kind: KindMissingURL}
	}
	if insidePreview(ctx) {
		return Preview{}, newError(KindForbidden, "a link preview cannot preview another", nil)
	}
	u, err := f.parseTarget(raw)
	if err != nil {
		return Preview{}, err
	}
	p, err := f.fetch(ctx, u)
	if err != nil {
		return Preview{}, err
	}
	p.URL = raw
	return p, nil
}

// parseTarget checks a requested URL before anything touches the network.
func (f *Fetcher) parseTarget(raw string) (*url.URL, error) {
	if len(raw) > maxURLLength {
		return nil, newError(KindBadURL, "URL is too long", nil)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, newError(KindBadURL, "malformed URL", err)
	}
	if u.Scheme == "" && u.Host == "" && strings.HasPrefix(raw, "/") && !strings.HasPrefix(raw, "//") {
		if f.appURL == nil {
			return nil, newError(KindBadURL, "internal paths need PUBLIC_APP_URL", nil)
		}
		u = f.appURL.ResolveReference(u)
	}
	if u.Scheme == "" {
		return nil, newError(KindBadURL, "URL must be absolute or a path starting with /", nil)
	}
	if f.ownOrigin(u) {
		return u, nil
	}
	if err := f.guard.CheckURL(u); err != nil {
		return nil, guardError(err, KindBadURL)
	}
	return u, nil
}

func (f *Fetcher) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) > f.cfg.MaxRedirects {
		return newError(KindUpstream, fmt.Sprintf("more than %d redirects", f.cfg.MaxRedirects), nil)
	}
	if f.ownOrigin(req.URL) {
		return nil
	}
	if err := f.guard.CheckURL(req.URL); err != nil {
		return guardError(err, KindForbidden)
	}
	return nil
}

// guardError is a URL the guard refused, as a preview error. A URL of the
// wrong shape is shapeKind: the caller's mistake (bad URL) when the caller
// typed it, the target's doing (forbidden) when a redirect led there.
func guardError(err error, shapeKind Kind) error {
	var ge *netguard.Error
	if !errors.As(err, &ge) {
		return err
	}
	k := shapeKind
	if ge.Forbidden {
		k = KindForbidden
	}
	return newError(k, ge.Details, ge.Err)
}

func (f *Fetcher) fetch(ctx context.Context, u *url.URL) (Preview, error) {
	tctx, cancel := context.WithTimeout(ctx, f.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(tctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return Preview{}, newError(KindBadURL, "malformed URL", err)
	}
	req.Header.Set("User-Agent", f.userAgent)
	req.Header.Set("Accept", "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5")
	req.Header.Set("Accept-Encoding", "gzip, br")
	resp, err := f.client.Do(req)
	if err != nil {
		return Preview{}, f.classify(ctx, tctx, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return Preview{}, newError(KindUpstream, statusText(resp.StatusCode), nil)
	}
	ct := resp.Header.Get("Content-Type")
	mt, _, _ := mime.ParseMediaType(ct)
	if strings.HasPrefix(mt, "image/") {
		return Preview{Image: imageURL(u)}, nil
	}
	if mt != "" && mt != "application/octet-stream" && !isHTMLType(mt) {
		return Preview{}, nil
	}
	body, err := decodeBody(resp, f.cfg.MaxBody)
	if err != nil {
		return Preview{}, err
	}
	var in io.Reader = body
	if !isHTMLType(mt) { // no usable Content-Type: sniff, as a browser would
		br := bufio.NewReaderSize(body, 512)
		head, err := br.Peek(512)
		if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
			return Preview{}, f.bodyError(ctx, tctx, err)
		}
		sniffed, _, _ := mime.ParseMediaType(http.DetectContentType(head))
		switch {
		case strings.HasPrefix(sniffed, "image/"):
			return Preview{Image: imageURL(u)}, nil
		case sniffed != "text/html":
			return Preview{}, nil
		}
		in = br
	}
	m, err := Extract(in, ct, resp.Request.URL)
	if err != nil {
		return Preview{}, f.bodyError(ctx, tctx, err)
	}
	return Preview{Title: m.Title, Description: m.Description, Image: m.Image}, nil
}

// imageURL is the requested URL as the image of an image target,
// serialized as Extract serializes images.
func imageURL(u *url.URL) string {
	if s := resolveImage(nil, u.String()); s != "" {
		return s
	}
	return u.String()
}

func isHTMLType(mt string) bool { return mt == "text/html" || mt == "application/xhtml+xml" }

// statusText is "404 Not Found": the code and its standard text (the
// upstream's own reason phrase is not passed on; it is the remote's text).
func statusText(code int) string {
	if t := http.StatusText(code); t != "" {
		return strconv.Itoa(code) + " " + t
	}
	return strconv.Itoa(code)
}

// decodeBody returns the response body, decompressed, reading at most max
// bytes from the wire and producing at most max bytes.
func decodeBody(resp *http.Response, max int64) (io.Reader, error) {
	wire := io.LimitReader(resp.Body, max)
	var r io.Reader
	switch enc := strings.ToLower(strings.TrimSpace(resp.Header.Get("Content-Encoding"))); enc {
	case "", "identity":
		return wire, nil
	case "gzip", "x-gzip":
		zr, err := gzip.NewReader(wire)
		if err != nil {
			return nil, newError(KindUpstream, "invalid gzip body", err)
		}
		r = zr
	case "br":
		r = brotli.NewReader(wire)
	case "deflate":
		zr, err := zlib.NewReader(wire)
		if err != nil {
			return nil, newError(KindUpstream, "invalid deflate body", err)
		}
		r = zr
	default:
		return nil, newError(KindUpstream, "unsupported content encoding", nil)
	}
	return io.LimitReader(r, max), nil
}

// bodyError classifies a failure while reading the body.
func (f *Fetcher) bodyError(ctx, tctx context.Context, err error) error {
	if ctx.Err() != nil || tctx.Err() != nil {
		return f.classify(ctx, tctx, err)
	}
	return newError(KindUpstream, "error reading the response body", err)
}

// classify turns a client error into an *Error (or the caller's own
// context error).
func (f *Fetcher) classify(ctx, tctx context.Context, err error) error {
	var pe *Error
	if errors.As(err, &pe) {
		return pe
	}
	if netguard.Refused(err) {
		return newError(KindForbidden, "target address is not allowed", err)
	}
	if ctx.Err() != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("link preview: %w", ctx.Err())
	}
	if tctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) || isTimeout(err) {
		return newError(KindTimeout, "no answer within "+f.cfg.Timeout.String(), err)
	}
	var dnsErr *net.DNSError
	var certErr *tls.CertificateVerificationError
	var hostErr x509.HostnameError
	var recErr tls.RecordHeaderError
	var alert tls.AlertError
	switch {
	case errors.As(err, &dnsErr):
		return newError(KindUpstream, "could not resolve host", err)
	case errors.As(err, &certErr), errors.As(err, &hostErr), errors.As(err, &recErr), errors.As(err, &alert):
		return newError(KindUpstream, "TLS handshake failed", err)
	case errors.Is(err, syscall.ECONNREFUSED):
		return newError(KindUpstream, "connection refused", err)
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Op == "dial" {
		return newError(KindUpstream, "could not connect", err)
	}
	return newError(KindUpstream, "request failed", err)
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
