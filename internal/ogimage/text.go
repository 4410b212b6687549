package ogimage

import (
	"fmt"
	"math"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goitalic"
	"golang.org/x/image/font/gofont/gomedium"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// Text is set in the Go font family (embedded through golang.org/x/image's
// gofont packages): Go Medium for the quote, Go Italic for the author, and
// the outline of Go Bold's opening quotation mark as a decoration. The SVG
// names the family and pins each line's width with textLength, so a browser
// without the font keeps the same layout.
const (
	fontFamily   = `'Go Medium', 'Go', 'Helvetica Neue', Arial, sans-serif`
	authorFamily = `'Go', 'Helvetica Neue', Arial, sans-serif`
)

// face is one parsed font and the metrics the layout uses, in font units.
type face struct {
	f       *sfnt.Font
	upem    float64
	ascent  float64 // above the baseline, positive
	descent float64 // below the baseline, positive
}

type fontSet struct {
	quote, author face
	mark          []pathOp // the quotation mark, at markSize, origin at its top-left
	markW, markH  float64
}

// loadFonts parses the embedded fonts once per process; the parsed fonts are
// read-only and safe to share (every use brings its own sfnt.Buffer).
var loadFonts = sync.OnceValues(func() (*fontSet, error) {
	var fs fontSet
	var err error
	if fs.quote, err = parseFace(gomedium.TTF); err != nil {
		return nil, fmt.Errorf("go medium: %w", err)
	}
	if fs.author, err = parseFace(goitalic.TTF); err != nil {
		return nil, fmt.Errorf("go italic: %w", err)
	}
	bold, err := parseFace(gobold.TTF)
	if err != nil {
		return nil, fmt.Errorf("go bold: %w", err)
	}
	if fs.mark, fs.markW, fs.markH, err = glyphPath(bold.f, '\u201c', markSize); err != nil {
		return nil, fmt.Errorf("quotation mark: %w", err)
	}
	return &fs, nil
})

func parseFace(ttf []byte) (face, error) {
	f, err := opentype.Parse(ttf)
	if err != nil {
		return face{}, err
	}
	var b sfnt.Buffer
	upem := f.UnitsPerEm()
	m, err := f.Metrics(&b, fixed.Int26_6(upem)<<6, font.HintingNone)
	if err != nil {
		return face{}, err
	}
	return face{f: f, upem: float64(upem), ascent: float64(m.Ascent) / 64, descent: float64(m.Descent) / 64}, nil
}

// pathOp is one path command: 'M', 'L', 'Q' (1 control point) or 'Z'.
type pathOp struct {
	op  byte
	pts [2]point
}

// glyphPath returns the outline of r at size px, moved so that its bounding
// box starts at (0, 0), with its width and height.
func glyphPath(f *sfnt.Font, r rune, size float64) ([]pathOp, float64, float64, error) {
	var b sfnt.Buffer
	gi, err := f.GlyphIndex(&b, r)
	if err != nil || gi == 0 {
		return nil, 0, 0, fmt.Errorf("no glyph for %q", r)
	}
	segs, err := f.LoadGlyph(&b, gi, fixed.Int26_6(size*64), nil)
	if err != nil {
		return nil, 0, 0, err
	}
	bounds := segs.Bounds()
	x0, y0 := float64(bounds.Min.X)/64, float64(bounds.Min.Y)/64
	pt := func(p fixed.Point26_6) point {
		return point{r1(float64(p.X)/64 - x0), r1(float64(p.Y)/64 - y0)}
	}
	var ops []pathOp
	for i, s := range segs {
		switch s.Op {
		case sfnt.SegmentOpMoveTo:
			if i > 0 {
				ops = append(ops, pathOp{op: 'Z'})
			}
			ops = append(ops, pathOp{op: 'M', pts: [2]point{pt(s.Args[0])}})
		case sfnt.SegmentOpLineTo:
			ops = append(ops, pathOp{op: 'L', pts: [2]point{pt(s.Args[0])}})
		case sfnt.SegmentOpQuadTo:
			ops = append(ops, pathOp{op: 'Q', pts: [2]point{pt(s.Args[0]), pt(s.Args[1])}})
		default:
			return nil, 0, 0, fmt.Errorf("unexpected segment op %d", s.Op)
		}
	}
	ops = append(ops, pathOp{op: 'Z'})
	return ops, r1(float64(bounds.Max.X)/64 - x0), r1(float64(bounds.Max.Y)/64 - y0), nil
}

// run is a text measured glyph by glyph, in font units: adv[k] is the
// advance of rune k and kern[k] the kerning between runes k-1 and k (0 for
// k = 0); pre[k] is the sum of adv and kern over runes [0, k).
type run struct {
	runes []rune
	adv   []float64
	kern  []float64
	pre   []float64
}

func measure(fc face, b *sfnt.Buffer, runes []rune) run {
	n := len(runes)
	rn := run{runes: runes, adv: make([]float64, n), kern: make([]float64, n), pre: make([]float64, n+1)}
	ppem := fixed.Int26_6(fc.upem) << 6
	var prev sfnt.GlyphIndex
	for k, r := range runes {
		gi, _ := fc.f.GlyphIndex(b, r) // 0 (notdef) when missing: it is drawn as such too
		a, err := fc.f.GlyphAdvance(b, gi, ppem, font.HintingNone)
		if err == nil {
			rn.adv[k] = float64(a) / 64
		}
		if k > 0 {
			if kv, err := fc.f.Kern(b, prev, gi, ppem, font.HintingNone); err == nil {
				rn.kern[k] = float64(kv) / 64
			}
		}
		prev = gi
		rn.pre[k+1] = rn.pre[k] + rn.adv[k] + rn.kern[k]
	}
	return rn
}

// width of runes [i, j) in font units; the kerning before rune i does not
// count, since i starts a line.
func (rn *run) width(i, j int) float64 {
	if i >= j {
		return 0
	}
	return rn.pre[j] - rn.pre[i] - rn.kern[i]
}

// pen returns the pen offset, in font units, of rune k on a line that starts
// at rune i.
func (rn *run) pen(i, k int) float64 {
	return rn.pre[k] - rn.pre[i] - rn.kern[i] + rn.kern[k]
}

// Line is one laid-out line of text: its runes, the left end of its
// baseline, its font size and its width measured with the font's advances.
type Line struct {
	Text       string
	X, Y       float64 // baseline origin, px
	Size       float64 // font size, px
	Width      float64 // advance width, px
	Ascent     float64 // line box above the baseline, px
	Descent    float64 // line box below the baseline, px
	author     bool
	penOffsets []float64 // per rune, px from X
	runes      []rune
}

// Box returns the line's box: from the font's ascent above the baseline to
// its descent below, over the measured width.
func (l Line) Box() (x0, y0, x1, y1 float64) {
	return l.X, l.Y - l.Ascent, l.X + l.Width, l.Y + l.Descent
}

// Text limits. A longer quote is cut at a word boundary and ends in "…".
const (
	MaxQuoteRunes  = 500
	MaxAuthorRunes = 80
)

// normalise turns outside text into one line of printable text: invalid
// UTF-8 replaced, control and format characters dropped, runs of white space
// collapsed to one space, at most max runes (cut at a space when one is near,
// then "…").
func normalise(s string, max int) []rune {
	s = strings.ToValidUTF8(s, "\uFFFD")
	out := make([]rune, 0, len(s))
	space := false
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			space = len(out) > 0
			continue
		case unicode.IsControl(r), unicode.Is(unicode.Cf, r), r == '\uFFFE', r == '\uFFFF':
			continue
		}
		if space {
			out = append(out, ' ')
			space = false
		}
		out = append(out, r)
	}
	if len(out) <= max {
		return out
	}
	cut := max - 1
	for i := cut; i > max*3/4; i-- {
		if out[i] == ' ' {
			cut = i
			break
		}
	}
	out = append(out[:cut:cut], '…')
	return out
}

