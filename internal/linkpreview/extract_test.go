package linkpreview

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/url"
	"strings"
	"testing"
	"testing/iotest"
	"time"
	"unicode/utf8"
)

// TestExtractCorpus runs every HTML page of the corpus through Extract and
// through the x/net/html reference, fed whole, a byte at a time and in
// random chunks.
func TestExtractCorpus(t *testing.T) {
	entries := loadCorpus(t)
	if len(entries) < 40 {
		t.Fatalf("corpus has %d pages, want at least 40", len(entries))
	}
	for _, e := range entries {
		if !e.isHTML() {
			continue
		}
		t.Run(e.Name, func(t *testing.T) {
			body := e.body(t)
			base := mustURL(t, corpusHost+e.path())
			readers := map[string]func() io.Reader{
				"whole":    func() io.Reader { return bytes.NewReader(body) },
				"one byte": func() io.Reader { return iotest.OneByteReader(bytes.NewReader(body)) },
				"chunks":   func() io.Reader { return &chunkReader{b: body, rnd: rand.New(rand.NewPCG(1, uint64(len(body))))} },
			}
			for name, r := range readers {
				got, err := Extract(r(), e.ContentType, base)
				if err != nil {
					t.Fatalf("%s: Extract: %v", name, err)
				}
				if got != e.want() {
					t.Errorf("%s: Extract\n got %+v\nwant %+v\n(%s)", name, got, e.want(), e.Note)
				}
			}
			ref, err := extractReference(bytes.NewReader(body), e.ContentType, base)
			if err != nil {
				t.Fatal(err)
			}
			if ref != e.want() {
				t.Errorf("reference\n got %+v\nwant %+v", ref, e.want())
			}
		})
	}
}

// chunkReader returns its bytes in random pieces of 1 to 700 bytes.
type chunkReader struct {
	b   []byte
	rnd *rand.Rand
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.b) == 0 {
		return 0, io.EOF
	}
	n := min(len(p), len(c.b), 1+c.rnd.IntN(700))
	copy(p, c.b[:n])
	c.b = c.b[n:]
	return n, nil
}

// TestScannerMatchesReference holds the scanner to x/net/html's tokenizer on
// inputs that exercise its odd corners. Each snippet is followed by tags
// whose fate depends on how the snippet was tokenized.
func TestScannerMatchesReference(t *testing.T) {
	snippets := []string{
		"", "<", "</", "<!", "<!-", "<!--", "<?", "</>", "< p>", "<3", "a < b > c",
		"<!-->", "<!--->", "<!---->", "<!-- a -- b -->", "<!-- --!>", "<!-- --!->", "<!-- --!-->", "<!-- -!>",
		"<!-- <title>in comment</title> ", "<!doctype html>", "<!DOCTYPE", "<!DOCTY", "<![CDATA[ <title>x</title> ]]>",
		"<?xml version='1.0'?>", "</ title>", "</title foo='>'>", "</3>", "<a/b>", "<a b/>", "<a b=x/>", "<a b='x'/>",
		"<a =b>", "<a ==b>", "<a b = >", "<a b=>", `<a b="x>y">`, "<a b='", `<meta content="x`, "<meta",
		"<script>", "<script>a</script", "<script>a</scriptx></script>", "<script><!--</script>",
		"<script><!-- <script> </script> x --></script>", "<script><!-- <script> </script> --></script>",
		"<script><!--<script></script>--><title>t</title></script>", "<script><!-- -><- -- <SCRIPT>--></script>",
		"<SCRIPT>x</SCRIPT >", "<script>x</script/>", "<style>a</style", "<style><title>x</title></style>",
		"<textarea><title>no</title></textarea>", "<title>", "<title>a<!--b-->c</title>", "<title>&amp", "<title>&am</title>",
		"<title/>x</title>", "<xmp><title>x</title></xmp>", "<iframe><meta name=description content=no></iframe>",
		"<noembed>", "<noframes><title>x</title></noframes>", "<plaintext>", "<PLAINTEXT>", "<svg><title>svg</title></svg>",
		"<svg/><title>after</title>", "<svg><script>x</script><title>t</title></svg>", "<math><mi><title>m</title></mi></math>",
		"<svg><p><title>p breaks out</title>", "<svg><font color=red><title>f</title>", "<svg><font><title>f</title>",
		"<svg></div><title>x</title>", "<svg><style><title>in svg style</title></style></svg>",
		"<noscript><title>ns</title></noscript>", "<span itemprop=name>a<span/>b</span>c</span>",
		"<p itemprop=description>one<p>two", "<li itemprop=name>x<li>y", "<div itemprop=name>&amp;<!-- -->amp;</div>",
		"<div itemprop=name>\x00</div>", "<title>\r\n a \r b</title>", "<meta name=description content='a&#13;b'>",
		"<meta name=description content='&ampx &amp=y &copy=2 &#x41 &#65 &notin; &notit;'>", "<meta property=og:image content='&#0;'>",
		"<base href='https://other.example/'>", "<base>", "<base href>", "<base href=javascript:x>",
		"<meta property=og:title content=T><meta property=og:description content=D><meta property=og:image content=/i.png>",
		"<meta property=og:title content=T><meta property=og:description content=D><meta property=og:image content=https://a.example/i.png>",
		"\xef\xbb\xbf<title>bom</title>", "<a b c d e f g h i j k l m n o p q r s t u v w x y z>", strings.Repeat("<", 3000),
		strings.Repeat("<!--", 100), strings.Repeat("<a ", 500), "<title>" + strings.Repeat("x", 40000),
		"<script>" + strings.Repeat("<!--<script>", 3000), "<!--" + strings.Repeat("-", 40000) + "!>",
	}
	const tail = "<title>T</title><meta name=description content=D><span itemprop=name>N</span><img itemprop=image src=/i.png>"
	base := mustURL(t, "http://example.test/dir/page")
	for _, s := range snippets {
		for _, doc := range []string{s + tail, tail + s, "<title>" + s + "</title>" + s + tail} {
			compareWithReference(t, []byte(doc), "text/html; charset=utf-8", base)
		}
	}
}

