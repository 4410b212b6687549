package ogimage

import (
	"bytes"
	"cmp"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"iter"
	"math"
	"slices"
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
	f, err := s.EncodePNG()
	if err != nil {
		return nil, err
	}
	defer f.Release()
	return f.Bytes(), nil
}

// EncodePNG is PNG without copying the encoded image into one slice: a
// server writes it out from where it was encoded, then releases it. Each
// band of rows is encoded as soon as it is drawn.
func (s *Scene) EncodePNG() (*PNGFile, error) {
	img := canvasPool.Get().(*image.RGBA)
	defer canvasPool.Put(img)
	e := newPNGBands(img, 3)
	if err := s.draw(img, e.encode); err != nil {
		e.f.Release()
		return nil, err
	}
	return e.finish(), nil
}

// Render rasterises the scene into a new image: the same model the SVG
// writer walks, drawn with rasterx (shapes), a box blur (glass), oksvg
// (avatar) and the embedded fonts (text).
func (s *Scene) Render() (*image.RGBA, error) {
	img := newCanvas()
	if err := s.draw(img, nil); err != nil {
		return nil, err
	}
	return img, nil
}

func newCanvas() *image.RGBA { return image.NewRGBA(image.Rect(0, 0, Width, Height)) }

// Memory reused between renderings: PNG's canvases, and every rendering's
// scratch buffers (the rasteriser's, the blur's, the avatar's).
var (
	canvasPool  = sync.Pool{New: func() any { return newCanvas() }}
	scratchPool = sync.Pool{New: func() any { return &scratch{} }}
	scannerPool = sync.Pool{New: func() any { return newScanner(nil) }}
)

type scratch struct {
	blur   blurBuffers
	avatar *image.RGBA
	under  *image.RGBA // underRect's background at 1/underZoom
}

// draw paints the whole canvas (every pixel is written, so a reused canvas
// needs no clearing), in three steps. The background, while the avatar
// and the text are drawn aside. The glass's blur of what lies around and
// under the panel, which needs the whole background first. Then
// everything over the background, one band of rows (bandRows) at a time,
// each band handed to done (when not nil) as soon as it is final: it is
// encoded while other bands are still drawn, and while its rows are still
// in the cache.
func (s *Scene) draw(img *image.RGBA, done func(band int)) error {
	scr := scratchPool.Get().(*scratch)
	defer scratchPool.Put(scr)

	var aside sync.WaitGroup
	var avatarErr, textErr error
	if s.avatar != nil {
		if scr.avatar == nil {
			scr.avatar = image.NewRGBA(image.Rect(0, 0, int(avatarRect.w), int(avatarRect.h)))
		}
		aside.Go(func() { avatarErr = rasteriseAvatar(scr.avatar, s.avatar) })
	}
	o := &overlay{accent: paletteRGB[s.accent]}
	aside.Go(func() { textErr = o.prepare(s) })
	if scr.under == nil {
		scr.under = newUnder()
	}
	s.paintBackground(img, scr.under)
	aside.Wait()
	if err := cmp.Or(avatarErr, textErr); err != nil {
		return err
	}
	if s.avatar != nil {
		o.avatar = scr.avatar
	}

	p := panelRect
	o.panel = image.Rect(int(p.x), int(p.y), int(p.right()), int(p.bottom()))
	o.glass = glassBlur(img, o.panel, scr.under, &scr.blur)
	o.tinted = grow(&scr.blur.tinted, len(o.glass.pix))
	tintSmall(o.glass, o.tinted)

	parallel(bands, func(k0, k1 int) {
		tmp := make([]uint16, o.glass.w*3)
		for k := k0; k < k1; k++ {
			y0, y1 := bandRows(k, Height)
			o.lay(img, image.Rect(0, y0, Width, y1), tmp)
			if done != nil {
				done(k)
			}
		}
	})
	return nil
}

// overlay is everything laid over the background, ready to be laid band
// by band.
type overlay struct {
	accent rgb
	panel  image.Rectangle
	glass  smallGlass
	tinted []uint8 // the glass with its tint and sheen (tintSmall)
	mark   *coverMap
	bar    *coverMap // nil without an author
	quote  glyphs
	byline glyphs
	avatar *image.RGBA // nil for none
}

