// Package avatar draws the cartoon heads behind GET /api/avatar-image:
// a seed string picks
// every part of a face from a library of hand-drawn SVG parts, and the same
// seed gives the same bytes forever.
//
// The picture is a fixed 100x100 scene; the size only sets the width and
// height of the SVG (and the pixel size of the PNG). The seed-to-picture
// mapping is described in pick.go and pinned by golden files in testdata.
package avatar

import (
	"errors"
	"strconv"

	"github.com/plazahq/plaza/internal/seedrand"
)

// Sizes in pixels accepted by ParseSize.
const (
	MinSize     = 50
	MaxSize     = 1000
	DefaultSize = 200
)

// Errors returned by ParseSeed and ParseSize; both mean a bad request.
var (
	ErrMissingSeed = errors.New("seed is required")
	ErrInvalidSize = errors.New("size must be an integer from 50 to 1000")
)

// ParseSeed checks a seed as received: any non-empty string is a seed, taken
// as is (case-sensitive, not trimmed). An empty one is ErrMissingSeed.
func ParseSeed(s string) (string, error) {
	if s == "" {
		return "", ErrMissingSeed
	}
	return s, nil
}

// ParseSize reads the size parameter: empty means DefaultSize; otherwise it
// must be plain decimal digits (no sign, no spaces, no fraction) whose value
// is in [MinSize, MaxSize], else ErrInvalidSize.
func ParseSize(s string) (int, error) {
	if s == "" {
		return DefaultSize, nil
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, ErrInvalidSize
		}
		n = n*10 + int(c-'0')
		if n > MaxSize {
			return 0, ErrInvalidSize
		}
	}
	if n < MinSize {
		return 0, ErrInvalidSize
	}
	return n, nil
}

// TypicalLen is a buffer size that holds every avatar's SVG (the largest
// are under 5 KB), for callers of AppendSVG that reuse a buffer.
const TypicalLen = 8192

// Render returns the SVG document of seed's avatar at size pixels, in one
// allocation of exactly its length. A size outside [MinSize, MaxSize] is
// clamped into it; use ParseSize on input.
func Render(seed string, size int) []byte {
	f := pickFace(seed)
	return f.appendSVG(make([]byte, 0, f.svgLen()), clampSize(size))
}

// AppendSVG appends the SVG document of seed's avatar at size pixels to dst
// and returns the extended slice; with room in dst it does not allocate.
func AppendSVG(dst []byte, seed string, size int) []byte {
	f := pickFace(seed)
	return f.appendSVG(dst, clampSize(size))
}

func clampSize(size int) int {
	return min(max(size, MinSize), MaxSize)
}

// face is one avatar: an index into each part list plus its colours.
// Its fields are drawn from the stream in this order (see pick.go).
type face struct {
	skin, hair, hairColor, eyes, iris, brows, mouth, nose  int
	clothes, clothesColor, glasses, frame, earrings, metal int
	feature, background                                    int
}

// pickFace draws a face from seed. The order of the draws is frozen.
func pickFace(seed string) face {
	s := seedrand.New(seedrand.Hash(seed))
	var f face
	f.skin = s.Intn(len(skinTones))
	f.hair = s.Intn(len(hairBack))
	f.hairColor = pickWeighted(&s, hairWeights)
	f.eyes = pickWeighted(&s, eyeWeights)
	f.iris = pickWeighted(&s, irisWeights)
	f.brows = pickWeighted(&s, browWeights)
	f.mouth = pickWeighted(&s, mouthWeights)
	f.nose = s.Intn(len(noseParts))
	f.clothes = s.Intn(len(clothesParts))
	f.clothesColor = s.Intn(len(clothesColors))
	f.glasses = pickWeighted(&s, glassesWeights)
	f.frame = s.Intn(len(frameColors))
	f.earrings = pickWeighted(&s, earringWeights)
	f.metal = s.Intn(len(metalColors))
	f.feature = pickWeighted(&s, featureWeights)
	f.background = s.Intn(len(backgroundAnchors) * backgroundSteps)
	return f
}

// colors fills the palette of f from the tables built at package start.
func (f *face) colors(p *palette) {
	p[slotBackground] = backgroundHex[f.background]
	s := &skinHex[f.skin]
	p[slotSkin], p[slotSkinShade], p[slotBlush], p[slotLips] = s[0], s[1], s[2], s[3]
	h := &hairHex[f.hairColor]
	p[slotHair], p[slotHairShade], p[slotHairLight], p[slotBrow] = h[0], h[1], h[2], h[3]
	p[slotIris] = irisHex[f.iris]
	c := &clothesHex[f.clothesColor]
	p[slotClothes], p[slotClothesShade] = c[0], c[1]
	p[slotFrame] = frameHex[f.frame]
	p[slotMetal] = metalHex[f.metal]
}

const (
	svgOpen  = `<svg xmlns="http://www.w3.org/2000/svg" width="`
	svgMid   = `" viewBox="0 0 100 100"><title>Avatar</title><rect width="100" height="100" fill="`
	groupTag = `"/><g stroke="` + outline + `" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">`
	svgClose = `</g></svg>`
)

// parts lists f's parts in drawing order.
func (f *face) parts() [11]*tmpl {
	return [11]*tmpl{
		&hairBack[f.hair],
		&clothesParts[f.clothes],
		&headPart,
		&earringParts[f.earrings],
		&featureParts[f.feature],
		&noseParts[f.nose],
		&mouthParts[f.mouth],
		&eyeParts[f.eyes],
		&browParts[f.brows],
		&hairFront[f.hair],
		&glassesParts[f.glasses],
	}
}

// svgLen is the length of f's SVG at the largest size.
func (f *face) svgLen() int {
	n := len(svgOpen) + len(`" height="`) + len(svgMid) + len(palette{}[0]) + len(groupTag) + len(svgClose) + 2*len("1000")
	for _, t := range f.parts() {
		n += t.size
	}
	return n
}

func (f *face) appendSVG(dst []byte, size int) []byte {
	var p palette
	f.colors(&p)
	dst = append(dst, svgOpen...)
	dst = strconv.AppendInt(dst, int64(size), 10)
	dst = append(dst, `" height="`...)
	dst = strconv.AppendInt(dst, int64(size), 10)
	dst = append(dst, svgMid...)
	dst = append(dst, p[slotBackground][:]...)
	dst = append(dst, groupTag...)
	for _, t := range f.parts() {
		dst = t.appendTo(dst, &p)
	}
	return append(dst, svgClose...)
}
