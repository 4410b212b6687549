// Package ogimage builds Plaza's social images: a scene
// (dark background with 3–8 pattern layers, a border in the most used pattern
// colour, a glass panel holding a quote and its author, and an avatar that
// fades out) drawn from a seeded PRNG, and two renderings of that one scene:
// an SVG document and a PNG.
//
// The background, border and avatar depend on the seed only; the quote and
// author only change the text. The same Options give a byte-identical SVG.
package ogimage

import (
	"errors"
	"fmt"

	"github.com/plazahq/plaza/internal/seedrand"
)

// AvatarFunc returns the avatar for seed as an SVG document of size×size
// pixels (the avatar engine's output).
type AvatarFunc func(seed string, size int) []byte

// Options are the inputs of one image. Choosing a random seed or fetching a
// quote when none was asked for is the caller's job.
type Options struct {
	Seed   string
	Quote  string
	Author string
}

// Errors returned by Build.
var (
	ErrNoQuote  = errors.New("ogimage: empty quote")
	ErrNoAvatar = errors.New("ogimage: avatar function returned nothing")
)

// Layout of the 1200×630 canvas, in px.
var (
	panelRect  = rect{x: 440, y: 64, w: 696, h: 502}
	textRect   = rect{x: panelRect.x + 56, y: panelRect.y + 62, w: panelRect.w - 56 - 52, h: panelRect.h - 62 - 48}
	avatarRect = rect{x: 80, y: 155, w: AvatarSize, h: AvatarSize}
)

const (
	// AvatarSize is the size the AvatarFunc is asked for.
	AvatarSize = 320

	panelRadius = 28
	borderWidth = 10
	markSize    = 180 // px size of the decorative quotation mark

	glassRadius  = 17   // box blur radius of each of the 3 passes
	shadowOffset = 14   // panel shadow drop
	shadowAlpha  = 0.55 // panel shadow opacity
	tintAlpha    = 0.20 // Background over the blurred glass
	sheenFrom    = 0.14 // White sheen opacity at the panel's top-left…
	sheenTo      = 0.03 // …and bottom-right
	edgeAlpha    = 0.22 // White panel edge
	edgeWidth    = 1.5
	glowRadius   = 230 // accent glow behind the avatar
	glowAlpha    = 0.30
	fadeFrom     = 0.72 // avatar mask: opaque up to this fraction of its radius, then fading to 0 at the edge
	authorAlpha  = 0.75 // author text opacity
)

// Scene is one og-image, laid out and ready to render.
type Scene struct {
	quote  string
	author string
	layers []layer
	accent uint8 // palette index: border, quotation mark, author bar, glow
	lines  []Line
	byline *Line
	bar    rect
	mark   []pathOp // quotation mark, absolute coordinates
	avatar []byte   // SVG document, nil for none
	idBase string   // prefix of the SVG's ids
	fonts  *fontSet
}

// Build lays out the scene for opts. It is deterministic: the same opts and
// avatar output give the same scene. avatar may be nil for an image without
// one.
func Build(opts Options, avatar AvatarFunc) (*Scene, error) {
	fs, err := loadFonts()
	if err != nil {
		return nil, fmt.Errorf("ogimage: load fonts: %w", err)
	}
	quote := normalise(opts.Quote, MaxQuoteRunes)
	if len(quote) == 0 {
		return nil, ErrNoQuote
	}
	author := normalise(opts.Author, MaxAuthorRunes)

	r := newPRNG(opts.Seed)
	s := &Scene{
		quote:  string(quote),
		author: string(author),
		layers: genLayers(r),
		fonts:  fs,
		idBase: fmt.Sprintf("og%06x", seedrand.Hash(opts.Seed)>>40),
	}
	s.accent = mostUsed(s.layers)
	s.lines, s.byline, s.bar = layoutText(fs, quote, author, textRect)

	// The quotation mark hangs over the panel's top-left edge.
	mx, my := panelRect.x+40, panelRect.y-fs.markH*0.45
	s.mark = make([]pathOp, len(fs.mark))
	for i, op := range fs.mark {
		for j := range op.pts {
			op.pts[j] = point{r1(op.pts[j].x + mx), r1(op.pts[j].y + my)}
		}
		s.mark[i] = op
	}

	if avatar != nil {
		s.avatar = avatar(opts.Seed, AvatarSize)
		if len(s.avatar) == 0 {
			return nil, ErrNoAvatar
		}
	}
	return s, nil
}

// Quote returns the quote as laid out (normalised, possibly shortened).
func (s *Scene) Quote() string { return s.quote }

// Author returns the author as given to the layout (normalised).
func (s *Scene) Author() string { return s.author }

// BorderColor returns the border colour, the most used pattern colour.
func (s *Scene) BorderColor() string { return palette[s.accent] }

// Lines returns the quote's laid-out lines.
func (s *Scene) Lines() []Line { return s.lines }

// AuthorLine returns the author's line, if there is an author.
func (s *Scene) AuthorLine() (Line, bool) {
	if s.byline == nil {
		return Line{}, false
	}
	return *s.byline, true
}

// Panel returns the glass panel's rectangle (x, y, width, height) in px.
func Panel() (x, y, w, h float64) { return panelRect.x, panelRect.y, panelRect.w, panelRect.h }
