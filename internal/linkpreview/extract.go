package linkpreview

import (
	"bytes"
	"errors"
	"io"
	"net"
	"net/url"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/charset"
	"golang.org/x/net/idna"
	"golang.org/x/text/encoding"
)

// Meta is what a page says about itself. Every field is valid UTF-8 with its
// white space collapsed; Image is an absolute http(s) URL or empty.
type Meta struct {
	Title       string
	Description string
	Image       string
}

// The fields, and their sources in order of preference, best first.
const (
	fTitle = iota
	fDescription
	fImage
	numFields
)

const (
	srcOpenGraph = iota // og:title, og:description, og:image (og:image:url)
	srcTwitter          // twitter:title, twitter:description, twitter:image (twitter:image:src)
	srcStandard         // <title>, <meta name=description>, <meta name=image>
	srcMicrodata        // itemprop name, description, image
	numSources
)

// Extract reads an HTML document from r and returns its title, description
// and main image, each from the first source in this order that gives a
// non-empty value: Open Graph, Twitter card, standard tags (title element,
// meta name description / image), microdata (itemprop name, description,
// image). Within a source the first non-empty value wins.
//
// The input is decoded from the charset the HTML standard picks: a byte
// order mark, else the charset parameter of contentType, else a <meta
// charset> or <meta http-equiv=Content-Type> in the first 1024 bytes, else
// UTF-8 if those bytes are valid UTF-8 or plain ASCII, else windows-1252 (a
// declaration after the first 1024 bytes is not honoured). Character
// references are decoded and white space collapsed.
//
// The image is resolved against base (the document's URL after redirects)
// or the first <base href> in the document, and serialized as a browser
// serializes URLs; only http and https images are kept (javascript:, data:
// and the like fall through to the next source). With a nil base, a
// relative image counts only if a <base href> makes it absolute.
//
// Extract streams: it reads no further than it must, stopping as soon as
// the answer cannot change (an Open Graph value for every field, and the
// image's base settled). It never builds a tree; memory stays near the
// largest single token. It returns an error only when r fails before the
// answer is complete; contentType is consulted for the charset alone, and
// any input is read as HTML. The caller bounds the input (Preview reads at
// most Config.MaxBody bytes).
//
// What never counts: text inside script, style and other raw-text
// elements, comments, and tags inside <svg> or <math> (an SVG <title> is
// not the page title). <noscript> content is read as markup, as a client
// that runs no scripts sees it.
func Extract(r io.Reader, contentType string, base *url.URL) (Meta, error) {
	buf := make([]byte, scanBufStart)
	n, eof, err := readHead(r, buf[:sniffLen])
	if err != nil {
		return Meta{}, err
	}
	dec, bom := sniffEncoding(buf[:n], contentType)
	h := newExtractor(base, true)
	var s *scanner
	if dec == nil {
		s = newScanner(r, buf, bom, n, eof, h)
	} else {
		in := io.Reader(bytes.NewReader(bytes.Clone(buf[bom:n])))
		if !eof {
			in = io.MultiReader(in, r)
		}
		s = newScanner(dec.Reader(in), buf, 0, 0, false, h)
	}
	if err := s.run(); err != nil {
		return Meta{}, err
	}
	return h.finish(), nil
}

// sniffLen is how much of a document the encoding sniffing looks at.
const sniffLen = 1024

// readHead fills b from r unless r ends first (eof). Unlike io.ReadFull it
// tells a short document (io.EOF) from a failing reader, whatever the error
// (a cut HTTP body fails with io.ErrUnexpectedEOF).
func readHead(r io.Reader, b []byte) (n int, eof bool, err error) {
	for zeros := 0; n < len(b); {
		k, err := r.Read(b[n:])
		n += k
		if errors.Is(err, io.EOF) {
			return n, true, nil
		}
		if err != nil {
			return n, false, err
		}
		if k > 0 {
			zeros = 0
		} else if zeros++; zeros > 100 {
			return n, false, io.ErrNoProgress
		}
	}
	return n, false, nil
}

