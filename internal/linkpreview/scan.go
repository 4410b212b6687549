package linkpreview

import (
	"bytes"
	"errors"
	"io"
)

// scanner is a streaming HTML tokenizer made for one job: finding a handful
// of tags in up to a few MiB of HTML quickly and without allocating per
// token. It tokenizes exactly as golang.org/x/net/html's Tokenizer does
// (the fuzz test FuzzExtract holds the two to the same answers), but jumps
// over text, attribute values, comments and raw text with bytes.IndexByte
// instead of reading a byte at a time, leaves character references undecoded
// until a value is kept, and reports tags through a reused tagToken.
//
// The buffer holds the unread input; past 32 KiB it grows only when one
// token (a tag, a comment, a script) does not fit, so memory stays near the
// largest token.
type scanner struct {
	r     io.Reader
	buf   []byte
	pos   int // next byte to tokenize
	end   int // buf[pos:end] is read but not yet tokenized
	eof   bool
	err   error  // a read error other than io.EOF
	raw   string // raw-text element whose content comes next ("" for none)
	tag   tagToken
	h     *extractor
	zeros int // consecutive empty reads
	fills int

	attrs [16]attrKV // backing of tag.attrs for most tags
}

// The buffer starts at scanBufStart, enough for the head of most pages, and
// doubles on every refill up to scanBufSize; beyond that it grows only for
// a token that does not fit.
const (
	scanBufStart = 4 << 10
	scanBufSize  = 32 << 10
)

// textKind tells the handler what a run of text is.
type textKind uint8

const (
	textData   textKind = iota // ordinary text: character references to decode
	textRCDATA                 // title and textarea content: references to decode
	textRaw                    // script, style, xmp, iframe, noembed, noframes, plaintext: literal
)

// tagToken is a start or end tag. Its slices point into the scanner's buffer
// and are valid only during the handler call.
type tagToken struct {
	name        []byte // as written; compare with eqFold
	attrs       []attrKV
	escaped     bool // values still hold character references
	selfClosing bool
}

type attrKV struct{ key, val []byte }

// attr returns the value of the first attribute named key (lower-case
// ASCII); later duplicates are ignored, as in HTML.
func (t *tagToken) attr(key string) ([]byte, bool) {
	for i := range t.attrs {
		if eqFold(t.attrs[i].key, key) {
			return t.attrs[i].val, true
		}
	}
	return nil, false
}

// newScanner returns a scanner of r (UTF-8) whose buffer already holds
// buf[pos:end]; eof tells whether r is exhausted.
func newScanner(r io.Reader, buf []byte, pos, end int, eof bool, h *extractor) *scanner {
	s := &scanner{r: r, buf: buf, pos: pos, end: end, eof: eof, h: h}
	s.tag.attrs = s.attrs[:0]
	return s
}

// run tokenizes until the input ends or the handler has its answer. A read
// error counts only if the answer was not complete before it.
func (s *scanner) run() error {
	for !s.h.stop {
		var more bool
		if s.raw != "" {
			more = s.rawText()
		} else {
			more = s.step()
		}
		if !more {
			break
		}
	}
	if s.h.stop {
		return nil
	}
	return s.err
}

// fill moves buf[keep:end] to the front (indexes into buf shift by keep)
// and reads more input. It returns false when no byte was added.
//
// Between tokens (keep == end) one read is enough: the scanner must not
// wait for bytes it may not need, since a server that flushes its <head>
// and then stalls has already sent the answer. When a token is cut by the
// end of the buffer (token), it reads until the buffered part of that token
// has at least doubled, so re-scanning the token from its start costs
// linear time in total however the input trickles in.
func (s *scanner) fill(keep int, token bool) bool {
	if s.eof {
		return false
	}
	n := copy(s.buf, s.buf[keep:s.end])
	s.pos -= keep
	s.end = n
	need := n + 1
	if token {
		need = max(2*n, n+1)
	}
	if need > len(s.buf) || (len(s.buf) < scanBufSize && s.fills > 0) {
		// Too small for the token, or still small while the page goes on:
		// read bigger pieces.
		nb := make([]byte, max(2*len(s.buf), need))
		copy(nb, s.buf[:s.end])
		s.buf = nb
	}
	s.fills++
	added := false
	for s.end < need {
		n, err := s.r.Read(s.buf[s.end:])
		s.end += n
		if n > 0 {
			added = true
			s.zeros = 0
		}
		if err != nil {
			s.eof = true
			if !errors.Is(err, io.EOF) {
				s.err = err
			}
			break
		}
		if n == 0 {
			if s.zeros++; s.zeros > 100 {
				s.eof, s.err = true, io.ErrNoProgress
				break
			}
		}
	}
	return added
}