// Quote sizes, largest first. The length of the quote caps the size a short
// quote may take (quoteSizeCap); the layout then walks down from there until
// the text fits the panel.
var quoteSizes = [...]float64{80, 72, 64, 58, 52, 48, 44, 40, 36, 33, 30, 28, 26, 24, 22, 20, 18, 16, 14}

func quoteSizeCap(n int) float64 {
	switch {
	case n <= 12:
		return 80
	case n <= 24:
		return 72
	case n <= 40:
		return 64
	case n <= 90:
		return 52
	case n <= 160:
		return 44
	case n <= 260:
		return 36
	default:
		return 30
	}
}

const (
	lineHeight = 1.3  // quote line spacing, × font size
	authorGap  = 0.75 // space between quote and author, × quote size
	barWidth   = 28   // accent bar before the author
	barGap     = 14
)

// authorSize is about half the quote's size, at least 20 px unless the quote
// itself is smaller, at most 28 px.
func authorSize(q float64) float64 {
	return math.Min(28, math.Max(math.Round(q*0.55), math.Min(q, 20)))
}

// rect is an axis-aligned rectangle in px.
type rect struct{ x, y, w, h float64 }

func (r rect) right() float64  { return r.x + r.w }
func (r rect) bottom() float64 { return r.y + r.h }

