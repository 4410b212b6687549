package ogimage

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"
	"sync"

	"github.com/srwiley/oksvg"
	"github.com/srwiley/rasterx"
	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// PNG renders the scene and encodes it as a PNG (fast compression: the
// image is made on request and never stored; see encodePNG).
func (s *Scene) PNG() ([]byte, error) {
	img := canvasPool.Get().(*image.RGBA)
	defer canvasPool.Put(img)
	if err := s.draw(img); err != nil {
		return nil, err
	}
	return encodePNG(img), nil
}

// Render rasterises the scene into a new image: the same model the SVG
// writer walks, drawn with rasterx (shapes), a box blur (glass), oksvg
// (avatar) and the embedded fonts (text).
func (s *Scene) Render() (*image.RGBA, error) {
	img := newCanvas()
	if err := s.draw(img); err != nil {
		return nil, err
	}
	return img, nil
}

func newCanvas() *image.RGBA { return image.NewRGBA(image.Rect(0, 0, Width, Height)) }

// Memory reused between renderings: PNG's canvases, and every rendering's
// scratch buffers (the rasteriser's, the blur's, the avatar's).
var (
	canvasPool  = sync.Pool{New: func() any { return newCanvas() }}
	scratchPool = sync.Pool{New: func() any { return &scratch{sc: newScanner(nil)} }}
)

type scratch struct {
	sc     *scanner
	blur   blurBuffers
	avatar *image.RGBA
}

// draw paints the whole canvas (every pixel is written, so a reused canvas
// needs no clearing).
func (s *Scene) draw(img *image.RGBA) error {
	var icon *oksvg.SvgIcon
	if s.avatar != nil {
		var err error
		if icon, err = oksvg.ReadIconStream(bytes.NewReader(s.avatar), oksvg.IgnoreErrorMode); err != nil {
			return fmt.Errorf("ogimage: read avatar svg: %w", err)
		}
	}
	scr := scratchPool.Get().(*scratch)
	defer scratchPool.Put(scr)
	fillRGB(img, img.Bounds(), backgroundRGB)
	sc := scr.sc
	sc.dst = img
	defer func() { sc.dst = nil }()
	fl := rasterx.NewFiller(Width, Height, sc)
	ds := rasterx.NewDasher(Width, Height, sc)

	// Background: pattern layers, then the glow behind the avatar.
	for _, l := range s.layers {
		for i := range l.shapes {
			drawShape(fl, ds, &l.shapes[i])
		}
	}
	accent := paletteRGB[s.accent]
	glow(img, avatarRect.x+avatarRect.w/2, avatarRect.y+avatarRect.h/2, glowRadius, accent, glowAlpha)

	// Glass panel: blur what lies under it before anything else lands there.
	p := panelRect
	pr := image.Rect(int(p.x), int(p.y), int(p.right()), int(p.bottom()))
	glass, gr := boxBlur(img, pr, glassRadius, &scr.blur)
	shadow(img, rect{p.x, p.y + shadowOffset, p.w, p.h}, panelRadius, shadowRadius, shadowAlpha, p)
	composeGlass(img, pr, glass, gr)
	ds.Clear()
	ds.SetStroke(fixed.Int26_6(edgeWidth*64), 4<<6, rasterx.RoundCap, rasterx.RoundCap, rasterx.RoundGap, rasterx.Round, nil, 0)
	rasterx.AddRoundRect(p.x, p.y, p.right(), p.bottom(), panelRadius, panelRadius, 0, rasterx.RoundGap, ds)
	ds.SetColor(nrgba(whiteRGB, edgeAlpha))
	ds.Draw()

	// Quotation mark.
	fl.Clear()
	addPathOps(fl, s.mark)
	fl.SetColor(nrgba(accent, 1))
	fl.Draw()

	if icon != nil {
		if scr.avatar == nil {
			scr.avatar = image.NewRGBA(image.Rect(0, 0, int(avatarRect.w), int(avatarRect.h)))
		}
		clear(scr.avatar.Pix)
		sc.dst = scr.avatar
		drawAvatar(img, icon, sc)
		sc.dst = img
	}

	// Text.
	if err := drawLines(img, s.fonts.quote, s.lines, nrgba(whiteRGB, 1)); err != nil {
		return err
	}
	if s.byline != nil {
		fl.Clear()
		b := s.bar
		rasterx.AddRoundRect(b.x, b.y, b.right(), b.bottom(), 1.5, 1.5, 0, rasterx.RoundGap, fl)
		fl.SetColor(nrgba(accent, 1))
		fl.Draw()
		if err := drawLines(img, s.fonts.author, []Line{*s.byline}, nrgba(whiteRGB, authorAlpha)); err != nil {
			return err
		}
	}

	// Border.
	for _, r := range []image.Rectangle{
		image.Rect(0, 0, Width, borderWidth),
		image.Rect(0, Height-borderWidth, Width, Height),
		image.Rect(0, borderWidth, borderWidth, Height-borderWidth),
		image.Rect(Width-borderWidth, borderWidth, Width, Height-borderWidth),
	} {
		fillRGB(img, r, accent)
	}
	return nil
}

