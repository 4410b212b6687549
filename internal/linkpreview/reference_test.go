package linkpreview

import (
	"bytes"
	"errors"
	"io"
	"net/url"

	"golang.org/x/net/html"
)

// extractReference is Extract driven by x/net/html's Tokenizer instead of
// the package's scanner. The two must agree on every input (FuzzExtract,
// TestScannerMatchesReference); it also gives the benchmarks a baseline.
func extractReference(r io.Reader, contentType string, base *url.URL) (Meta, error) {
	var head [sniffLen]byte
	n, _, err := readHead(r, head[:])
	if err != nil {
		return Meta{}, err
	}
	dec, bom := sniffEncoding(head[:n], contentType)
	dr := io.MultiReader(bytes.NewReader(head[bom:n]), r)
	if dec != nil {
		dr = dec.Reader(dr)
	}
	h := newExtractor(base, false)
	z := html.NewTokenizer(dr)
	var t tagToken
	next := textData // kind of the next text token
	for !h.stop {
		tt := z.Next()
		kind := next
		next = textData
		switch tt {
		case html.ErrorToken:
			if err := z.Err(); !errors.Is(err, io.EOF) {
				return Meta{}, err
			}
			return h.finish(), nil
		case html.TextToken:
			h.text(z.Text(), kind)
		case html.StartTagToken, html.SelfClosingTagToken:
			name, more := z.TagName()
			t.name = name
			t.attrs = t.attrs[:0]
			t.escaped = false
			t.selfClosing = tt == html.SelfClosingTagToken
			for more {
				var k, v []byte
				k, v, more = z.TagAttr()
				t.attrs = append(t.attrs, attrKV{key: k, val: v})
			}
			if h.startTag(&t) {
				z.NextIsNotRawText()
			} else if n := rawTextElement(name); n != "" {
				next = textRaw
				if n == "title" || n == "textarea" {
					next = textRCDATA
				}
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			h.endTag(name)
		default:
			h.boundary()
		}
	}
	return h.finish(), nil
}