// layoutText wraps the quote into box, choosing the largest size that fits,
// and places the author line under it; the block is centred vertically.
func layoutText(fs *fontSet, quote, author []rune, box rect) (lines []Line, authorLine *Line, bar rect) {
	var b sfnt.Buffer
	q := measure(fs.quote, &b, quote)
	var a run
	if len(author) > 0 {
		a = measure(fs.author, &b, author)
	}
	maxSize := quoteSizeCap(len(quote))
	var breaks [][2]int
	var size, asz float64
	for _, s := range quoteSizes {
		if s > maxSize {
			continue
		}
		size = s
		asz = authorSize(s)
		breaks = wrap(&q, box.w*fs.quote.upem/s)
		if blockHeight(fs, len(breaks), s, asz, len(author) > 0) <= box.h {
			break
		}
	}
	hasAuthor := len(author) > 0
	top := box.y + (box.h-blockHeight(fs, len(breaks), size, asz, hasAuthor))/2
	qs := size / fs.quote.upem
	y := top + fs.quote.ascent*qs
	lines = make([]Line, len(breaks))
	for i, br := range breaks {
		lines[i] = newLine(&q, br[0], br[1], box.x, r2(y), size, fs.quote)
		y += size * lineHeight
	}
	if !hasAuthor {
		return lines, nil, rect{}
	}
	as := asz / fs.author.upem
	y = y - size*lineHeight + fs.quote.descent*qs + size*authorGap + fs.author.ascent*as
	// The author gets one line; a longer name is cut and ends in "…".
	end := len(author)
	maxW := (box.w - barWidth - barGap) / as
	if a.width(0, end) > maxW {
		ell := measure(fs.author, &b, []rune{'…'}).adv[0]
		for end > 0 && a.width(0, end)+ell > maxW {
			end--
		}
		for end > 0 && author[end-1] == ' ' {
			end--
		}
		runes := append(append([]rune{}, author[:end]...), '…')
		a = measure(fs.author, &b, runes)
		end = len(runes)
	}
	al := newLine(&a, 0, end, box.x+barWidth+barGap, r2(y), asz, fs.author)
	al.author = true
	bar = rect{box.x, r1(y - asz*0.36), barWidth, 3}
	return lines, &al, bar
}

func blockHeight(fs *fontSet, n int, q, a float64, author bool) float64 {
	h := float64(n-1)*q*lineHeight + (fs.quote.ascent+fs.quote.descent)*q/fs.quote.upem
	if author {
		h += q*authorGap + (fs.author.ascent+fs.author.descent)*a/fs.author.upem
	}
	return h
}

func newLine(rn *run, i, j int, x, y, size float64, fc face) Line {
	s := size / fc.upem
	l := Line{
		Text:    string(rn.runes[i:j]),
		X:       x,
		Y:       y,
		Size:    size,
		Width:   r2(rn.width(i, j) * s),
		Ascent:  fc.ascent * s,
		Descent: fc.descent * s,
		runes:   rn.runes[i:j],
	}
	l.penOffsets = make([]float64, j-i)
	for k := i; k < j; k++ {
		l.penOffsets[k-i] = rn.pen(i, k) * s
	}
	return l
}

// wrap breaks rn into lines no wider than max font units, greedily, at
// spaces; a word wider than a line is broken between runes. It returns
// [start, end) rune ranges with no leading or trailing space.
func wrap(rn *run, max float64) [][2]int {
	var out [][2]int
	n := len(rn.runes)
	start := -1 // start of the current line, -1 when none
	end := 0    // end of the current line's last word
	for i := 0; i < n; {
		if rn.runes[i] == ' ' {
			i++
			continue
		}
		j := i
		for j < n && rn.runes[j] != ' ' {
			j++
		}
		// word [i, j)
		switch {
		case start >= 0 && rn.width(start, j) <= max:
			end = j
		case rn.width(i, j) <= max:
			if start >= 0 {
				out = append(out, [2]int{start, end})
			}
			start, end = i, j
		default:
			// Break the word: fill the current line's rest first only if
			// it is empty; a broken word always starts its own line.
			if start >= 0 {
				out = append(out, [2]int{start, end})
			}
			k := i
			for k < j {
				e := k + 1
				for e < j && rn.width(k, e+1) <= max {
					e++
				}
				if e < j {
					out = append(out, [2]int{k, e})
				} else {
					start, end = k, e
				}
				k = e
			}
		}
		i = j
	}
	if start >= 0 {
		out = append(out, [2]int{start, end})
	}
	return out
}