// sniffEncoding picks the document's encoding as the HTML standard does
// from its first bytes and Content-Type: it returns nil for UTF-8, else the
// decoder to UTF-8, and the length of any byte order mark to skip.
func sniffEncoding(head []byte, contentType string) (dec *encoding.Decoder, bom int) {
	enc, name, certain := charset.DetermineEncoding(head, contentType)
	if !certain && name == "windows-1252" && isASCII(string(head)) && !bytes.Contains(bytes.ToLower(head), []byte("charset")) {
		// Nothing declared and nothing but ASCII so far: the standard's
		// fallback would read later UTF-8 as windows-1252; nearly all of
		// today's web is UTF-8, so read it as that (bytes that are not
		// become U+FFFD).
		name = "utf-8"
	}
	switch {
	case bytes.HasPrefix(head, []byte("\xef\xbb\xbf")):
		bom = 3
	case bytes.HasPrefix(head, []byte("\xfe\xff")), bytes.HasPrefix(head, []byte("\xff\xfe")):
		bom = 2
	}
	if name == "utf-8" {
		return nil, bom
	}
	return enc.NewDecoder(), bom
}

// extractor receives tokens and keeps the first value of every field from
// every source. Both the fast scanner and (in tests) x/net/html's Tokenizer
// drive it, so they can be compared.
type extractor struct {
	titleBuf [128]byte // backing of title for most titles
	base     *url.URL
	escaped  bool // text arrives with character references undecoded
	val      [numFields][numSources]string
	baseHref string
	baseSeen bool
	stop     bool // the answer can no longer change

	inTitle bool
	title   []byte
	pending []byte // the current text token while someone collects it
	micro   [2]collector

	// Open SVG/MathML elements, names lower-cased, packed in fnames.
	fstack []int
	fnames []byte
}

// collector gathers the text content of an element with itemprop name or
// description.
type collector struct {
	active bool
	name   string // element name, lower-case
	depth  int    // open elements of that name, including it
	text   []byte
}

func newExtractor(base *url.URL, escaped bool) *extractor {
	h := &extractor{base: base, escaped: escaped}
	h.title = h.titleBuf[:0]
	return h
}

func (h *extractor) collecting() bool {
	return h.inTitle || h.micro[0].active || h.micro[1].active
}

// text receives a run of text. Pieces of one text token arrive in a row and
// end at the next tag, comment or the end of input, where flush decodes them.
func (h *extractor) text(b []byte, k textKind) {
	if k == textRaw || !h.collecting() {
		return
	}
	if k != textRCDATA && !h.micro[0].active && !h.micro[1].active {
		return // title text is RCDATA; anything else belongs to microdata only
	}
	h.pending = append(h.pending, b...)
}

func (h *extractor) flush() {
	if len(h.pending) == 0 {
		return
	}
	p := h.pending
	if h.escaped && bytes.IndexByte(p, '&') >= 0 {
		p = []byte(html.UnescapeString(string(p)))
	}
	if h.inTitle {
		h.title = append(h.title, p...)
	}
	for i := range h.micro {
		if h.micro[i].active {
			h.micro[i].text = append(h.micro[i].text, p...)
		}
	}
	h.pending = h.pending[:0]
}

// boundary is a comment, doctype or other markup that ends a text token.
func (h *extractor) boundary() { h.flush() }