// prepare draws what overlay lays from the scene's text: the quotation
// mark, the quote, the author and the bar beside the author.
func (o *overlay) prepare(s *Scene) error {
	canvas := image.Rect(0, 0, Width, Height)
	sc := scannerPool.Get().(*scanner)
	defer scannerPool.Put(sc)
	fl := rasterx.NewFiller(Width, Height, sc)
	fl.Clear()
	addPathOps(fl, s.mark)
	o.mark = sc.coverMap(canvas)
	fl.Clear()

	var err error
	if o.quote, err = drawGlyphs(s.fonts.quote, s.lines, nrgba(whiteRGB, 1)); err != nil {
		return err
	}
	if s.byline == nil {
		return nil
	}
	b := s.bar
	rasterx.AddRoundRect(b.x, b.y, b.right(), b.bottom(), 1.5, 1.5, 0, rasterx.RoundGap, fl)
	o.bar = sc.coverMap(canvas)
	fl.Clear()
	o.byline, err = drawGlyphs(s.fonts.author, []Line{*s.byline}, nrgba(whiteRGB, authorAlpha))
	return err
}

// lay draws the overlay within band of img, in the order the SVG stacks
// it: the panel's shadow, the glass, the panel's edge, the quotation mark,
// the avatar, the quote, the author's bar and name, and the border; tmp is
// glassRow's.
func (o *overlay) lay(img *image.RGBA, band image.Rectangle, tmp []uint16) {
	shadow().lay(img, band, blackRGB)
	for y := max(band.Min.Y, o.panel.Min.Y); y < min(band.Max.Y, o.panel.Max.Y); y++ {
		glassRow(img, o.panel, y, o.tinted, tmp, o.glass)
	}
	panelEdge().lay(img, band, nrgba(whiteRGB, edgeAlpha))
	accent := nrgba(o.accent, 1)
	o.mark.lay(img, band, accent)
	if o.avatar != nil {
		over(img, image.Pt(int(avatarRect.x), int(avatarRect.y)), o.avatar, band)
	}
	in := img.SubImage(band).(*image.RGBA)
	o.quote.draw(in)
	if o.bar != nil {
		o.bar.lay(img, band, accent)
		o.byline.draw(in)
	}
	for _, r := range []image.Rectangle{
		image.Rect(0, 0, Width, borderWidth),
		image.Rect(0, Height-borderWidth, Width, Height),
		image.Rect(0, borderWidth, borderWidth, Height-borderWidth),
		image.Rect(Width-borderWidth, borderWidth, Width, Height-borderWidth),
	} {
		fillRGB(img, r.Intersect(band), o.accent)
	}
}

func nrgba(c rgb, a float64) color.NRGBA {
	return color.NRGBA{c.r, c.g, c.b, uint8(math.Round(a * 255))}
}