// step tokenizes in the data state up to and including the next tag,
// comment or other markup. It returns false at the end of input.
func (s *scanner) step() bool {
	for {
		i := bytes.IndexByte(s.buf[s.pos:s.end], '<')
		if i < 0 {
			s.text(s.pos, s.end, textData)
			s.pos = s.end
			if !s.fill(s.pos, false) {
				return false
			}
			continue
		}
		if i > 0 {
			s.text(s.pos, s.pos+i, textData)
			s.pos += i
		}
		// s.buf[s.pos] == '<'
		if s.pos+1 >= s.end {
			if !s.fill(s.pos, true) {
				s.text(s.pos, s.end, textData)
				return false
			}
			continue
		}
		switch c := s.buf[s.pos+1]; {
		case isLetter(c):
			end := s.parseTag(s.pos+1, true)
			if end < 0 {
				if !s.fill(s.pos, true) {
					return false // a tag cut by the end of input is dropped
				}
				continue
			}
			s.pos = end
			notRaw := s.h.startTag(&s.tag)
			if name := rawTextElement(s.tag.name); name != "" && !notRaw {
				if name == "plaintext" {
					return false // the rest is literal text, which the handler ignores
				}
				s.raw = name
			}
			return true
		case c == '/':
			if s.pos+2 >= s.end {
				if !s.fill(s.pos, true) {
					s.text(s.pos, s.end, textData) // "</" at the end is text
					return false
				}
				continue
			}
			switch c2 := s.buf[s.pos+2]; {
			case c2 == '>':
				s.pos += 3
				s.h.boundary()
			case isLetter(c2):
				end := s.parseTag(s.pos+2, false)
				if end < 0 {
					if !s.fill(s.pos, true) {
						return false
					}
					continue
				}
				s.pos = end
				s.h.endTag(s.tag.name)
			default:
				if !s.skipPast(s.pos+2, '>') {
					continue
				}
			}
			return true
		case c == '!':
			if s.pos+3 >= s.end {
				if !s.fill(s.pos, true) {
					s.pos = s.end
					s.h.boundary()
					return false
				}
				continue
			}
			if s.buf[s.pos+2] == '-' && s.buf[s.pos+3] == '-' {
				n := commentEnd(s.buf[s.pos+4 : s.end])
				if n < 0 {
					if !s.fill(s.pos, true) {
						s.pos = s.end
						s.h.boundary()
						return false
					}
					continue
				}
				s.pos += 4 + n
				s.h.boundary()
				return true
			}
			if !s.skipPast(s.pos+2, '>') {
				continue
			}
			return true
		case c == '?':
			if !s.skipPast(s.pos+2, '>') {
				continue
			}
			return true
		default:
			s.text(s.pos, s.pos+1, textData)
			s.pos++
		}
	}
}

// skipPast ends a bogus comment or doctype at the first c at or after from.
// It returns false when it had to read more input first (the caller then
// starts the token again); at the end of input the token runs to the end.
func (s *scanner) skipPast(from int, c byte) bool {
	if i := bytes.IndexByte(s.buf[from:s.end], c); i >= 0 {
		s.pos = from + i + 1
		s.h.boundary()
		return true
	}
	if s.fill(s.pos, true) {
		return false
	}
	s.pos = s.end
	s.h.boundary()
	return true
}

func (s *scanner) text(from, to int, k textKind) {
	if from < to {
		s.h.text(s.buf[from:to], k)
	}
}

