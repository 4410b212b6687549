package avatar

import (
	"strconv"
	"strings"
)

// slot names one colour that varies from avatar to avatar. Part templates
// write it as '$' followed by the slot's letter (see slotLetters).
type slot uint8

const (
	slotBackground   slot = iota // B
	slotSkin                     // S
	slotSkinShade                // s
	slotBlush                    // R
	slotLips                     // L
	slotHair                     // H
	slotHairShade                // h
	slotHairLight                // K
	slotBrow                     // b
	slotIris                     // I
	slotClothes                  // C
	slotClothesShade             // c
	slotFrame                    // G
	slotMetal                    // E
	numSlots
)

// slotLetters maps a template letter to its slot; its index is the slot.
const slotLetters = "BSsRLHhKbICcGE"

// hole is a place in a template's text where a slot's colour goes.
type hole struct {
	at   uint16 // byte offset in text
	slot slot
}

// tmpl is one compiled part: SVG text with colour holes. Rendering appends
// text[prev:at] and then the colour, hole after hole, then the tail.
type tmpl struct {
	text  string
	holes []hole
	size  int // bytes appendTo writes
}

// compile turns a part's SVG source into a tmpl. It panics on an unknown
// placeholder: part sources are literals in this package, so a bad one is a
// programming error that every test run catches.
func compile(src string) tmpl {
	var b strings.Builder
	var holes []hole
	for i := 0; i < len(src); i++ {
		c := src[i]
		if c != '$' {
			b.WriteByte(c)
			continue
		}
		i++
		k := -1
		if i < len(src) {
			k = strings.IndexByte(slotLetters, src[i])
		}
		if k < 0 {
			panic("avatar: bad placeholder in part: " + src)
		}
		holes = append(holes, hole{at: uint16(b.Len()), slot: slot(k)})
	}
	return tmpl{text: b.String(), holes: holes, size: b.Len() + len(holes)*len(palette{}[0])}
}

// compileAll compiles a list of part sources.
func compileAll(srcs []string) []tmpl {
	out := make([]tmpl, len(srcs))
	for i, s := range srcs {
		out[i] = compile(s)
	}
	return out
}

// appendTo writes t with the colours of pal.
func (t *tmpl) appendTo(dst []byte, pal *palette) []byte {
	prev := 0
	for _, h := range t.holes {
		dst = append(dst, t.text[prev:h.at]...)
		dst = append(dst, pal[h.slot][:]...)
		prev = int(h.at)
	}
	return append(dst, t.text[prev:]...)
}

// palette holds one avatar's colours as "#rrggbb".
type palette [numSlots][7]byte

// sym returns the SVG elements of src followed by their mirror image about
// the vertical centre line x=50, for parts drawn once for the left side.
func sym(src string) string { return src + mirror(src) }

// mirror reflects SVG elements about x=50: it rewrites the numbers of every
// d="…" path (absolute and relative commands, arcs included) and the cx,
// x1 and x2 attributes. Parts are literals, so this runs once, at package
// start.
func mirror(src string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(src, '"')
		if i < 0 {
			b.WriteString(src)
			return b.String()
		}
		j := strings.IndexByte(src[i+1:], '"')
		name := attrName(src[:i])
		val := src[i+1 : i+1+j]
		b.WriteString(src[:i+1])
		switch name {
		case "d":
			b.WriteString(mirrorPath(val))
		case "cx", "x1", "x2":
			b.WriteString(fmtNum(100 - parseNum(val)))
		default:
			b.WriteString(val)
		}
		b.WriteByte('"')
		src = src[i+1+j+1:]
	}
}

// attrName returns the attribute name before `="` at the end of s.
func attrName(s string) string {
	s = strings.TrimSuffix(s, "=")
	k := strings.LastIndexAny(s, " <")
	return s[k+1:]
}

// mirrorPath reflects path data about x=50.
func mirrorPath(d string) string {
	toks := pathTokens(d)
	var b strings.Builder
	var cmd byte
	n := 0 // index of the number within the current command's argument group
	for _, t := range toks {
		if len(t) == 1 && isCmd(t[0]) {
			cmd = t[0]
			n = 0
			b.WriteString(t)
			continue
		}
		v := parseNum(t)
		switch cmd {
		case 'M', 'L', 'C', 'S', 'Q', 'T':
			if n%2 == 0 {
				v = 100 - v
			}
		case 'm', 'l', 'c', 's', 'q', 't', 'h':
			if cmd == 'h' || n%2 == 0 {
				v = -v
			}
		case 'H':
			v = 100 - v
		case 'A', 'a':
			switch n % 7 {
			case 2: // x-axis rotation
				v = -v
			case 4: // sweep flag
				v = 1 - v
			case 5:
				if cmd == 'A' {
					v = 100 - v
				} else {
					v = -v
				}
			}
		}
		n++
		if b.Len() > 0 && !isCmd(b.String()[b.Len()-1]) && v >= 0 {
			b.WriteByte(' ')
		}
		b.WriteString(fmtNum(v))
	}
	return b.String()
}

func isCmd(c byte) bool { return strings.IndexByte("MmLlHhVvCcSsQqTtAaZz", c) >= 0 }

// pathTokens splits path data into single-letter commands and numbers.
func pathTokens(d string) []string {
	var toks []string
	for i := 0; i < len(d); {
		c := d[i]
		switch {
		case c == ' ' || c == ',':
			i++
		case isCmd(c):
			toks = append(toks, d[i:i+1])
			i++
		default:
			j := i + 1
			for j < len(d) && (d[j] >= '0' && d[j] <= '9' || d[j] == '.' && !strings.Contains(d[i:j], ".")) {
				j++
			}
			toks = append(toks, d[i:j])
			i = j
		}
	}
	return toks
}

func parseNum(s string) float64 {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		panic("avatar: bad number in part: " + s)
	}
	return v
}

// fmtNum writes v with at most two decimals and no trailing zeros. Values in
// parts have at most two decimals, so 100-v is exact after rounding.
func fmtNum(v float64) string {
	s := strconv.FormatFloat(v, 'f', 2, 64)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" {
		s = "0"
	}
	return s
}