func fillRGB(img *image.RGBA, r image.Rectangle, c rgb) {
	if r.Empty() {
		return
	}
	// The first row pixel by pixel, then the others copied from it.
	first := img.Pix[img.PixOffset(r.Min.X, r.Min.Y):img.PixOffset(r.Max.X, r.Min.Y)]
	for i := 0; i < len(first); i += 4 {
		first[i], first[i+1], first[i+2], first[i+3] = c.r, c.g, c.b, 0xff
	}
	for y := r.Min.Y + 1; y < r.Max.Y; y++ {
		copy(img.Pix[img.PixOffset(r.Min.X, y):], first)
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

// panelEdge is the coverage of the panel's rounded outline, the same for
// every image. Rasterising the thin stroke afresh took a pass over the
// whole panel, its bounding box, for a few thousand pixels.
var panelEdge = sync.OnceValue(func() *coverMap {
	p := panelRect
	sc := newScanner(nil)
	ds := rasterx.NewDasher(Width, Height, sc)
	ds.SetStroke(fixed.Int26_6(edgeWidth*64), 4<<6, rasterx.RoundCap, rasterx.RoundCap, rasterx.RoundGap, rasterx.Round, nil, 0)
	rasterx.AddRoundRect(p.x, p.y, p.right(), p.bottom(), panelRadius, panelRadius, 0, rasterx.RoundGap, ds)
	return sc.coverMap(image.Rect(0, 0, Width, Height))
})

// blend16 is blend at opacity a/0xffff in integers, to the same byte. blend
// rounds p + (c-p)·a/0xffff to the nearest integer: the floor of
// (2·0xffff·p + 2·(c-p)·a + 0xffff) / (2·0xffff). That numerator is odd, so
// the exact value never lies half way between two integers, and blend's
// floating point, off by far less than 1/(2·0xffff), rounds it the same way.
// The numerator lies in [0, 2·0xffff·256), below 2³², so it is worked out
// in uint32, where the subtraction wraps back to the true value; an
// unsigned division by a constant is cheaper than a signed one.
func blend16(p []uint8, c rgb, a uint16) {
	const one = 2 * 0xffff
	w := 2 * uint32(a)
	p0, p1, p2 := uint32(p[0]), uint32(p[1]), uint32(p[2])
	p[0] = uint8((one*p0 + uint32(c.r)*w - p0*w + 0xffff) / one)
	p[1] = uint8((one*p1 + uint32(c.g)*w - p1*w + 0xffff) / one)
	p[2] = uint8((one*p2 + uint32(c.b)*w - p2*w + 0xffff) / one)
}

// glow is the radial gradient of the SVG behind the avatar: the accent at
// glowAlpha in the centre, fading linearly to 0 at glowRadius; its opacity
// per pixel is worked out once.
var glow = sync.OnceValue(func() *alphaMap {
	cx, cy, r := avatarRect.x+avatarRect.w/2, avatarRect.y+avatarRect.h/2, float64(glowRadius)
	b := image.Rect(int(cx-r), int(cy-r), int(math.Ceil(cx+r)), int(math.Ceil(cy+r))).Intersect(image.Rect(0, 0, Width, Height))
	return newAlphaMap(b, func(x, y int) float64 { return glowAt(float64(x)+0.5, float64(y)+0.5) })
})

// alphaMap is the opacity at which a colour is laid over each pixel of r,
// in units of 1/65535, kept as each row's runs of pixels it changes: the
// shadow's map spans the whole panel, whose inside it leaves alone. The
// glow and the panel's shadow are the same for every image, so their maps
// are made once and only laid down per image.
type alphaMap struct {
	r    image.Rectangle
	rows [][]alphaRun // one per row of r
}

// alphaRun is a row's run of non-zero opacities from x on.
type alphaRun struct {
	x int
	a []uint16
}

func newAlphaMap(r image.Rectangle, alpha func(x, y int) float64) *alphaMap {
	m := &alphaMap{r: r, rows: make([][]alphaRun, r.Dy())}
	row := make([]uint16, r.Dx())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			row[x-r.Min.X] = uint16(math.Round(min(max(alpha(x, y), 0), 1) * 0xffff))
		}
		m.rows[y-r.Min.Y] = alphaRuns(row, r.Min.X)
	}
	return m
}

// alphaRuns splits row, whose first pixel is at x0, into its runs of
// non-zero values.
func alphaRuns(row []uint16, x0 int) []alphaRun {
	var runs []alphaRun
	for lo, hi := range nonZeroRuns(row) {
		runs = append(runs, alphaRun{x: x0 + lo, a: slices.Clone(row[lo:hi])})
	}
	return runs
}

// nonZeroRuns yields the bounds [lo, hi) of row's runs of non-zero values.
func nonZeroRuns[T uint8 | uint16](row []T) iter.Seq2[int, int] {
	return func(yield func(lo, hi int) bool) {
		for i := 0; i < len(row); {
			if row[i] == 0 {
				i++
				continue
			}
			j := i
			for j < len(row) && row[j] != 0 {
				j++
			}
			if !yield(i, j) {
				return
			}
			i = j
		}
	}
}

