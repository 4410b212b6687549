package linkpreview

import (
	"bytes"
	"net/url"
	"testing"
)

// FuzzExtract feeds arbitrary bytes and Content-Types to Extract. It must
// not fail on anything a page can contain, its output must be clean (valid,
// collapsed UTF-8; an absolute http(s) image), and it must agree with the
// same extractor driven by x/net/html's Tokenizer.
//
// CI runs it briefly:
//
//	go test -run '^$' -fuzz '^FuzzExtract$' -fuzztime 10s ./internal/linkpreview
func FuzzExtract(f *testing.F) {
	for _, e := range loadCorpus(f) {
		if e.isHTML() {
			f.Add(e.body(f), e.ContentType)
		}
	}
	for _, s := range []string{
		"<script><!--<script></script>--></script><title>t</title>",
		"<svg><title>x</title><p><title>y</title>",
		"<!-- --!><base href=//h/><meta property=og:image content=i>",
		"<meta property=og:title content=a><meta property=og:description content=b><meta property=og:image content=c><base href=https://x/>",
		"<span itemprop=name>a<span/>b</span><p itemprop=description>c<div>",
		"<meta content='&ampx &copy=1 &#0; &#x110000;' name=description>",
	} {
		f.Add([]byte(s), "text/html")
	}
	f.Add([]byte("\xfe\xff\x00<\x00t\x00i\x00t\x00l\x00e\x00>\x00x"), "")
	f.Add([]byte("<meta charset=shift_jis><title>\x82\xa0</title>"), "text/html")
	base, _ := url.Parse("http://example.test/dir/page?q=1")
	f.Fuzz(func(t *testing.T, doc []byte, contentType string) {
		got, err := Extract(bytes.NewReader(doc), contentType, base)
		if err != nil {
			t.Fatalf("Extract: %v", err)
		}
		checkMeta(t, doc, got)
		want, err := extractReference(bytes.NewReader(doc), contentType, base)
		if err != nil {
			t.Fatalf("reference: %v", err)
		}
		if got != want {
			t.Errorf("scanner and x/net/html disagree on %q (%q)\nscanner   %+v\nreference %+v", doc, contentType, got, want)
		}
	})
}