// startTag handles a start tag. It returns true when the element's content
// is markup even though the tokenizer would read it as raw text (inside SVG
// or MathML, and <noscript>).
func (h *extractor) startTag(t *tagToken) (notRaw bool) {
	h.flush()
	name := t.name
	if len(h.fstack) > 0 {
		if !breaksOutOfForeign(t) {
			if !t.selfClosing {
				h.pushForeign(name)
			}
			return true
		}
		h.fstack, h.fnames = h.fstack[:0], h.fnames[:0]
	}
	h.closeImplied(name)
	switch {
	case eqFold(name, "meta"):
		h.meta(t)
	case eqFold(name, "title"):
		if h.val[fTitle][srcStandard] == "" && !h.inTitle {
			h.inTitle = true
			h.title = h.title[:0]
		}
	case eqFold(name, "base"):
		if href, ok := t.attr("href"); ok && !h.baseSeen {
			h.baseSeen = true
			h.baseHref = cleanURL(h.attrString(t, href))
			h.check()
		}
	case eqFold(name, "svg"), eqFold(name, "math"):
		if !t.selfClosing {
			h.pushForeign(name)
		}
	case eqFold(name, "noscript"):
		notRaw = true
	}
	for i := range h.micro {
		c := &h.micro[i]
		if c.active && eqFold(name, c.name) && !isVoid(name) {
			c.depth++
		}
	}
	if ip, ok := t.attr("itemprop"); ok {
		h.itemprop(t, ip)
	}
	return notRaw
}

// endTag handles an end tag.
func (h *extractor) endTag(name []byte) {
	h.flush()
	if n := len(h.fstack); n > 0 {
		for i := n - 1; i >= 0; i-- {
			if eqFoldBytes(name, h.fnames[h.fstack[i]:h.foreignEnd(i)]) {
				h.fnames = h.fnames[:h.fstack[i]]
				h.fstack = h.fstack[:i]
				return
			}
		}
		// Not a foreign element: it closes an HTML ancestor, and with it the
		// foreign subtree.
		h.fstack, h.fnames = h.fstack[:0], h.fnames[:0]
	}
	if h.inTitle && eqFold(name, "title") {
		h.endTitle()
	}
	for i := range h.micro {
		c := &h.micro[i]
		if c.active && eqFold(name, c.name) {
			if c.depth--; c.depth == 0 {
				h.endMicro(i)
			}
		}
	}
	if eqFold(name, "body") || eqFold(name, "html") {
		for i := range h.micro {
			if h.micro[i].active {
				h.endMicro(i)
			}
		}
	}
}

func (h *extractor) foreignEnd(i int) int {
	if i+1 < len(h.fstack) {
		return h.fstack[i+1]
	}
	return len(h.fnames)
}

func (h *extractor) pushForeign(name []byte) {
	if len(h.fstack) >= 256 {
		return
	}
	h.fstack = append(h.fstack, len(h.fnames))
	for _, c := range name {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		h.fnames = append(h.fnames, c)
	}
}

// closeImplied ends a microdata collector whose element the new start tag
// closes without an end tag (an open <p> before a <div>, an <li> before the
// next <li>), so one missing end tag does not swallow the rest of the page.
func (h *extractor) closeImplied(start []byte) {
	for i := range h.micro {
		c := &h.micro[i]
		if c.active && impliesEnd(c.name, start) {
			h.endMicro(i)
		}
	}
}

func (h *extractor) endTitle() {
	h.inTitle = false
	h.set(fTitle, srcStandard, string(h.title))
}

func (h *extractor) endMicro(i int) {
	c := &h.micro[i]
	c.active = false
	field := fTitle
	if i == 1 {
		field = fDescription
	}
	h.set(field, srcMicrodata, string(c.text))
}

// meta handles <meta property|name=… content=…>.
func (h *extractor) meta(t *tagToken) {
	content, ok := t.attr("content")
	if !ok {
		return
	}
	for _, key := range [...]string{"property", "name"} {
		v, ok := t.attr(key)
		if !ok {
			continue
		}
		field, src, ok := metaKey(trimSpace(v))
		if ok {
			h.set(field, src, h.attrString(t, content))
		}
	}
}

// metaKey maps a meta property or name to the field and source it feeds.
func metaKey(k []byte) (field, src int, ok bool) {
	switch {
	case eqFold(k, "og:title"):
		return fTitle, srcOpenGraph, true
	case eqFold(k, "og:description"):
		return fDescription, srcOpenGraph, true
	case eqFold(k, "og:image"), eqFold(k, "og:image:url"):
		return fImage, srcOpenGraph, true
	case eqFold(k, "twitter:title"):
		return fTitle, srcTwitter, true
	case eqFold(k, "twitter:description"):
		return fDescription, srcTwitter, true
	case eqFold(k, "twitter:image"), eqFold(k, "twitter:image:src"):
		return fImage, srcTwitter, true
	case eqFold(k, "description"):
		return fDescription, srcStandard, true
	case eqFold(k, "image"):
		return fImage, srcStandard, true
	}
	return 0, 0, false
}