func nrgba(c rgb, a float64) color.NRGBA {
	return color.NRGBA{c.r, c.g, c.b, uint8(math.Round(a * 255))}
}

func fillRGB(img *image.RGBA, r image.Rectangle, c rgb) {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := img.Pix[img.PixOffset(r.Min.X, y):img.PixOffset(r.Max.X, y)]
		for i := 0; i < len(row); i += 4 {
			row[i], row[i+1], row[i+2], row[i+3] = c.r, c.g, c.b, 0xff
		}
	}
}

func fix(x, y float64) fixed.Point26_6 {
	return fixed.Point26_6{X: fixed.Int26_6(math.Round(x * 64)), Y: fixed.Int26_6(math.Round(y * 64))}
}

func drawShape(fl *rasterx.Filler, ds *rasterx.Dasher, sh *shape) {
	if sh.fill > 0 {
		fl.Clear()
		if sh.circle {
			rasterx.AddCircle(sh.cx, sh.cy, sh.r, fl)
		} else {
			addPaths(fl, sh.paths, true)
		}
		fl.SetColor(nrgba(paletteRGB[sh.color], sh.fill))
		fl.Draw()
	}
	if sh.stroke > 0 {
		ds.Clear()
		w := fixed.Int26_6(math.Round(sh.width * 64))
		ds.SetStroke(w, 4<<6, rasterx.RoundCap, rasterx.RoundCap, rasterx.RoundGap, rasterx.Round, nil, 0)
		if sh.circle {
			rasterx.AddCircle(sh.cx, sh.cy, sh.r, ds)
		} else {
			addPaths(ds, sh.paths, sh.closed)
		}
		ds.SetColor(nrgba(paletteRGB[sh.color], sh.stroke))
		ds.Draw()
	}
}

func addPaths(a rasterx.Adder, paths [][]point, closed bool) {
	for _, sub := range paths {
		for i, p := range sub {
			if i == 0 {
				a.Start(fix(p.x, p.y))
			} else {
				a.Line(fix(p.x, p.y))
			}
		}
		a.Stop(closed)
	}
}

func addPathOps(a rasterx.Adder, ops []pathOp) {
	for _, op := range ops {
		switch op.op {
		case 'M':
			a.Start(fix(op.pts[0].x, op.pts[0].y))
		case 'L':
			a.Line(fix(op.pts[0].x, op.pts[0].y))
		case 'Q':
			a.QuadBezier(fix(op.pts[0].x, op.pts[0].y), fix(op.pts[1].x, op.pts[1].y))
		case 'Z':
			a.Stop(true)
		}
	}
}

// blend mixes colour c with opacity a into the opaque pixel at pix[i:].
func blend(pix []uint8, i int, c rgb, a float64) {
	pix[i] = uint8(float64(pix[i]) + (float64(c.r)-float64(pix[i]))*a + 0.5)
	pix[i+1] = uint8(float64(pix[i+1]) + (float64(c.g)-float64(pix[i+1]))*a + 0.5)
	pix[i+2] = uint8(float64(pix[i+2]) + (float64(c.b)-float64(pix[i+2]))*a + 0.5)
}

// glow is the radial gradient of the SVG: colour c at opacity a in the
// centre, fading linearly to 0 at radius r.
func glow(img *image.RGBA, cx, cy, r float64, c rgb, a float64) {
	b := image.Rect(int(cx-r), int(cy-r), int(math.Ceil(cx+r)), int(math.Ceil(cy+r))).Intersect(img.Bounds())
	for y := b.Min.Y; y < b.Max.Y; y++ {
		dy := float64(y) + 0.5 - cy
		for x := b.Min.X; x < b.Max.X; x++ {
			dx := float64(x) + 0.5 - cx
			d := math.Sqrt(dx*dx+dy*dy) / r
			if d < 1 {
				blend(img.Pix, img.PixOffset(x, y), c, a*(1-d))
			}
		}
	}
}

