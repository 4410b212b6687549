package ogimage

import (
	"encoding/binary"
	"image"
	"image/color"
	"image/draw"
	"math"
	"slices"

	"github.com/srwiley/rasterx"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// scanner is a rasterx.Scanner that rasterises each path only over its own
// bounding box. rasterx's ScannerGV accumulates and composites the whole
// destination for every path, which costs a full 1200×630 pass per shape.
type scanner struct {
	outline
	dst  *image.RGBA
	z    vector.Rasterizer
	mask image.Alpha // coverage of the current path over its box
	clip image.Rectangle
	uni  image.Uniform
	fn   funcImage
	src  image.Image
	tab  overTable // the colour last drawn, tabled
	// zoom and origin map paths to dst: full-size point p lands on
	// (p - origin) / zoom; zoom 0 is 1 (dst is the canvas).
	zoom   int
	origin image.Point
}

type scanOp struct {
	move bool
	p    fixed.Point26_6
}

// funcImage adapts a rasterx.ColorFunc (gradients in avatar SVGs).
type funcImage struct{ f rasterx.ColorFunc }

func (f *funcImage) ColorModel() color.Model { return color.RGBAModel }
func (f *funcImage) Bounds() image.Rectangle {
	return image.Rect(-1e9, -1e9, 1e9, 1e9)
}
func (f *funcImage) At(x, y int) color.Color { return f.f(x, y) }

func newScanner(dst *image.RGBA) *scanner {
	s := &scanner{dst: dst}
	s.z.DrawOp = draw.Over
	s.src = &s.uni
	s.Clear()
	return s
}

var _ rasterx.Scanner = (*scanner)(nil)

// outline is the path being drawn, as rasterx hands it to a Scanner:
// its points, and their extent since the last resetExtent.
type outline struct {
	ops      []scanOp
	min, max fixed.Point26_6
}

func (o *outline) extend(p fixed.Point26_6) {
	o.min.X, o.min.Y = min(o.min.X, p.X), min(o.min.Y, p.Y)
	o.max.X, o.max.Y = max(o.max.X, p.X), max(o.max.Y, p.Y)
}

func (o *outline) resetExtent() {
	o.min = fixed.Point26_6{X: math.MaxInt32, Y: math.MaxInt32}
	o.max = fixed.Point26_6{X: math.MinInt32, Y: math.MinInt32}
}

func (o *outline) Start(a fixed.Point26_6) { o.extend(a); o.ops = append(o.ops, scanOp{true, a}) }
func (o *outline) Line(b fixed.Point26_6)  { o.extend(b); o.ops = append(o.ops, scanOp{false, b}) }

func (o *outline) GetPathExtent() fixed.Rectangle26_6 {
	return fixed.Rectangle26_6{Min: o.min, Max: o.max}
}

func (s *scanner) SetBounds(w, h int)        {}
func (s *scanner) SetWinding(bool)           {}
func (s *scanner) SetClip(r image.Rectangle) { s.clip = r }

func (s *scanner) SetColor(c interface{}) {
	switch c := c.(type) {
	case color.Color:
		s.uni.C = c
		s.src = &s.uni
	case rasterx.ColorFunc:
		s.fn.f = c
		s.src = &s.fn
	}
}

func (s *scanner) Clear() {
	s.ops = s.ops[:0]
	s.resetExtent()
}

func (s *scanner) Draw() {
	r, ok := s.box(s.dst.Bounds())
	if !ok {
		return
	}
	if s.src != image.Image(&s.uni) {
		s.z.Draw(s.dst, r, s.src, r.Min)
		return
	}
	// Uniform colour: let the rasteriser write the bare coverage (its fast
	// path), then blend only the covered pixels. vector's own RGBA path
	// divides four times for every pixel of the box, covered or not.
	mask := s.coverage(r)
	if !s.tab.set(s.uni.C) {
		return
	}
	for y := 0; y < r.Dy(); y++ {
		s.tab.blend(s.dst, r.Min.X, r.Min.Y+y, mask.Pix[y*mask.Stride:][:r.Dx()])
	}
}

// box is the path's bounding box within bounds and the clip, loaded into
// the rasteriser; ok is false when nothing of it is left.
func (s *scanner) box(bounds image.Rectangle) (r image.Rectangle, ok bool) {
	if len(s.ops) == 0 {
		return r, false
	}
	lo, hi := s.min, s.max
	if s.zoom > 1 {
		lo, hi = s.zoomed(lo), s.zoomed(hi)
	}
	r = image.Rect(lo.X.Floor(), lo.Y.Floor(), hi.X.Ceil()+1, hi.Y.Ceil()+1).Intersect(bounds)
	if s.clip != (image.Rectangle{}) {
		r = r.Intersect(s.clip)
	}
	if r.Empty() {
		return r, false
	}
	ox, oy := float32(r.Min.X), float32(r.Min.Y)
	s.z.Reset(r.Dx(), r.Dy())
	var ax, ay float32 // the pen, in dst's pixels
	for _, op := range s.ops {
		p := op.p
		if s.zoom > 1 {
			p = s.zoomed(p)
		}
		x, y := float32(p.X)/64, float32(p.Y)/64
		if op.move {
			s.z.MoveTo(x-ox, max(y-oy, 0))
		} else {
			s.lineTo(ax, ay, x, y, ox, oy, oy+float32(r.Dy()))
		}
		ax, ay = x, y
	}
	return r, true
}

// pieceRows is the longest run of rows a segment is handed to the
// rasteriser in. vector's fixed-point lines (boxes up to 512 pixels a side)
// step x from row to row, truncating each step, and drift: up to 192 levels
// of coverage along a line 500 rows long, and differently in two boxes that
// begin on different rows. Cut where they cross every pieceRows-th row of
// dst, a segment starts each piece on its true x and draws alike in every
// box, to within pieceRows/2 + 1 levels (TestLongLinesDoNotDrift); cutting
// more finely costs more than it gains.
const pieceRows = 4

// lineTo adds the segment (ax, ay)-(bx, by), in dst's pixels, to the
// rasteriser loaded with rows [top, bottom) from column ox: cut where it
// crosses top and every pieceRows-th row, with what lies above top run
// along it, where it changes nothing.
func (s *scanner) lineTo(ax, ay, bx, by, ox, top, bottom float32) {
	to := func(x, y float32) { s.z.LineTo(x-ox, max(y-top, 0)) }
	lo, hi := max(min(ay, by), top), min(max(ay, by), bottom)
	if lo >= hi {
		to(bx, by)
		return
	}
	at := func(y float32) { to(ax+(bx-ax)*(y-ay)/(by-ay), y) }
	first := float32(math.Floor(float64(lo)/pieceRows)+1) * pieceRows
	last := float32(math.Ceil(float64(hi)/pieceRows)-1) * pieceRows
	if by > ay {
		if lo > ay {
			at(lo)
		}
		for y := first; y <= last; y += pieceRows {
			at(y)
		}
	} else {
		for y := last; y >= first; y -= pieceRows {
			at(y)
		}
		if lo > by {
			at(lo)
		}
	}
	to(bx, by)
}

// zoomed maps full-size point p to dst's pixels.
func (s *scanner) zoomed(p fixed.Point26_6) fixed.Point26_6 {
	z := fixed.Int26_6(s.zoom)
	return fixed.Point26_6{X: (p.X - fixed.I(s.origin.X)) / z, Y: (p.Y - fixed.I(s.origin.Y)) / z}
}

// replay draws path p of rec, as Draw would have drawn it when it was
// recorded, within the scanner's clip.
func (s *scanner) replay(rec *pathRecorder, p recordedPath) {
	own := s.ops
	s.ops, s.min, s.max = rec.ops[p.from:p.to], p.min, p.max
	s.SetColor(p.c)
	s.Draw()
	s.ops = own[:0]
}

// coverage rasterises the loaded path into s.mask, one byte per pixel of r.
func (s *scanner) coverage(r image.Rectangle) *image.Alpha {
	n := r.Dx() * r.Dy()
	if cap(s.mask.Pix) < n {
		s.mask.Pix = make([]uint8, n)
	}
	s.mask.Pix = s.mask.Pix[:n]
	s.mask.Stride, s.mask.Rect = r.Dx(), image.Rect(0, 0, r.Dx(), r.Dy())
	s.z.DrawOp = draw.Src
	s.z.Draw(&s.mask, s.mask.Rect, image.Opaque, image.Point{})
	s.z.DrawOp = draw.Over
	return &s.mask
}

// coverMap keeps the path's coverage, as each row's runs of covered
// pixels, for a shape drawn the same way in every image.
func (s *scanner) coverMap(bounds image.Rectangle) *coverMap {
	m := &coverMap{}
	r, ok := s.box(bounds)
	if !ok {
		return m
	}
	mask := s.coverage(r)
	for y := 0; y < r.Dy(); y++ {
		row := mask.Pix[y*mask.Stride:][:r.Dx()]
		for lo, hi := range nonZeroRuns(row) {
			m.runs = append(m.runs, coverRun{x: r.Min.X + lo, y: r.Min.Y + y, m: slices.Clone(row[lo:hi])})
		}
	}
	return m
}

type coverMap struct{ runs []coverRun }

type coverRun struct {
	x, y int
	m    []uint8
}

// lay draws the shape's rows in band in colour c, exactly as scanner.Draw
// would.
func (m *coverMap) lay(dst *image.RGBA, band image.Rectangle, c color.Color) {
	var t overTable
	if !t.set(c) {
		return
	}
	for _, run := range m.runs {
		if run.y >= band.Min.Y && run.y < band.Max.Y {
			t.blend(dst, run.x, run.y, run.m)
		}
	}
}

// overTable is vector's Over with a uniform source, per coverage value m:
// the destination keeps keep[m]/0xffff of itself and gains add[m], the
// source times the mask scaled to 16 bits. Tabled once per colour, not per
// pixel (a layer's shapes share theirs); full coverage, a shape's inside
// and most of its pixels, is tabled further, per channel and destination
// value (full).
type overTable struct {
	c    color.Color // the colour tabled; nil before the first
	keep [256]uint32
	add  [256][4]uint32
	full [4][256]uint8
	// solid is set for an opaque colour, whose fully covered pixels all
	// become px, whatever they were: avatars are drawn in opaque fills.
	solid bool
	px    uint32
}

// set tables colour c, unless it is tabled already; it reports false when
// c is fully transparent.
func (t *overTable) set(c color.Color) bool {
	sr, sg, sb, sa := c.RGBA()
	if sa == 0 {
		return false
	}
	if t.c == c {
		return true
	}
	t.c = c
	for m := 1; m < 256; m++ {
		ma := uint32(m) * 0x101
		t.keep[m] = (0xffff - sa*ma/0xffff) * 0x101
		t.add[m] = [4]uint32{sr * ma, sg * ma, sb * ma, sa * ma}
	}
	for k := range 4 {
		for v := range 256 {
			t.full[k][v] = t.over(uint8(v), 255, k)
		}
	}
	t.solid = sa == 0xffff
	t.px = binary.NativeEndian.Uint32([]uint8{t.full[0][0], t.full[1][0], t.full[2][0], t.full[3][0]})
	return true
}

// over is destination byte v of channel k after a pixel covered m/255.
func (t *overTable) over(v, m uint8, k int) uint8 {
	return uint8((uint32(v)*t.keep[m] + t.add[m][k]) / 0xffff >> 8)
}

// blend lays coverage mrow over dst's row y from x on.
func (t *overTable) blend(dst *image.RGBA, x, y int, mrow []uint8) {
	pix := dst.Pix[dst.PixOffset(x, y):][:4*len(mrow)]
	for i := 0; i < len(mrow); i++ {
		// Most of a thin shape's box is uncovered: pass over eight
		// uncovered pixels at a time.
		for i+8 <= len(mrow) && binary.NativeEndian.Uint64(mrow[i:]) == 0 {
			i += 8
		}
		if i == len(mrow) {
			break
		}
		m, p := mrow[i], pix[4*i:4*i+4:4*i+4]
		switch m {
		case 0:
		case 255:
			if t.solid {
				binary.NativeEndian.PutUint32(p, t.px)
				continue
			}
			p[0], p[1], p[2], p[3] = t.full[0][p[0]], t.full[1][p[1]], t.full[2][p[2]], t.full[3][p[3]]
		default:
			k, ad := t.keep[m], &t.add[m]
			p[0] = uint8((uint32(p[0])*k + ad[0]) / 0xffff >> 8)
			p[1] = uint8((uint32(p[1])*k + ad[1]) / 0xffff >> 8)
			p[2] = uint8((uint32(p[2])*k + ad[2]) / 0xffff >> 8)
			p[3] = uint8((uint32(p[3])*k + ad[3]) / 0xffff >> 8)
		}
	}
}