// itemprop handles an element with an itemprop attribute (HTML microdata:
// the property value of each kind of element).
func (h *extractor) itemprop(t *tagToken, ip []byte) {
	if _, ok := t.attr("itemscope"); ok {
		return // the value is an item, not text
	}
	name := t.name
	for _, prop := range bytes.FieldsFunc(ip, func(r rune) bool { return r < 0x80 && isSpace(byte(r)) }) {
		switch string(prop) {
		case "image":
			if v, ok := urlProperty(t); ok {
				h.set(fImage, srcMicrodata, h.attrString(t, v))
			}
		case "name", "description":
			i, field := 0, fTitle
			if string(prop) == "description" {
				i, field = 1, fDescription
			}
			if h.micro[i].active || h.val[field][srcMicrodata] != "" {
				continue
			}
			switch {
			case eqFold(name, "meta"):
				if v, ok := t.attr("content"); ok {
					h.set(field, srcMicrodata, h.attrString(t, v))
				}
			case eqFold(name, "data"), eqFold(name, "meter"):
				if v, ok := t.attr("value"); ok {
					h.set(field, srcMicrodata, h.attrString(t, v))
				}
			case eqFold(name, "time") && hasAttr(t, "datetime"):
				v, _ := t.attr("datetime")
				h.set(field, srcMicrodata, h.attrString(t, v))
			case isVoid(name) || isURLElement(name):
				// A URL or nothing: never a title or description.
			default:
				c := &h.micro[i]
				*c = collector{active: true, name: strings.ToLower(string(name)), depth: 1, text: c.text[:0]}
			}
		}
	}
}

func hasAttr(t *tagToken, key string) bool {
	_, ok := t.attr(key)
	return ok
}

// urlProperty returns the attribute that holds a microdata URL value.
func urlProperty(t *tagToken) ([]byte, bool) {
	n := t.name
	switch {
	case eqFold(n, "meta"):
		return t.attr("content")
	case eqFold(n, "img"), eqFold(n, "audio"), eqFold(n, "embed"), eqFold(n, "iframe"),
		eqFold(n, "source"), eqFold(n, "track"), eqFold(n, "video"):
		return t.attr("src")
	case eqFold(n, "a"), eqFold(n, "area"), eqFold(n, "link"):
		return t.attr("href")
	case eqFold(n, "object"):
		return t.attr("data")
	}
	return nil, false
}

func isURLElement(n []byte) bool {
	switch len(n) {
	case 1:
		return eqFold(n, "a")
	case 3:
		return eqFold(n, "img")
	case 4:
		return eqFold(n, "area") || eqFold(n, "link")
	case 5:
		return eqFold(n, "audio") || eqFold(n, "embed") || eqFold(n, "track") || eqFold(n, "video")
	case 6:
		return eqFold(n, "iframe") || eqFold(n, "source") || eqFold(n, "object")
	}
	return false
}

var voidElements = [...]string{"area", "base", "br", "col", "embed", "hr", "img", "input", "keygen", "link", "meta", "param", "source", "track", "wbr"}

func isVoid(n []byte) bool {
	for _, v := range voidElements {
		if eqFold(n, v) {
			return true
		}
	}
	return false
}

// pClosers are the start tags that close an open <p>.
var pClosers = [...]string{"address", "article", "aside", "blockquote", "details", "dialog", "div", "dl",
	"fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
	"hgroup", "hr", "main", "menu", "nav", "ol", "p", "pre", "section", "table", "ul"}