// roundRectCoverage returns how much of the pixel centred at (x, y) the
// rounded rectangle r covers, from its signed distance.
func roundRectCoverage(r rect, rad, x, y float64) float64 {
	hx, hy := r.w/2, r.h/2
	qx := abs64(x-(r.x+hx)) - (hx - rad)
	qy := abs64(y-(r.y+hy)) - (hy - rad)
	var d float64
	if qx <= 0 || qy <= 0 {
		d = max(qx, qy) - rad
	} else {
		d = math.Sqrt(qx*qx+qy*qy) - rad
	}
	return min(max(0.5-d, 0), 1)
}

func abs64(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

// composeGlass lays the glass over the panel: the blurred background (glass,
// covering gr) clipped to the rounded panel, the dark tint, then the white
// sheen along the diagonal.
func composeGlass(img *image.RGBA, pr image.Rectangle, glass []uint8, gr image.Rectangle) {
	p := panelRect
	gx, gy := p.w, p.h // sheen gradient vector
	g2 := gx*gx + gy*gy
	gw := gr.Dx()
	edge := int(panelRadius) + 2 // pixels this close to a side may be partly covered
	var bgTint [3]float64
	for c, v := range [3]uint8{backgroundRGB.r, backgroundRGB.g, backgroundRGB.b} {
		bgTint[c] = float64(v) * tintAlpha
	}
	for y := pr.Min.Y; y < pr.Max.Y; y++ {
		fy := float64(y) + 0.5
		row := img.Pix[img.PixOffset(pr.Min.X, y):]
		grow := glass[((y-gr.Min.Y)*gw+pr.Min.X-gr.Min.X)*3:]
		edgeRow := y-pr.Min.Y < edge || pr.Max.Y-y <= edge
		for x := pr.Min.X; x < pr.Max.X; x++ {
			fx := float64(x) + 0.5
			cov := 1.0
			if edgeRow || x-pr.Min.X < edge || pr.Max.X-x <= edge {
				if cov = roundRectCoverage(p, panelRadius, fx, fy); cov <= 0 {
					continue
				}
			}
			t := min(max(((fx-p.x)*gx+(fy-p.y)*gy)/g2, 0), 1)
			sa := sheenFrom + (sheenTo-sheenFrom)*t
			i, j := (x-pr.Min.X)*4, (x-pr.Min.X)*3
			if cov == 1 {
				// Glass, then tint, then sheen, folded into one step.
				k1 := (1 - tintAlpha) * (1 - sa)
				k0 := 255 * sa
				for c := 0; c < 3; c++ {
					row[i+c] = uint8(float64(grow[j+c])*k1 + bgTint[c]*(1-sa) + k0 + 0.5)
				}
				continue
			}
			blend(row, i, rgb{grow[j], grow[j+1], grow[j+2]}, cov)
			blend(row, i, backgroundRGB, cov*tintAlpha)
			blend(row, i, whiteRGB, cov*sa)
		}
	}
}

// shadow drops a blurred black rounded rectangle at opacity a, blurred by
// three box passes of radius blur in each direction, and leaves the pixels
// inside the panel alone (the opaque glass covers them). The blur is linear
// and the rectangle's is separable, so the mask is the product of two
// blurred 1-D profiles minus the blurred corner pieces the rounding removes.
func shadow(img *image.RGBA, r rect, rad float64, blur int, a float64, panel rect) {
	m := 3 * blur
	b := image.Rect(int(r.x)-m, int(r.y)-m, int(math.Ceil(r.right()))+m, int(math.Ceil(r.bottom()))+m).Intersect(img.Bounds())
	w, h := b.Dx(), b.Dy()
	px := make([]float64, w)
	for x := range px {
		px[x] = min(max(min(float64(x+b.Min.X)+1, r.right())-max(float64(x+b.Min.X), r.x), 0), 1)
	}
	py := make([]float64, h)
	for y := range py {
		py[y] = min(max(min(float64(y+b.Min.Y)+1, r.bottom())-max(float64(y+b.Min.Y), r.y), 0), 1)
	}
	px, py = blur1D(px, blur), blur1D(py, blur)

	// The four corner pieces, each blurred in its own small box.
	type piece struct {
		box  image.Rectangle
		mask []uint8
	}
	var pieces [4]piece
	cr := int(math.Ceil(rad))
	for k := range pieces {
		cx, cy := int(r.x), int(r.y)
		if k&1 == 1 {
			cx = int(math.Ceil(r.right())) - cr
		}
		if k&2 == 2 {
			cy = int(math.Ceil(r.bottom())) - cr
		}
		box := image.Rect(cx-m, cy-m, cx+cr+m, cy+cr+m)
		bw, bh := box.Dx(), box.Dy()
		mask := make([]uint8, bw*bh)
		for y := m; y < m+cr; y++ {
			for x := m; x < m+cr; x++ {
				fx, fy := float64(box.Min.X+x)+0.5, float64(box.Min.Y+y)+0.5
				mask[y*bw+x] = uint8((1-roundRectCoverage(r, rad, fx, fy))*255 + 0.5)
			}
		}
		pieces[k] = piece{box, blurPlanes(mask, make([]uint8, len(mask)), bw, bh, 1, blur)}
	}

	// Pixels well inside the panel are left alone: the opaque glass
	// covers them.
	inner := image.Rect(int(panel.x)+1, int(panel.y)+1, int(panel.right())-1, int(panel.bottom())-1)
	cut := int(panelRadius) + 1
	for y := b.Min.Y; y < b.Max.Y; y++ {
		skip0, skip1 := 0, 0 // [skip0, skip1) of this row is covered
		if y >= inner.Min.Y && y < inner.Max.Y {
			skip0, skip1 = inner.Min.X, inner.Max.X
			if y < inner.Min.Y+cut || y >= inner.Max.Y-cut {
				skip0, skip1 = inner.Min.X+cut, inner.Max.X-cut
			}
		}
		fy := py[y-b.Min.Y]
		for x := b.Min.X; x < b.Max.X; x++ {
			if x == skip0 && skip1 > skip0 {
				x = skip1 - 1
				continue
			}
			v := px[x-b.Min.X] * fy
			for k := range pieces {
				pc := &pieces[k]
				if x >= pc.box.Min.X && x < pc.box.Max.X && y >= pc.box.Min.Y && y < pc.box.Max.Y {
					v -= float64(pc.mask[(y-pc.box.Min.Y)*pc.box.Dx()+x-pc.box.Min.X]) / 255
				}
			}
			if v > 0.5/255 {
				blend(img.Pix, img.PixOffset(x, y), blackRGB, a*v)
			}
		}
	}
}

// blur1D applies three box passes of radius rad to v, edges clamped.
func blur1D(v []float64, rad int) []float64 {
	n := len(v)
	out := make([]float64, n)
	k := 1 / float64(2*rad+1)
	for pass := 0; pass < 3; pass++ {
		at := func(i int) float64 { return v[min(max(i, 0), n-1)] }
		sum := 0.0
		for i := -rad; i <= rad; i++ {
			sum += at(i)
		}
		for i := range out {
			out[i] = sum * k
			sum += at(i+rad+1) - at(i-rad)
		}
		v, out = out, v
	}
	return v
}

// drawAvatar rasterises the avatar SVG with oksvg and lays it down through
// the fading mask: opaque to fadeFrom of its radius, then linearly to 0.
func drawAvatar(img *image.RGBA, icon *oksvg.SvgIcon, sc *scanner) {
	tmp := sc.dst
	n := tmp.Rect.Dx()
	icon.SetTarget(0, 0, float64(n), float64(n))
	icon.Draw(rasterx.NewDasher(n, n, sc), 1)
	c := float64(n) / 2
	for y := 0; y < n; y++ {
		dy := float64(y) + 0.5 - c
		for x := 0; x < n; x++ {
			dx := float64(x) + 0.5 - c
			d := math.Sqrt(dx*dx+dy*dy) / c
			if d <= fadeFrom {
				continue
			}
			m := 0.0
			if d < 1 {
				m = (1 - d) / (1 - fadeFrom)
			}
			i := tmp.PixOffset(x, y)
			for k := 0; k < 4; k++ {
				tmp.Pix[i+k] = uint8(float64(tmp.Pix[i+k])*m + 0.5)
			}
		}
	}
	at := image.Pt(int(avatarRect.x), int(avatarRect.y))
	draw.Draw(img, tmp.Bounds().Add(at), tmp, image.Point{}, draw.Over)
}

// drawLines draws laid-out lines glyph by glyph at the pen positions the
// layout measured, so the PNG's lines have exactly the SVG's widths.
func drawLines(img *image.RGBA, fc face, lines []Line, c color.NRGBA) error {
	src := image.NewUniform(c)
	var fa font.Face
	size := 0.0
	for _, l := range lines {
		if fa == nil || l.Size != size {
			var err error
			fa, err = opentype.NewFace(fc.f, &opentype.FaceOptions{Size: l.Size, DPI: 72, Hinting: font.HintingNone})
			if err != nil {
				return fmt.Errorf("ogimage: font face: %w", err)
			}
			size = l.Size
		}
		for k, r := range l.runes {
			dot := fix(l.X+l.penOffsets[k], l.Y)
			dr, mask, mp, _, ok := fa.Glyph(dot, r)
			if !ok {
				continue
			}
			draw.DrawMask(img, dr, src, image.Point{}, mask, mp, draw.Over)
		}
	}
	return nil
}