func compareWithReference(t *testing.T, doc []byte, ct string, base *url.URL) {
	t.Helper()
	got, err := Extract(bytes.NewReader(doc), ct, base)
	if err != nil {
		t.Fatalf("Extract(%.80q): %v", doc, err)
	}
	want, err := extractReference(bytes.NewReader(doc), ct, base)
	if err != nil {
		t.Fatalf("reference(%.80q): %v", doc, err)
	}
	if got != want {
		t.Errorf("scanner and reference disagree on %.200q\nscanner   %+v\nreference %+v", doc, got, want)
	}
}

// TestScannerBufferBoundaries moves tags, comments and scripts across the
// scanner's buffer edge, where tokens are cut and refilled.
func TestScannerBufferBoundaries(t *testing.T) {
	base := mustURL(t, "http://example.test/dir/page")
	tokens := []string{
		`<meta property="og:title" content="Across &amp; the edge">`,
		`<!-- <title>comment</title> -->`,
		`<script>var s = "</scr" + "ipt>"; <!-- <script></script> --></script>`,
		`<title>Title &eacute;dge</title>`,
		`<p itemprop="description">Desc<b>ription</b> &amp; more</p>`,
		`<style>p{}</style ><textarea><title>no</title></textarea >`,
	}
	for _, tok := range tokens {
		for pad := scanBufSize - 1024 - 120; pad < scanBufSize-1024+8; pad++ {
			doc := strings.Repeat("x", pad) + tok + "<meta name=description content=after>"
			compareWithReference(t, []byte(doc), "text/html; charset=utf-8", base)
		}
	}
}

// TestExtractStopsEarly checks that Extract stops reading once Open Graph
// has answered everything.
func TestExtractStopsEarly(t *testing.T) {
	head := `<html><head><meta property="og:title" content="T"><meta property="og:description" content="D">` +
		`<meta property="og:image" content="https://example.test/i.png"></head><body>`
	r := &limitedReader{r: io.MultiReader(strings.NewReader(head), neverEnding('x')), limit: 64 << 10, t: t}
	got, err := Extract(r, "text/html", mustURL(t, "http://example.test/"))
	if err != nil {
		t.Fatal(err)
	}
	if want := (Meta{"T", "D", "https://example.test/i.png"}); got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}

	// A relative image keeps it reading until a <base> settles it (or the end).
	rel := `<meta property="og:title" content="T"><meta property="og:description" content="D">` +
		`<meta property="og:image" content="i.png">` + strings.Repeat("<p>filler</p>", 5000) + `<base href="https://cdn.example.test/">`
	r = &limitedReader{r: io.MultiReader(strings.NewReader(rel), neverEnding('x')), limit: 256 << 10, t: t}
	got, err = Extract(r, "text/html", mustURL(t, "http://example.test/"))
	if err != nil {
		t.Fatal(err)
	}
	if want := (Meta{"T", "D", "https://cdn.example.test/i.png"}); got != want {
		t.Errorf("relative image: got %+v, want %+v", got, want)
	}
}

type neverEnding byte

func (b neverEnding) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(b)
	}
	return len(p), nil
}

// limitedReader fails the test if more than limit bytes are read.
type limitedReader struct {
	r     io.Reader
	n     int
	limit int
	t     *testing.T
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.n >= l.limit {
		l.t.Errorf("read past %d bytes: Extract did not stop", l.limit)
		return 0, errors.New("read too far")
	}
	n, err := l.r.Read(p[:min(len(p), l.limit-l.n)])
	l.n += n
	return n, err
}