// impliesEnd reports whether a start tag named start closes an open element
// named open (lower-case) that has no end tag of its own.
func impliesEnd(open string, start []byte) bool {
	switch open {
	case "p":
		for _, s := range pClosers {
			if eqFold(start, s) {
				return true
			}
		}
	case "li":
		return eqFold(start, "li")
	case "dt", "dd":
		return eqFold(start, "dt") || eqFold(start, "dd")
	case "option":
		return eqFold(start, "option") || eqFold(start, "optgroup")
	case "tr":
		return eqFold(start, "tr")
	case "td", "th":
		return eqFold(start, "td") || eqFold(start, "th") || eqFold(start, "tr")
	case "h1", "h2", "h3", "h4", "h5", "h6":
		return len(start) == 2 && (start[0] == 'h' || start[0] == 'H') && '1' <= start[1] && start[1] <= '6'
	}
	return false
}

// breaksOutOfForeign reports whether a start tag inside SVG or MathML
// closes the foreign content (the HTML parser's list for "in foreign
// content").
func breaksOutOfForeign(t *tagToken) bool {
	n := t.name
	if eqFold(n, "font") {
		return hasAttr(t, "color") || hasAttr(t, "face") || hasAttr(t, "size")
	}
	for _, b := range [...]string{"b", "big", "blockquote", "body", "br", "center", "code", "dd", "div", "dl",
		"dt", "em", "embed", "h1", "h2", "h3", "h4", "h5", "h6", "head", "hr", "i", "img", "li", "listing",
		"menu", "meta", "nobr", "ol", "p", "pre", "ruby", "s", "small", "span", "strong", "strike", "sub",
		"sup", "table", "tt", "u", "ul", "var"} {
		if eqFold(n, b) {
			return true
		}
	}
	return false
}

// attrString returns an attribute value with its character references
// decoded and NUL replaced, as x/net/html's Tokenizer.TagAttr returns it.
func (h *extractor) attrString(t *tagToken, v []byte) string {
	if !t.escaped || bytes.IndexByte(v, '&') < 0 && bytes.IndexByte(v, 0) < 0 {
		return string(v)
	}
	return unescapeAttr(v)
}

// unescapeAttr decodes character references in an attribute value by the
// attribute rules ("&copy=2" stays as written in a URL query), which
// x/net/html applies but does not export: it lets the tokenizer read a
// one-attribute tag.
func unescapeAttr(v []byte) string {
	var b strings.Builder
	b.WriteString(`<a v="`)
	b.WriteString(strings.ReplaceAll(string(v), `"`, "&quot;"))
	b.WriteString(`">`)
	z := html.NewTokenizer(strings.NewReader(b.String()))
	z.Next()
	_, val, _ := z.TagAttr()
	return string(val)
}

// set records a value for a field from a source unless that source already
// gave one; empty values are ignored, so the next source gets its turn.
func (h *extractor) set(field, src int, v string) {
	if h.val[field][src] != "" {
		return
	}
	if field == fImage {
		v = cleanURL(v)
		if !plausibleImage(v) {
			return
		}
	} else {
		v = cleanText(v)
	}
	if v == "" {
		return
	}
	h.val[field][src] = v
	if src == srcOpenGraph {
		h.check()
	}
}

// check sets stop once no later token can change the answer: every field
// has its Open Graph value and the image's base URL can no longer change
// (it is absolute, or the first <base href> has been seen).
func (h *extractor) check() {
	og := func(f int) string { return h.val[f][srcOpenGraph] }
	if og(fTitle) == "" || og(fDescription) == "" || og(fImage) == "" {
		return
	}
	if !h.baseSeen && !hasScheme(og(fImage)) {
		return
	}
	h.stop = resolveImage(h.imageBase(), og(fImage)) != ""
}

// finish ends the document and returns the answer.
func (h *extractor) finish() Meta {
	h.flush()
	if h.inTitle {
		h.endTitle() // an unclosed title runs to the end, as in a browser
	}
	for i := range h.micro {
		if h.micro[i].active {
			h.endMicro(i)
		}
	}
	var m Meta
	m.Title = first(h.val[fTitle][:])
	m.Description = first(h.val[fDescription][:])
	base := h.imageBase()
	for _, ref := range h.val[fImage] {
		if ref == "" {
			continue
		}
		if abs := resolveImage(base, ref); abs != "" {
			m.Image = abs
			break
		}
	}
	return m
}