// commentEnd returns the length of a comment's rest up to and including the
// '>' that closes it, b starting just after "<!--", or -1 if b holds none.
// A comment closes at "-->", at "--!>", or at a '>' preceded by nothing but
// dashes ("<!-->", "<!--->").
func commentEnd(b []byte) int {
	for i := 0; ; {
		j := bytes.IndexByte(b[i:], '>')
		if j < 0 {
			return -1
		}
		p := i + j
		if p == 0 || (p == 1 && b[0] == '-') ||
			(p >= 2 && b[p-1] == '-' && b[p-2] == '-') ||
			(p >= 3 && b[p-1] == '!' && b[p-2] == '-' && b[p-3] == '-') {
			return p + 1
		}
		i = p + 1
	}
}

// parseTag parses a tag whose name starts at buf[i] and fills s.tag. It
// returns the index just past the closing '>', or -1 if the buffer ends
// first. Attributes are kept only for start tags. The rules are those of
// x/net/html's readTag: names end at white space, '/' or '>'; a '/' where an
// attribute would start is skipped; an '=' that starts a name belongs to it;
// values are quoted or run to white space or '>'.
func (s *scanner) parseTag(i int, start bool) int {
	b := s.buf[:s.end]
	t := &s.tag
	t.attrs = t.attrs[:0]
	t.escaped = true
	t.selfClosing = false
	j := i + 1
	for j < len(b) && class[b[j]]&endsName == 0 {
		j++
	}
	if j >= len(b) {
		return -1
	}
	t.name = b[i:j]
	for {
		for j < len(b) && isSpace(b[j]) {
			j++
		}
		if j >= len(b) {
			return -1
		}
		if b[j] == '>' {
			j++
			break
		}
		ks := j
		if b[j] == '=' {
			j++ // an '=' that starts a name belongs to it
		}
		for j < len(b) && class[b[j]]&endsKey == 0 {
			j++
		}
		ke := j
		vs, ve := ke, ke
		for j < len(b) && isSpace(b[j]) {
			j++
		}
		if j >= len(b) {
			return -1
		}
		switch b[j] {
		case '/':
			j++
		case '=':
			j++
			for j < len(b) && isSpace(b[j]) {
				j++
			}
			if j >= len(b) {
				return -1
			}
			switch q := b[j]; q {
			case '>':
			case '"', '\'':
				k := bytes.IndexByte(b[j+1:], q)
				if k < 0 {
					return -1
				}
				vs, ve = j+1, j+1+k
				j = ve + 1
			default:
				vs = j
				for j < len(b) && class[b[j]]&endsValue == 0 {
					j++
				}
				if j >= len(b) {
					return -1
				}
				ve = j
			}
		}
		if start && ke > ks {
			t.attrs = append(t.attrs, attrKV{key: b[ks:ke], val: b[vs:ve]})
		}
	}
	// "<br/>" is self-closing; "<a href=x/>" is not: its '/' ends the value.
	if start && b[j-2] == '/' {
		last := t.lastUnique()
		t.selfClosing = last < 0 || &b[j-2] != lastByte(t.attrs[last].val)
	}
	return j
}

// lastByte returns a pointer to the last byte of v, or nil when v is empty
// (x/net/html then compares with the key's last byte, never a '/').
func lastByte(v []byte) *byte {
	if len(v) > 0 {
		return &v[len(v)-1]
	}
	return nil
}

// lastUnique returns the index of the last attribute whose name does not
// repeat an earlier one (the last that x/net/html keeps), or -1.
func (t *tagToken) lastUnique() int {
	a := t.attrs
	if len(a) <= 16 {
		for k := len(a) - 1; k >= 0; k-- {
			dup := false
			for i := 0; i < k && !dup; i++ {
				dup = eqFoldBytes(a[i].key, a[k].key)
			}
			if !dup {
				return k
			}
		}
		return -1
	}
	// Many attributes: index them, so a hostile tag costs linear time.
	seen := make(map[string]int, len(a))
	last := -1
	for k := range a {
		key := a[k].key
		if hasUpper(key) {
			key = asciiLower(key)
		}
		if _, ok := seen[string(key)]; !ok {
			seen[string(key)] = k
			last = k
		}
	}
	return last
}

