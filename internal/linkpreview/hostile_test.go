package linkpreview

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestExtractHostileInputs runs inputs built to make a tokenizer go
// quadratic; each must finish quickly and agree with the reference.
func TestExtractHostileInputs(t *testing.T) {
	const n = 1 << 20
	docs := map[string]string{
		"many attributes":           "<a " + strings.Repeat("b ", n/2) + "/>",
		"many distinct attributes":  "<a" + strings.Repeat(" b", 1) + genAttrs(n/8) + "/><title>t</title>",
		"many unclosed tags":        strings.Repeat("<a b='", n/6),
		"many less-than signs":      strings.Repeat("<", n),
		"many end-tag openers":      strings.Repeat("</", n/2),
		"many comment openers":      strings.Repeat("<!--", n/4),
		"many bogus comments":       strings.Repeat("<!x", n/3),
		"comment of dashes":         "<!--" + strings.Repeat("-!", n/2),
		"script of escapes":         "<script>" + strings.Repeat("<!--<script>", n/12),
		"script of end-tag openers": "<script>" + strings.Repeat("</scrip", n/7),
		"title of end-tag openers":  "<title>" + strings.Repeat("</titl", n/6),
		"deep svg":                  strings.Repeat("<svg><g>", n/8) + strings.Repeat("</x>", 1000),
		"nested microdata":          strings.Repeat(`<div itemprop="name description">`, n/32) + "x",
		"many metas":                strings.Repeat(`<meta property="og:title" content="">`, n/37),
		"many itemprops":            strings.Repeat(`<i itemprop=x>`, n/14),
		"entities":                  "<title>" + strings.Repeat("&amp", n/4),
	}
	base := mustURL(t, "http://example.test/")
	for name, doc := range docs {
		start := time.Now()
		compareWithReference(t, []byte(doc), "text/html; charset=utf-8", base)
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s: took %v", name, d)
		}
	}
}

func genAttrs(k int) string {
	var b bytes.Buffer
	for i := 0; i < k; i++ {
		b.WriteString(" a")
		b.WriteByte(byte('a' + i%26))
		b.WriteByte(byte('a' + i/26%26))
		b.WriteByte(byte('a' + i/676%26))
	}
	return b.String()
}