func first(vs []string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

// imageBase is the URL relative images resolve against: the first <base
// href> (itself resolved against the document URL) if it gives an http(s)
// URL, else the document URL.
func (h *extractor) imageBase() *url.URL {
	if !h.baseSeen {
		return h.base
	}
	u, err := url.Parse(h.baseHref)
	if err != nil {
		return h.base
	}
	if h.base != nil {
		u = h.base.ResolveReference(u)
	}
	if !isHTTP(u) {
		return h.base
	}
	return u
}

// resolveImage makes ref absolute against base; it returns "" unless the
// result is an http(s) URL with a host. The URL is serialized as a browser
// would: host in ASCII (IDNA), spaces, quotes, angle brackets and non-ASCII
// percent-encoded in the query as they are in the path and fragment.
func resolveImage(base *url.URL, ref string) string {
	u, err := url.Parse(ref)
	if err != nil {
		return ""
	}
	if base != nil {
		u = base.ResolveReference(u)
	}
	if !isHTTP(u) {
		return ""
	}
	if !isASCII(u.Host) {
		h, err := idna.Lookup.ToASCII(u.Hostname())
		if err != nil || h == "" {
			return ""
		}
		if p := u.Port(); p != "" {
			h = net.JoinHostPort(h, p)
		}
		u.Host = h
	}
	u.RawQuery = escapeQuery(u.RawQuery)
	return u.String()
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// escapeQuery percent-encodes what the URL standard's query percent-encode
// set (for http and https) encodes, and any byte outside ASCII.
func escapeQuery(q string) string {
	const hex = "0123456789ABCDEF"
	var b []byte
	for i := 0; i < len(q); i++ {
		c := q[i]
		if c > ' ' && c < 0x7f && c != '"' && c != '#' && c != '<' && c != '>' && c != '\'' {
			if b != nil {
				b = append(b, c)
			}
			continue
		}
		if b == nil {
			b = append(make([]byte, 0, len(q)+8), q[:i]...)
		}
		b = append(b, '%', hex[c>>4], hex[c&15])
	}
	if b == nil {
		return q
	}
	return string(b)
}

func isHTTP(u *url.URL) bool {
	return (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" && u.Opaque == ""
}

// plausibleImage reports whether ref can become an http(s) URL: it parses,
// and any scheme it has is http or https.
func plausibleImage(ref string) bool {
	u, err := url.Parse(ref)
	if err != nil {
		return false
	}
	return u.Scheme == "" || isHTTP(u)
}

func hasScheme(ref string) bool {
	u, err := url.Parse(ref)
	return err == nil && u.Scheme != ""
}

// cleanURL strips what the URL standard strips from a URL attribute:
// leading and trailing C0 controls and spaces, and every tab and newline.
func cleanURL(s string) string {
	s = strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
	if strings.ContainsAny(s, "\t\n\r") {
		s = strings.Map(func(r rune) rune {
			if r == '\t' || r == '\n' || r == '\r' {
				return -1
			}
			return r
		}, s)
	}
	return validUTF8(s)
}

// cleanText makes text presentable: valid UTF-8, NUL as U+FFFD (as the HTML
// tokenizer does), runs of white space as one space, no space at either end.
func cleanText(s string) string {
	s = validUTF8(s)
	if strings.IndexByte(s, 0) >= 0 {
		s = strings.ReplaceAll(s, "\x00", "\uFFFD")
	}
	return strings.Join(strings.Fields(s), " ")
}

// validUTF8 replaces each byte that is not part of valid UTF-8 with U+FFFD,
// as a browser's decoder does (strings.ToValidUTF8 would merge a run of
// them into one).
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteString("\uFFFD")
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && isSpace(b[0]) {
		b = b[1:]
	}
	for len(b) > 0 && isSpace(b[len(b)-1]) {
		b = b[:len(b)-1]
	}
	return b
}
