package ogimage

import (
	"image"
	"image/color"
	"math"
	"sync"

	"github.com/srwiley/rasterx"
	"golang.org/x/image/math/fixed"
)

// underRect is the part of the panel that the glass covers whole, inset by
// the panel's corner radius and aligned to the glass blur's blocks (see
// glassBlur). Nothing of the background shows there, only its blur, so
// paintBackground paints it at 1/underZoom of full size, and glassBlur
// averages those pixels into its blocks.
var underRect = func() image.Rectangle {
	const s = glassScale
	e := glassArea()
	r := image.Rect(int(panelRect.x+panelRadius), int(panelRect.y+panelRadius),
		int(panelRect.right()-panelRadius), int(panelRect.bottom()-panelRadius))
	up := func(v, o int) int { return o + (v-o+s-1)/s*s }
	down := func(v, o int) int { return o + (v-o)/s*s }
	return image.Rect(up(r.Min.X, e.Min.X), up(r.Min.Y, e.Min.Y), down(r.Max.X, e.Min.X), down(r.Max.Y, e.Min.Y))
}()

// underZoom is how many full-size pixels a side of one pixel of the small
// canvas under the glass stands for. At glassScale, the blur's own size,
// shapes that cross within a block are counted twice where they overlap,
// and the glass moves further from the full-size one than
// TestGlassMatchesFullSize allows; at half that it stays within.
const underZoom = glassScale / 2

// newUnder makes the small canvas for underRect.
func newUnder() *image.RGBA {
	return image.NewRGBA(image.Rect(0, 0, underRect.Dx()/underZoom, underRect.Dy()/underZoom))
}

// pathRecorder is a rasterx.Scanner that keeps each path it is asked to
// draw, as the outline the rasteriser would fill (curves flattened,
// strokes widened), so that the background's shapes are flattened once
// and then drawn by each band within its own clip.
type pathRecorder struct {
	outline
	paths []recordedPath
	from  int // where the path being recorded begins in ops
	c     color.Color
}

// recordedPath is ops[from:to] of its recorder, their extent and colour.
type recordedPath struct {
	from, to int
	min, max fixed.Point26_6
	c        color.Color
}

var _ rasterx.Scanner = (*pathRecorder)(nil)

func (r *pathRecorder) reset() {
	r.ops, r.paths = r.ops[:0], r.paths[:0]
	r.Clear()
}

func (r *pathRecorder) SetBounds(w, h int)      {}
func (r *pathRecorder) SetWinding(bool)         {}
func (r *pathRecorder) SetClip(image.Rectangle) {}
func (r *pathRecorder) SetColor(c interface{}) {
	if c, ok := c.(color.Color); ok {
		r.c = c
	}
}

func (r *pathRecorder) Clear() {
	r.from = len(r.ops)
	r.resetExtent()
}

func (r *pathRecorder) Draw() {
	if len(r.ops) > r.from {
		r.paths = append(r.paths, recordedPath{from: r.from, to: len(r.ops), min: r.min, max: r.max, c: r.c})
	}
	r.Clear()
}

var recorderPool = sync.Pool{New: func() any { return &pathRecorder{} }}

// paintBackground paints the background colour, the pattern layers and
// the glow behind the avatar into img, every pixel of it, or when under is
// not nil every pixel but underRect's, which it paints into under at
// 1/underZoom of full size. The shapes are flattened once, then bands
// of rows are painted at once, each clipped to its band; every pixel still
// receives the shapes in the scene's order.
func (s *Scene) paintBackground(img, under *image.RGBA) {
	rec := recorderPool.Get().(*pathRecorder)
	defer recorderPool.Put(rec)
	rec.reset()
	fl := rasterx.NewFiller(Width, Height, rec)
	ds := rasterx.NewDasher(Width, Height, rec)
	for _, l := range s.layers {
		for i := range l.shapes {
			drawShape(fl, ds, &l.shapes[i])
		}
	}

	accent := paletteRGB[s.accent]
	var small sync.WaitGroup
	hole := image.Rectangle{}
	if under != nil {
		hole = underRect
		small.Go(func() { paintUnder(under, rec, accent) })
	}
	parallel(Height, func(y0, y1 int) {
		sc := scannerPool.Get().(*scanner)
		defer scannerPool.Put(sc)
		for _, r := range around(image.Rect(0, y0, Width, y1), hole) {
			paintRect(img, sc, r, rec, glow(), accent)
		}
	})
	small.Wait()
}

// paintUnder paints underRect's background into under, at 1/underZoom.
func paintUnder(under *image.RGBA, rec *pathRecorder, accent rgb) {
	sc := scannerPool.Get().(*scanner)
	defer scannerPool.Put(sc)
	sc.zoom, sc.origin = underZoom, underRect.Min
	defer func() { sc.zoom, sc.origin = 0, image.Point{} }()
	paintRect(under, sc, under.Bounds(), rec, smallGlow(), accent)
}

// paintRect paints the background colour, rec's paths and the glow m into
// r of dst, through sc.
func paintRect(dst *image.RGBA, sc *scanner, r image.Rectangle, rec *pathRecorder, m *alphaMap, accent rgb) {
	if r.Empty() {
		return
	}
	fillRGB(dst, r, backgroundRGB)
	sc.dst, sc.clip = dst, r
	defer func() { sc.dst, sc.clip = nil, image.Rectangle{} }()
	for _, p := range rec.paths {
		sc.replay(rec, p)
	}
	m.lay(dst, r, accent)
}

// around splits band into the rectangles of it that lie outside hole.
func around(band, hole image.Rectangle) []image.Rectangle {
	h := band.Intersect(hole)
	if h.Empty() {
		return []image.Rectangle{band}
	}
	return []image.Rectangle{
		image.Rect(band.Min.X, band.Min.Y, band.Max.X, h.Min.Y),
		image.Rect(band.Min.X, h.Min.Y, h.Min.X, h.Max.Y),
		image.Rect(h.Max.X, h.Min.Y, band.Max.X, h.Max.Y),
		image.Rect(band.Min.X, h.Max.Y, band.Max.X, band.Max.Y),
	}
}

// glowAt is the glow's opacity at full-size point (x, y).
func glowAt(x, y float64) float64 {
	dx, dy := x-(avatarRect.x+avatarRect.w/2), y-(avatarRect.y+avatarRect.h/2)
	return glowAlpha * max(1-math.Sqrt(dx*dx+dy*dy)/glowRadius, 0)
}

// smallGlow is the glow over underRect at 1/underZoom, each pixel's
// opacity taken at the centre of the block it stands for.
var smallGlow = sync.OnceValue(func() *alphaMap {
	const s = underZoom
	return newAlphaMap(newUnder().Bounds(), func(x, y int) float64 {
		return glowAt(float64(underRect.Min.X+s*x)+s/2.0, float64(underRect.Min.Y+s*y)+s/2.0)
	})
})