// rawText reads the content of a raw-text or RCDATA element up to its end
// tag (which step then reads as a normal tag). It returns false at the end
// of input.
func (s *scanner) rawText() bool {
	name := s.raw
	kind := textRaw
	if name == "title" || name == "textarea" {
		kind = textRCDATA
	}
	for {
		var end int
		if name == "script" {
			end = scriptEnd(s.buf[s.pos:s.end], s.eof)
		} else {
			end = rawEnd(s.buf[s.pos:s.end], name, s.eof)
		}
		if end < 0 {
			if s.fill(s.pos, true) {
				continue
			}
			end = s.end - s.pos // cannot happen after eof; kept for safety
		}
		s.text(s.pos, s.pos+end, kind)
		s.pos += end
		s.raw = ""
		return s.pos < s.end || s.fill(s.pos, false)
	}
}

// rawEnd returns the length of the raw text at the start of b, which ends
// where "</name" is followed by white space, '/' or '>'. It returns -1 if b
// might end inside the text, unless eof, when the text runs to the end.
func rawEnd(b []byte, name string, eof bool) int {
	for i := 0; ; {
		j := bytes.IndexByte(b[i:], '<')
		if j < 0 {
			break
		}
		p := i + j
		if p+2+len(name) >= len(b) {
			break
		}
		if b[p+1] == '/' && eqFold(b[p+2:p+2+len(name)], name) && isTagEnd(b[p+2+len(name)]) {
			return p
		}
		i = p + 1
	}
	if eof {
		return len(b)
	}
	return -1
}

// scriptEnd is rawEnd for script, whose end tag may hide inside "<!--" with
// the escaping rules of the HTML tokenizer (a transcription of x/net/html's
// readScript).
func scriptEnd(b []byte, eof bool) int {
	i := 0
	// rd returns the next byte; ok is false at the end of b.
	rd := func() (byte, bool) {
		if i >= len(b) {
			return 0, false
		}
		i++
		return b[i-1], true
	}
	// endTag reads "script" and a terminator after "</"; it reports whether
	// they were there and leaves i just past them or on the first mismatch.
	endTag := func() (matched, ok bool) {
		for k := 0; k < len("script"); k++ {
			c, ok := rd()
			if !ok {
				return false, false
			}
			if c != "script"[k] && c != "SCRIPT"[k] {
				i--
				return false, true
			}
		}
		c, ok := rd()
		if !ok {
			return false, false
		}
		if isTagEnd(c) {
			return true, true
		}
		i--
		return false, true
	}
	var c byte
	var ok bool
	end := func() int {
		if eof {
			return len(b)
		}
		return -1
	}

scriptData:
	if k := bytes.IndexByte(b[i:], '<'); k >= 0 {
		i += k + 1
	} else {
		return end()
	}
	// scriptDataLessThanSign
	if c, ok = rd(); !ok {
		return end()
	}
	switch c {
	case '/':
		m, ok := endTag()
		if !ok {
			return end()
		}
		if m {
			return i - len("</script>")
		}
		goto scriptData
	case '!':
		goto scriptDataEscapeStart
	}
	i--
	goto scriptData

scriptDataEscapeStart:
	if c, ok = rd(); !ok {
		return end()
	}
	if c == '-' {
		goto scriptDataEscapeStartDash
	}
	i--
	goto scriptData

scriptDataEscapeStartDash:
	if c, ok = rd(); !ok {
		return end()
	}
	if c == '-' {
		goto scriptDataEscapedDashDash
	}
	i--
	goto scriptData

scriptDataEscaped:
	if c, ok = rd(); !ok {
		return end()
	}
	switch c {
	case '-':
		goto scriptDataEscapedDash
	case '<':
		goto scriptDataEscapedLessThanSign
	}
	goto scriptDataEscaped

scriptDataEscapedDash:
	if c, ok = rd(); !ok {
		return end()
	}
	switch c {
	case '-':
		goto scriptDataEscapedDashDash
	case '<':
		goto scriptDataEscapedLessThanSign
	}
	goto scriptDataEscaped

scriptDataEscapedDashDash:
	if c, ok = rd(); !ok {
		return end()
	}
	switch c {
	case '-':
		goto scriptDataEscapedDashDash
	case '<':
		goto scriptDataEscapedLessThanSign
	case '>':
		goto scriptData
	}
	goto scriptDataEscaped

scriptDataEscapedLessThanSign:
	if c, ok = rd(); !ok {
		return end()
	}
	if c == '/' {
		m, ok := endTag()
		if !ok {
			return end()
		}
		if m {
			return i - len("</script>")
		}
		goto scriptDataEscaped
	}
	if isLetter(c) {
		i--
		goto scriptDataDoubleEscapeStart
	}
	i--
	goto scriptData

scriptDataDoubleEscapeStart:
	for k := 0; k < len("script"); k++ {
		if c, ok = rd(); !ok {
			return end()
		}
		if c != "script"[k] && c != "SCRIPT"[k] {
			i--
			goto scriptDataEscaped
		}
	}
	if c, ok = rd(); !ok {
		return end()
	}
	if isTagEnd(c) {
		goto scriptDataDoubleEscaped
	}
	i--
	goto scriptDataEscaped

scriptDataDoubleEscaped:
	if c, ok = rd(); !ok {
		return end()
	}
	switch c {
	case '-':
		goto scriptDataDoubleEscapedDash
	case '<':
		goto scriptDataDoubleEscapedLessThanSign
	}
	goto scriptDataDoubleEscaped

scriptDataDoubleEscapedDash:
	if c, ok = rd(); !ok {
		return end()
	}
	switch c {
	case '-':
		goto scriptDataDoubleEscapedDashDash
	case '<':
		goto scriptDataDoubleEscapedLessThanSign
	}
	goto scriptDataDoubleEscaped

scriptDataDoubleEscapedDashDash:
	if c, ok = rd(); !ok {
		return end()
	}
	switch c {
	case '-':
		goto scriptDataDoubleEscapedDashDash
	case '<':
		goto scriptDataDoubleEscapedLessThanSign
	case '>':
		goto scriptData
	}
	goto scriptDataDoubleEscaped

scriptDataDoubleEscapedLessThanSign:
	if c, ok = rd(); !ok {
		return end()
	}
	if c == '/' {
		m, ok := endTag()
		if !ok {
			return end()
		}
		if m {
			goto scriptDataEscaped
		}
		goto scriptDataDoubleEscaped
	}
	i--
	goto scriptDataDoubleEscaped
}