// TestExtractLargePages checks pages of a few MiB: tags at the end of a page
// are found, memory does not depend on the page's text, and read errors
// surface.
func TestExtractLargePages(t *testing.T) {
	base := mustURL(t, "http://example.test/")
	page := benchPage(3<<19, false) // 1.5 MiB, tags last
	got, err := Extract(bytes.NewReader(page), "text/html; charset=utf-8", base)
	if err != nil {
		t.Fatal(err)
	}
	if got != benchWant {
		t.Errorf("tags last: got %+v, want %+v", got, benchWant)
	}
	want, _ := extractReference(bytes.NewReader(page), "text/html; charset=utf-8", base)
	if got != want {
		t.Errorf("scanner %+v, reference %+v", got, want)
	}

	// One 1 MiB attribute value, one 1 MiB comment and one 1 MiB script.
	big := strings.Repeat("y", 1<<20)
	doc := `<img alt="` + big + `"><!--` + big + `--><script>` + big + `</script>` + `<title>after the giants</title>`
	got, err = Extract(strings.NewReader(doc), "text/html", base)
	if err != nil || got.Title != "after the giants" {
		t.Errorf("giant tokens: got %+v, %v", got, err)
	}
	// The same, trickling in a byte per read: a cut token is re-scanned from
	// its start, so this is quadratic unless refills grow geometrically.
	start := time.Now()
	got, err = Extract(iotest.OneByteReader(strings.NewReader(doc)), "text/html", base)
	if err != nil || got.Title != "after the giants" {
		t.Errorf("giant tokens, one byte a read: got %+v, %v", got, err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("giant tokens, one byte a read: took %v", d)
	}

	boom := errors.New("connection reset")
	_, err = Extract(io.MultiReader(strings.NewReader("<html>"+big), iotest.ErrReader(boom)), "text/html", base)
	if !errors.Is(err, boom) {
		t.Errorf("read error: got %v, want %v", err, boom)
	}
}

// TestExtractOutputIsClean checks the output invariants on the corpus and on
// hostile bytes.
func TestExtractOutputIsClean(t *testing.T) {
	docs := [][]byte{
		[]byte("<title>\xff\xfe\x00 a\u2028b </title><meta name=description content='\x80\x81'>"),
		[]byte("<title>" + strings.Repeat(" \t\n", 1000) + "</title>"),
	}
	for _, e := range loadCorpus(t) {
		if e.isHTML() {
			docs = append(docs, e.body(t))
		}
	}
	for _, d := range docs {
		m, err := Extract(bytes.NewReader(d), "text/html; charset=utf-8", mustURL(t, "http://example.test/"))
		if err != nil {
			t.Fatal(err)
		}
		checkMeta(t, d, m)
	}
}

// checkMeta asserts what every Meta must satisfy.
func checkMeta(t *testing.T, doc []byte, m Meta) {
	t.Helper()
	for name, v := range map[string]string{"title": m.Title, "description": m.Description, "image": m.Image} {
		if !utf8.ValidString(v) {
			t.Errorf("%s %q is not valid UTF-8 (input %.80q)", name, v, doc)
		}
		if strings.TrimSpace(v) != v || strings.Contains(v, "  ") || strings.ContainsAny(v, "\x00\t\n\r") {
			t.Errorf("%s %q is not collapsed (input %.80q)", name, v, doc)
		}
	}
	if m.Image != "" && !strings.HasPrefix(m.Image, "http://") && !strings.HasPrefix(m.Image, "https://") {
		t.Errorf("image %q is not an absolute http(s) URL (input %.80q)", m.Image, doc)
	}
}

func TestUnescapeAttr(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a&amp;b", "a&b"},
		{"?a=1&copy=2", "?a=1&copy=2"},
		{"&copy;2", "©2"},
		{"&copy 2", "© 2"},
		{`say &quot;hi&quot; and "bye"`, `say "hi" and "bye"`},
		{`&amp"=x`, `&"=x`},
		{"&#x41;&#66;&#0;", "AB\uFFFD"},
		{"&notit;", "&notit;"},
		{"nul\x00", "nul\uFFFD"},
	}
	for _, tt := range tests {
		if got := unescapeAttr([]byte(tt.in)); got != tt.want {
			t.Errorf("unescapeAttr(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func ExampleExtract() {
	page := `<html><head><title>Plain title</title>
<meta property="og:title" content="Plaza &amp; friends">
<meta name="twitter:image" content="/img/card.png"></head></html>`
	base, _ := url.Parse("https://example.com/posts/1")
	m, _ := Extract(strings.NewReader(page), "text/html; charset=utf-8", base)
	fmt.Printf("%q\n%q\n%q\n", m.Title, m.Description, m.Image)
	// Output:
	// "Plaza & friends"
	// ""
	// "https://example.com/img/card.png"
}