// lay blends c into the pixels of img in band at the map's opacities.
func (m *alphaMap) lay(img *image.RGBA, band image.Rectangle, c rgb) {
	b := m.r.Intersect(band)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for _, run := range m.rows[y-m.r.Min.Y] {
			x0, x1 := max(run.x, b.Min.X), min(run.x+len(run.a), b.Max.X)
			if x0 >= x1 {
				continue
			}
			pix := img.Pix[img.PixOffset(x0, y):]
			for i, a := range run.a[x0-run.x : x1-run.x] {
				blend16(pix[4*i:4*i+3:4*i+3], c, a)
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

// sheen is the opacity of the white sheen at (x, y) in the panel:
// sheenFrom at its top-left corner to sheenTo at its bottom-right.
func sheen(x, y float64) float64 { return min(max(sheenLine(x, y), sheenTo), sheenFrom) }

// sheenLine is the sheen's gradient carried on past the panel, where the
// small glass's outermost pixels lie: linear everywhere, so that the
// pixels just inside are interpolated between values that belong to the
// same gradient.
func sheenLine(x, y float64) float64 {
	p := panelRect
	t := ((x-p.x)*p.w + (y-p.y)*p.h) / (p.w*p.w + p.h*p.h)
	return sheenFrom + (sheenTo-sheenFrom)*t
}

// tintSmall writes the small glass with the tint and sheen applied into
// dst, before it is scaled up (a sixteenth of the pixels): both are linear
// in the glass, and the sheen's opacity is linear across the panel, so this
// is within a hundredth of a level of applying them after. A pixel becomes
// glass·(1-tint)(1-sa) + background·tint·(1-sa) + 255·sa, sa the sheen's
// opacity (sheenLine) at the centre of the block it stands for. Along a row
// sa changes by the same step from pixel to pixel, so both terms are kept
// in fixed point (units of 2⁻³²) and advanced by a constant.
func tintSmall(g smallGlass, dst []uint8) {
	const one = 1 << 32
	terms := func(sa float64) (k int64, b [3]int64) {
		k = int64((1 - tintAlpha) * (1 - sa) * one)
		for c, v := range [3]uint8{backgroundRGB.r, backgroundRGB.g, backgroundRGB.b} {
			b[c] = int64((float64(v)*tintAlpha*(1-sa) + 255*sa + 0.5) * one)
		}
		return k, b
	}
	parallel(g.h, func(y0, y1 int) {
		for y := y0; y < y1; y++ {
			fy, fx := float64(g.min.Y+glassScale*y)+glassScale/2.0, float64(g.min.X)+glassScale/2.0
			k, b := terms(sheenLine(fx, fy))
			k2, b2 := terms(sheenLine(fx+glassScale, fy))
			dk, db := k2-k, [3]int64{b2[0] - b[0], b2[1] - b[1], b2[2] - b[2]}
			in, out := g.pix[y*g.w*3:(y+1)*g.w*3], dst[y*g.w*3:(y+1)*g.w*3]
			for x := range g.w {
				i, o := in[x*3:x*3+3:x*3+3], out[x*3:x*3+3:x*3+3]
				kk := k >> 16
				for c := range 3 {
					o[c] = uint8((int64(i[c])*kk + b[c]>>16) >> 16)
					b[c] += db[c]
				}
				k += dk
			}
		}
	})
}

// glassRow lays row y of the glass on the panel: tinted (the small glass
// with the tint and sheen applied, scaled up) where the panel covers whole
// pixels, and where its rounded edge covers part of one, the untinted
// glass, the tint and the sheen in turn, each by the coverage; tmp is
// smallGlass.row's.
func glassRow(img *image.RGBA, pr image.Rectangle, y int, tinted []uint8, tmp []uint16, glass smallGlass) {
	row := img.Pix[img.PixOffset(pr.Min.X, y):][:pr.Dx()*4]
	rc := panelCover()[y-pr.Min.Y]
	if rc.to > rc.from {
		glass.row(tinted, y, row[rc.from*4:rc.to*4], tmp, pr.Min.X+rc.from, pr.Min.X+rc.to)
	}
	fy := float64(y) + 0.5
	for _, p := range rc.part {
		i := p.x * 4
		blend(row, i, glass.pixel(pr.Min.X+p.x, y), p.cov)
		blend(row, i, backgroundRGB, p.cov*tintAlpha)
		blend(row, i, whiteRGB, p.cov*sheen(float64(pr.Min.X+p.x)+0.5, fy))
	}
}

// rowCover is how the panel covers one row of its bounding box: whole
// pixels in columns [from, to), and the pixels of its rounded edge in part.
type rowCover struct {
	from, to int
	part     []partCover
}

type partCover struct {
	x   int
	cov float64
}

// panelCover is the panel's coverage of each row of its bounding box,
// worked out once.
var panelCover = sync.OnceValue(func() []rowCover {
	p := panelRect
	pr := image.Rect(int(p.x), int(p.y), int(p.right()), int(p.bottom()))
	rows := make([]rowCover, pr.Dy())
	for y := range rows {
		rc := &rows[y]
		for x := range pr.Dx() {
			switch cov := roundRectCoverage(p, panelRadius, float64(pr.Min.X+x)+0.5, float64(pr.Min.Y+y)+0.5); {
			case cov >= 1 && rc.to == rc.from:
				rc.from, rc.to = x, x+1
			case cov >= 1 && rc.to == x:
				rc.to = x + 1
			case cov > 0:
				rc.part = append(rc.part, partCover{x, cov})
			}
		}
	}
	return rows
})

// shadow is the panel's drop shadow, the same for every image: a black
// rounded rectangle shifted down by shadowOffset, at shadowAlpha, blurred by
// three box passes of shadowRadius in each direction, leaving the pixels
// inside the panel alone (the opaque glass covers them).
var shadow = sync.OnceValue(func() *alphaMap {
	p := panelRect
	return shadowMap(rect{p.x, p.y + shadowOffset, p.w, p.h}, panelRadius, shadowRadius, shadowAlpha, p)
})

// shadowMap is the opacity of the rounded rectangle r (corner radius rad)
// at opacity a, blurred by three box passes of radius blur, outside panel.
// The blur is linear and the rectangle's is separable, so the mask is the
// product of two blurred 1-D profiles minus the blurred corner pieces the
// rounding removes.
func shadowMap(r rect, rad float64, blur int, a float64, panel rect) *alphaMap {
	m := 3 * blur
	b := image.Rect(int(r.x)-m, int(r.y)-m, int(math.Ceil(r.right()))+m, int(math.Ceil(r.bottom()))+m).Intersect(image.Rect(0, 0, Width, Height))
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
		pieces[k] = piece{box, blurPlanes(mask, make([]uint8, len(mask)), bw, bh, 1, [3]int{blur, blur, blur})}
	}

	// Pixels well inside the panel are left alone: the opaque glass
	// covers them.
	inner := image.Rect(int(panel.x)+1, int(panel.y)+1, int(panel.right())-1, int(panel.bottom())-1)
	cut := int(panelRadius) + 1
	return newAlphaMap(b, func(x, y int) float64 {
		in := image.Pt(x, y).In(inner)
		if in && (y >= inner.Min.Y+cut && y < inner.Max.Y-cut || x >= inner.Min.X+cut && x < inner.Max.X-cut) {
			return 0
		}
		v := px[x-b.Min.X] * py[y-b.Min.Y]
		for k := range pieces {
			pc := &pieces[k]
			if image.Pt(x, y).In(pc.box) {
				v -= float64(pc.mask[(y-pc.box.Min.Y)*pc.box.Dx()+x-pc.box.Min.X]) / 255
			}
		}
		if v <= 0.5/255 {
			return 0
		}
		return a * v
	})
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

// rasteriseAvatar reads the avatar SVG and draws it with oksvg onto dst,
// cleared first, through the fading mask: opaque to fadeFrom of its radius,
// then linearly to 0.
func rasteriseAvatar(dst *image.RGBA, svg []byte) error {
	icon, err := oksvg.ReadIconStream(bytes.NewReader(svg), oksvg.IgnoreErrorMode)
	if err != nil {
		return fmt.Errorf("ogimage: read avatar svg: %w", err)
	}
	clear(dst.Pix)
	sc := scannerPool.Get().(*scanner)
	sc.dst = dst
	defer func() {
		sc.dst = nil
		scannerPool.Put(sc)
	}()
	n := dst.Rect.Dx()
	icon.SetTarget(0, 0, float64(n), float64(n))
	icon.Draw(rasterx.NewDasher(n, n, sc), 1)
	for i, m := range avatarFade() {
		p := dst.Pix[i*4 : i*4+4 : i*4+4]
		switch m {
		case 1 << 32:
		case 0:
			p[0], p[1], p[2], p[3] = 0, 0, 0, 0
		default:
			p[0], p[1], p[2], p[3] = fade(p[0], m), fade(p[1], m), fade(p[2], m), fade(p[3], m)
		}
	}
	return nil
}

// over lays the rows of src that fall in band onto dst at at, as
// draw.Draw with draw.Over does, byte for byte, minus the four divisions
// per pixel where src is clear or opaque: the faded avatar is clear in its
// corners and mostly opaque inside.
func over(dst *image.RGBA, at image.Point, src *image.RGBA, band image.Rectangle) {
	for y := max(band.Min.Y-at.Y, 0); y < min(band.Max.Y-at.Y, src.Rect.Dy()); y++ {
		overRow(dst.Pix[dst.PixOffset(at.X, at.Y+y):], src.Pix[y*src.Stride:][:4*src.Rect.Dx()])
	}
}

// overRow lays the pixels of spix onto the first of dpix.
func overRow(dpix, spix []uint8) {
	const m = 0xffff
	dpix = dpix[:len(spix)]
	for i := 0; i < len(spix); i += 4 {
		s, d := spix[i:i+4:i+4], dpix[i:i+4:i+4]
		switch s[3] {
		case 0:
			if s[0]|s[1]|s[2] == 0 {
				continue
			}
		case 0xff:
			copy(d, s)
			continue
		}
		a := (m - uint32(s[3])*0x101) * 0x101
		for k := range 4 {
			d[k] = uint8((uint32(d[k])*a/m + uint32(s[k])*0x101) >> 8)
		}
	}
}

// fade is byte v at opacity m, an avatarFade value.
func fade(v uint8, m uint64) uint8 { return uint8((uint64(v)*m + 1<<31) >> 32) }

// avatarFade is the avatar's fading mask, the same for every image, per
// pixel: opaque to fadeFrom of its radius, then linearly to 0 at the edge;
// in units of 2⁻³² of a float32 opacity m. For m ≥ 2⁻⁹ that is a whole
// number, so (v·M + 2³¹) >> 32 is v·m rounded, as float64 works it out; a
// smaller m rounds every byte to 0 either way.
var avatarFade = sync.OnceValue(func() []uint64 {
	n := int(avatarRect.w)
	c := float64(n) / 2
	fade := make([]uint64, n*n)
	for y := range n {
		dy := float64(y) + 0.5 - c
		for x := range n {
			dx := float64(x) + 0.5 - c
			d := math.Sqrt(dx*dx+dy*dy) / c
			m := min(max((1-d)/(1-fadeFrom), 0), 1)
			fade[y*n+x] = uint64(float64(float32(m)) * (1 << 32))
		}
	}
	return fade
})

// glyphs are laid-out lines drawn glyph by glyph, each glyph's coverage
// kept so that a band of rows can lay its part.
type glyphs struct {
	src  *image.Uniform
	list []glyph
}

type glyph struct {
	dr   image.Rectangle
	mask *image.Alpha
	mp   image.Point
}

// drawGlyphs draws lines at the pen positions the layout measured, so the
// PNG's lines have exactly the SVG's widths.
func drawGlyphs(fc face, lines []Line, c color.NRGBA) (glyphs, error) {
	g := glyphs{src: image.NewUniform(c)}
	var fa font.Face
	size := 0.0
	for _, l := range lines {
		if fa == nil || l.Size != size {
			var err error
			fa, err = opentype.NewFace(fc.f, &opentype.FaceOptions{Size: l.Size, DPI: 72, Hinting: font.HintingNone})
			if err != nil {
				return g, fmt.Errorf("ogimage: font face: %w", err)
			}
			size = l.Size
		}
		for k, r := range l.runes {
			dot := fix(l.X+l.penOffsets[k], l.Y)
			dr, mask, mp, _, ok := fa.Glyph(dot, r)
			if !ok {
				continue
			}
			g.list = append(g.list, glyph{dr: dr, mask: cloneAlpha(mask), mp: mp})
		}
	}
	return g, nil
}

// cloneAlpha copies a glyph's mask, which the face reuses for the next.
func cloneAlpha(m image.Image) *image.Alpha {
	if a, ok := m.(*image.Alpha); ok {
		return &image.Alpha{Pix: slices.Clone(a.Pix), Stride: a.Stride, Rect: a.Rect}
	}
	a := image.NewAlpha(m.Bounds())
	draw.Draw(a, a.Rect, m, a.Rect.Min, draw.Src)
	return a
}

// draw lays the glyphs over dst, within its bounds.
func (g glyphs) draw(dst *image.RGBA) {
	for _, gl := range g.list {
		if gl.dr.Overlaps(dst.Rect) {
			draw.DrawMask(dst, gl.dr, g.src, image.Point{}, gl.mask, gl.mp, draw.Over)
		}
	}
}
