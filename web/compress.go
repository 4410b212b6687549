package web

import (
	"compress/gzip"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/andybalholm/brotli"
	"github.com/labstack/echo/v4"
)

// compressMin is the smallest body worth compressing: below it the
// encoding's header and the work cost more than the bytes saved.
const compressMin = 1024

// Levels for bodies built per request: brotli 5 and gzip 5 keep most of
// the gain of their best levels at a fraction of the time; brotli below 5
// does no better than gzip (the figures are in docs/performance.md).
const (
	brotliLevel = 5
	gzipLevel   = 5
)

var (
	gzipWriters = sync.Pool{New: func() any {
		w, _ := gzip.NewWriterLevel(io.Discard, gzipLevel)
		return w
	}}
	brotliWriters = sync.Pool{New: func() any { return brotli.NewWriterLevel(io.Discard, brotliLevel) }}
)

// compress answers in brotli or gzip, whichever the client prefers of
// those it accepts (brotli on a tie), once a body passes compressMin.
// A body that declares its length, already has an encoding, or is of a
// type that gains nothing or must reach the client as written (event
// streams, raster images, archives) passes through untouched; so do HEAD,
// 204 and 304 answers. A flush sends what is compressed so far, so a
// streamed export still arrives as it is written. Errors are answered
// here, compressed too.
func compress(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		res := c.Response()
		res.Header().Add(echo.HeaderVary, echo.HeaderAcceptEncoding)
		req := c.Request()
		enc := pickEncoding(req.Header.Get(echo.HeaderAcceptEncoding))
		if enc == "" || req.Method == http.MethodHead {
			return next(c)
		}
		w := &compressWriter{ResponseWriter: res.Writer, enc: enc}
		res.Writer = w
		defer func() {
			w.finish()
			res.Writer = w.ResponseWriter
		}()
		// An error is rendered here, through the compressor, rather than
		// at the edge of the chain after it has gone: error pages weigh
		// what other pages do.
		if err := next(c); err != nil {
			c.Error(err)
		}
		return nil
	}
}

// pickEncoding is "br", "gzip" or "" for an Accept-Encoding header: the
// one with the higher q, brotli on a tie; q=0 refuses.
func pickEncoding(accept string) string {
	best, bestQ := "", 0.0
	for part := range strings.SplitSeq(accept, ",") {
		name, params, _ := strings.Cut(part, ";")
		name = strings.ToLower(strings.TrimSpace(name))
		if name != "br" && name != "gzip" && name != "*" {
			continue
		}
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				continue
			}
			q = f
		}
		if name == "*" {
			name = "br"
		}
		if q > bestQ || q == bestQ && q > 0 && name == "br" {
			best, bestQ = name, q
		}
	}
	return best
}

// compressWriter holds the first compressMin bytes until it knows whether
// the body is worth compressing.
type compressWriter struct {
	http.ResponseWriter
	enc     string
	code    int
	buf     []byte
	decided bool
	zw      interface {
		io.WriteCloser
		Flush() error
	}
}

func (w *compressWriter) WriteHeader(code int) {
	if w.decided || w.code != 0 {
		w.ResponseWriter.WriteHeader(code)
		return
	}
	w.code = code
	if code == http.StatusNoContent || code == http.StatusNotModified || code < http.StatusOK || !w.eligible() {
		w.pass()
	}
}

func (w *compressWriter) Write(b []byte) (int, error) {
	if w.decided {
		if w.zw != nil {
			return w.zw.Write(b)
		}
		return w.ResponseWriter.Write(b)
	}
	if w.Header().Get(echo.HeaderContentType) == "" {
		w.Header().Set(echo.HeaderContentType, http.DetectContentType(b))
	}
	if !w.eligible() {
		w.pass()
		return w.ResponseWriter.Write(b)
	}
	w.buf = append(w.buf, b...)
	if len(w.buf) >= compressMin {
		if err := w.start(); err != nil {
			return 0, err
		}
	}
	return len(b), nil
}

// Flush sends what is written so far: a body still being held is
// compressed from here on, since more may follow.
func (w *compressWriter) Flush() {
	if !w.decided {
		if w.eligible() && len(w.buf) > 0 {
			w.start() //nolint:errcheck // a failed write surfaces on the next Write
		} else {
			w.pass()
		}
	}
	if w.zw != nil {
		w.zw.Flush() //nolint:errcheck // as above
	}
	http.NewResponseController(w.ResponseWriter).Flush() //nolint:errcheck // a writer that cannot flush sends at the end
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (w *compressWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// eligible tells whether the response, as its headers stand, may be
// compressed.
func (w *compressWriter) eligible() bool {
	h := w.Header()
	if h.Get(echo.HeaderContentLength) != "" || h.Get(echo.HeaderContentEncoding) != "" {
		return false
	}
	return compressibleType(h.Get(echo.HeaderContentType))
}

// compressibleType is false for what must reach the client as written
// (an event stream is read as it arrives) and for what is compressed
// already (raster images, archives, fonts); SVG is text and compresses.
func compressibleType(ctype string) bool {
	t, _, err := mime.ParseMediaType(ctype)
	if err != nil {
		return ctype == ""
	}
	switch {
	case t == "text/event-stream":
		return false
	case t == "image/svg+xml":
		return true
	case strings.HasPrefix(t, "image/"), strings.HasPrefix(t, "video/"), strings.HasPrefix(t, "audio/"), strings.HasPrefix(t, "font/"):
		return false
	case t == "application/octet-stream", t == "application/gzip", t == "application/zip", t == "application/x-gzip":
		return false
	}
	return true
}

// start sends the headers with the encoding and the held bytes through
// the compressor.
func (w *compressWriter) start() error {
	w.decided = true
	h := w.Header()
	h.Set(echo.HeaderContentEncoding, w.enc)
	h.Del(echo.HeaderContentLength)
	if w.enc == "br" {
		bw := brotliWriters.Get().(*brotli.Writer)
		bw.Reset(w.ResponseWriter)
		w.zw = bw
	} else {
		gw := gzipWriters.Get().(*gzip.Writer)
		gw.Reset(w.ResponseWriter)
		w.zw = gw
	}
	w.ResponseWriter.WriteHeader(w.statusCode())
	buf := w.buf
	w.buf = nil
	_, err := w.zw.Write(buf)
	return err
}

// pass sends the response as it is, held bytes first.
func (w *compressWriter) pass() {
	w.decided = true
	if w.code != 0 {
		w.ResponseWriter.WriteHeader(w.code)
	}
	if len(w.buf) > 0 {
		w.ResponseWriter.Write(w.buf) //nolint:errcheck // the handler's next write sees the same failure
		w.buf = nil
	}
}

func (w *compressWriter) statusCode() int {
	if w.code == 0 {
		return http.StatusOK
	}
	return w.code
}

// finish ends the body: a short body goes out as it is, a compressed one
// gets its trailer, and the compressor goes back to its pool.
func (w *compressWriter) finish() {
	if !w.decided {
		if w.code != 0 || len(w.buf) > 0 {
			w.pass()
		}
		return
	}
	if w.zw == nil {
		return
	}
	w.zw.Close() //nolint:errcheck // a client gone midway; nothing is left to tell it
	switch z := w.zw.(type) {
	case *brotli.Writer:
		z.Reset(io.Discard)
		brotliWriters.Put(z)
	case *gzip.Writer:
		z.Reset(io.Discard)
		gzipWriters.Put(z)
	}
	w.zw = nil
}