// rawTextElement returns the lower-case name of name if its content is raw
// text or RCDATA to the tokenizer, else "".
func rawTextElement(name []byte) string {
	if len(name) < 3 {
		return ""
	}
	for _, n := range [...]string{"iframe", "noembed", "noframes", "noscript", "plaintext", "script", "style", "textarea", "title", "xmp"} {
		if eqFold(name, n) {
			return n
		}
	}
	return ""
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func isSpace(c byte) bool { return class[c]&space != 0 }

// Byte classes of the tag grammar.
const (
	space     = 1 << iota // HTML white space
	endsName              // ends a tag name: space, '/', '>'
	endsKey               // ends an attribute name: space, '/', '>', '='
	endsValue             // ends an unquoted value: space, '>'
)

var class = func() (t [256]uint8) {
	for _, c := range []byte(" \n\r\t\f") {
		t[c] = space | endsName | endsKey | endsValue
	}
	t['/'] = endsName | endsKey
	t['>'] = endsName | endsKey | endsValue
	t['='] = endsKey
	return t
}()

func isTagEnd(c byte) bool { return isSpace(c) || c == '/' || c == '>' }

// eqFold reports whether b equals the lower-case ASCII string s, ignoring
// ASCII case only (HTML names fold ASCII letters, nothing else).
func eqFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := 0; i < len(b); i++ {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}

func hasUpper(b []byte) bool {
	for _, c := range b {
		if 'A' <= c && c <= 'Z' {
			return true
		}
	}
	return false
}

// asciiLower lower-cases ASCII letters only, as HTML does with names.
func asciiLower(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}

func eqFoldBytes(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
