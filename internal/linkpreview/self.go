package linkpreview

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// A preview of the app's own pages (an internal path, or an absolute URL on
// PublicAppURL's origin) is answered by Config.Self in this process. Going
// over the network would dial the app's own address, which in every
// development setup is loopback or private and so refused by the address
// policy; in process there is no address to guard. The request is the one
// the network would carry: same User-Agent, Accept headers, time limit,
// body cap and redirect rules, and no cookies.

type selfKey struct{}
type clientKey struct{}

// WithClient returns ctx carrying the address of the caller a preview is
// made for. An in-process request comes from that address, so the app's rate
// limits and blocks count it against the caller, not against Plaza itself.
func WithClient(ctx context.Context, addr string) context.Context {
	return context.WithValue(ctx, clientKey{}, addr)
}

// insidePreview reports whether ctx belongs to a request the fetcher itself
// made in process: a preview asked for from inside a preview is refused, so
// that /api/link-preview?url=/api/link-preview?url=… cannot nest.
func insidePreview(ctx context.Context) bool {
	v, _ := ctx.Value(selfKey{}).(bool)
	return v
}

// ownOrigin reports whether u is on PublicAppURL's origin.
func (f *Fetcher) ownOrigin(u *url.URL) bool {
	return f.cfg.Self != nil && f.appURL != nil && u.User == nil &&
		strings.EqualFold(u.Scheme, f.appURL.Scheme) && strings.EqualFold(u.Host, f.appURL.Host)
}

// transport sends the app's own URLs to Self and the rest to the guarded
// network transport, hop by hop, so a redirect may cross between the two.
type transport struct {
	f   *Fetcher
	net http.RoundTripper
}

func (t transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if !t.f.ownOrigin(req.URL) {
		return t.net.RoundTrip(req)
	}
	return t.f.serveSelf(req)
}

// serveSelf answers req from Self. The answer is buffered up to MaxBody;
// beyond that the handler's writes fail and the body is cut there, as a
// network body would be.
func (f *Fetcher) serveSelf(req *http.Request) (*http.Response, error) {
	ctx := context.WithValue(req.Context(), selfKey{}, true)
	in := req.Clone(ctx)
	in.RequestURI = req.URL.RequestURI()
	in.Host = f.appURL.Host
	in.RemoteAddr = net.JoinHostPort(clientOf(req.Context()), "0")
	in.Header.Del("Cookie")
	in.Header.Del("Authorization")
	w := &capped{header: http.Header{}, max: f.cfg.MaxBody}
	f.cfg.Self.ServeHTTP(w, in)
	if err := req.Context().Err(); err != nil {
		return nil, err
	}
	w.WriteHeader(http.StatusOK) // a handler that wrote nothing answered 200
	return &http.Response{
		Status: http.StatusText(w.status), StatusCode: w.status, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: w.sent, Body: io.NopCloser(bytes.NewReader(w.body.Bytes())), ContentLength: -1, Request: req,
	}, nil
}

// clientOf is the caller's address from WithClient; without one the
// request comes from the unspecified address, which no limit or block
// shares with a real caller.
func clientOf(ctx context.Context) string {
	if a, ok := ctx.Value(clientKey{}).(string); ok && a != "" {
		return a
	}
	return "0.0.0.0"
}

// errBodyFull ends a handler's writes past MaxBody.
var errBodyFull = errors.New("linkpreview: response body over the limit")

// capped is the http.ResponseWriter of an in-process request.
type capped struct {
	header http.Header
	sent   http.Header // the header as it was when the status was written
	status int
	body   bytes.Buffer
	max    int64
}

func (w *capped) Header() http.Header { return w.header }

// Flush is a no-op: the answer is read only once the handler returns. The
// app's pages flush as they render (templ, its HTML error pages), and echo
// panics when the writer beneath cannot.
func (w *capped) Flush() { w.WriteHeader(http.StatusOK) }

func (w *capped) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
		w.sent = w.header.Clone() // later changes to the map are not sent, as on the network
	}
}

func (w *capped) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	room := w.max - int64(w.body.Len())
	if int64(len(p)) <= room {
		return w.body.Write(p)
	}
	n, _ := w.body.Write(p[:max(room, 0)])
	return n, errBodyFull
}
