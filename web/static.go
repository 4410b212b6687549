package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
)

// staticFiles serves the embedded static folder. Each file is read once,
// on its first request: its version is a digest of its content, its ETag
// follows the version, and text files keep a gzipped copy. A URL that
// names the current version (?v=, as pages link them through
// views.Asset) may be kept by browsers for a year without asking again; a
// bare URL is revalidated (304 while unchanged). So a repeat visit
// downloads no CSS or script at all, and a new release is picked up at
// once because its pages link new versions.
type staticFiles struct {
	fs    fs.FS
	files sync.Map // name → *staticFile
}

type staticFile struct {
	body, gz []byte
	version  string
	ctype    string
}

func newStaticFiles(fsys fs.FS) *staticFiles { return &staticFiles{fs: fsys} }

// immutable is how long a versioned file may be kept: a year, never
// revalidated (its URL changes with its content).
const immutable = "public, max-age=31536000, immutable"

func (s *staticFiles) file(name string) (*staticFile, error) {
	if f, ok := s.files.Load(name); ok {
		return f.(*staticFile), nil
	}
	if !fs.ValidPath(name) {
		return nil, fs.ErrNotExist
	}
	body, err := fs.ReadFile(s.fs, name)
	if err != nil {
		return nil, err // a folder, or nothing by that name
	}
	sum := sha256.Sum256(body)
	f := &staticFile{body: body, version: hex.EncodeToString(sum[:6]), ctype: mime.TypeByExtension(path.Ext(name))}
	if f.ctype == "" {
		f.ctype = http.DetectContentType(body)
	}
	if compressible(f.ctype) && len(body) > 1024 {
		f.gz = gzipped(body)
	}
	got, _ := s.files.LoadOrStore(name, f)
	return got.(*staticFile), nil
}

func compressible(ctype string) bool {
	return strings.HasPrefix(ctype, "text/") || strings.Contains(ctype, "javascript") ||
		strings.Contains(ctype, "json") || strings.Contains(ctype, "svg")
}

func gzipped(body []byte) []byte {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression) // once per file and process
	w.Write(body)                                           //nolint:errcheck // a bytes.Buffer does not fail
	w.Close()                                               //nolint:errcheck
	return buf.Bytes()
}

// Version is the version of the static file at path ("/static/css/app.css"),
// "" when there is none.
func (s *staticFiles) Version(p string) string {
	f, err := s.file(strings.TrimPrefix(p, api.PathStatic+"/"))
	if err != nil {
		return ""
	}
	return f.version
}

// Handle answers GET /static/*.
func (s *staticFiles) Handle(c echo.Context) error {
	f, err := s.file(c.Param("*"))
	if err != nil {
		return echo.ErrNotFound // nothing by that name, or a folder: the embedded files cannot fail otherwise
	}
	req, h := c.Request(), c.Response().Header()
	body, etag := f.body, `"`+f.version+`"`
	if f.gz != nil && api.AcceptsGzip(req) {
		body, etag = f.gz, `"`+f.version+`-gz"`
		h.Set(echo.HeaderContentEncoding, "gzip")
	}
	h.Set(echo.HeaderVary, echo.HeaderAcceptEncoding)
	h.Set("ETag", etag)
	if c.QueryParam("v") == f.version {
		h.Set(echo.HeaderCacheControl, immutable)
	} else {
		h.Set(echo.HeaderCacheControl, "no-cache")
	}
	if strings.Contains(req.Header.Get("If-None-Match"), etag) {
		h.Del(echo.HeaderContentEncoding)
		return c.NoContent(http.StatusNotModified)
	}
	return c.Blob(http.StatusOK, f.ctype, body)
}
