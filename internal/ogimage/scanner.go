package ogimage

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"github.com/srwiley/rasterx"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"
)

// scanner is a rasterx.Scanner that rasterises each path only over its own
// bounding box. rasterx's ScannerGV accumulates and composites the whole
// destination for every path, which costs a full 1200×630 pass per shape.
type scanner struct {
	dst  *image.RGBA
	z    vector.Rasterizer
	mask image.Alpha // coverage of the current path over its box
	ops  []scanOp
	min  fixed.Point26_6
	max  fixed.Point26_6
	clip image.Rectangle
	uni  image.Uniform
	fn   funcImage
	src  image.Image
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

func (s *scanner) extend(p fixed.Point26_6) {
	s.min.X, s.min.Y = min(s.min.X, p.X), min(s.min.Y, p.Y)
	s.max.X, s.max.Y = max(s.max.X, p.X), max(s.max.Y, p.Y)
}

func (s *scanner) Start(a fixed.Point26_6) { s.extend(a); s.ops = append(s.ops, scanOp{true, a}) }
func (s *scanner) Line(b fixed.Point26_6)  { s.extend(b); s.ops = append(s.ops, scanOp{false, b}) }

func (s *scanner) GetPathExtent() fixed.Rectangle26_6 {
	return fixed.Rectangle26_6{Min: s.min, Max: s.max}
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
	s.min = fixed.Point26_6{X: math.MaxInt32, Y: math.MaxInt32}
	s.max = fixed.Point26_6{X: math.MinInt32, Y: math.MinInt32}
}

func (s *scanner) Draw() {
	if len(s.ops) == 0 {
		return
	}
	r := image.Rect(s.min.X.Floor(), s.min.Y.Floor(), s.max.X.Ceil()+1, s.max.Y.Ceil()+1)
	r = r.Intersect(s.dst.Bounds())
	if s.clip != (image.Rectangle{}) {
		r = r.Intersect(s.clip)
	}
	if r.Empty() {
		return
	}
	ox, oy := float32(r.Min.X), float32(r.Min.Y)
	s.z.Reset(r.Dx(), r.Dy())
	for _, op := range s.ops {
		x, y := float32(op.p.X)/64-ox, float32(op.p.Y)/64-oy
		if op.move {
			s.z.MoveTo(x, y)
		} else {
			s.z.LineTo(x, y)
		}
	}
	if s.src != image.Image(&s.uni) {
		s.z.Draw(s.dst, r, s.src, r.Min)
		return
	}
	// Uniform colour: let the rasteriser write the bare coverage (its fast
	// path), then blend only the covered pixels. vector's own RGBA path
	// divides four times for every pixel of the box, covered or not.
	n := r.Dx() * r.Dy()
	if cap(s.mask.Pix) < n {
		s.mask.Pix = make([]uint8, n)
	}
	s.mask.Pix = s.mask.Pix[:n]
	s.mask.Stride, s.mask.Rect = r.Dx(), image.Rect(0, 0, r.Dx(), r.Dy())
	s.z.DrawOp = draw.Src
	s.z.Draw(&s.mask, s.mask.Rect, image.Opaque, image.Point{})
	s.z.DrawOp = draw.Over
	sr, sg, sb, sa := s.uni.C.RGBA()
	if sa == 0 {
		return
	}
	// As vector's Over with a uniform source, per coverage value m: the
	// destination keeps a[m]/0xffff of itself and gains src·ma[m], ma the
	// mask scaled to 16 bits. Tabled once per path, not per pixel.
	var keep [256]uint32
	var add [256][4]uint32
	for m := 1; m < 256; m++ {
		ma := uint32(m) * 0x101
		keep[m] = (0xffff - sa*ma/0xffff) * 0x101
		add[m] = [4]uint32{sr * ma, sg * ma, sb * ma, sa * ma}
	}
	for y := 0; y < r.Dy(); y++ {
		mrow := s.mask.Pix[y*s.mask.Stride : y*s.mask.Stride+r.Dx()]
		pix := s.dst.Pix[s.dst.PixOffset(r.Min.X, r.Min.Y+y):][:4*len(mrow)]
		for x, m := range mrow {
			if m == 0 {
				continue
			}
			k, ad, p := keep[m], &add[m], pix[4*x:4*x+4:4*x+4]
			p[0] = uint8((uint32(p[0])*k + ad[0]) / 0xffff >> 8)
			p[1] = uint8((uint32(p[1])*k + ad[1]) / 0xffff >> 8)
			p[2] = uint8((uint32(p[2])*k + ad[2]) / 0xffff >> 8)
			p[3] = uint8((uint32(p[3])*k + ad[3]) / 0xffff >> 8)
		}
	}
}
