package ogimage

import (
	"image"
	"runtime"
	"sync"
	"sync/atomic"
)

// Blur radii of the three box-blur passes. Three passes of a box of width
// 2r+1 approximate a Gaussian of variance r(r+1), which is the
// stdDeviation the SVG asks of feGaussianBlur.
const shadowRadius = 15

// glassScale is how many full-size pixels a side of one pixel of the
// glass blur stands for. smallGlass.row writes out glassWeights for 4.
const glassScale = 4

// glassRadii are the radii of the glass blur's three box passes, at
// glassScale. A box of radius r has a variance of r(r+1)/3; these sum to 20
// quarter pixels², a Gaussian of σ ≈ 17.9 px at full size, where three
// passes of glassRadius give σ ≈ 17.5 (the SVG's stdDeviation).
var glassRadii = [3]int{4, 4, 4}

// glassMargin is how far outside the panel the glass blur reads, in
// full-size pixels: the reach of its three passes.
const glassMargin = glassScale * (4 + 4 + 4)

// glassBlur blurs the pixels of img under r as three box passes of
// glassRadius would, at a sixteenth of the cost: it averages each 4×4 block
// of r and a margin of glassMargin around it, and blurs that small image by
// glassRadii; smallGlass.row scales it back up bilinearly. The glass shows
// only this blur, whose finest detail (σ ≈ 17 px) is far coarser than four
// pixels, so the two agree to within a few levels
// (TestGlassBlurMatchesFullSize). The blocks of underRect are taken from
// under, painted at that size, when it is not nil (TestGlassMatchesFullSize);
// buf provides the memory.
func glassBlur(img *image.RGBA, r image.Rectangle, under *image.RGBA, buf *blurBuffers) smallGlass {
	const s = glassScale
	e := glassArea()
	sw, sh := e.Dx()/s, e.Dy()/s
	hole := image.Rectangle{} // underRect, in blocks
	if under != nil {
		h := underRect.Sub(e.Min)
		hole = image.Rect(h.Min.X/s, h.Min.Y/s, h.Max.X/s, h.Max.Y/s)
	}
	small := grow(&buf.a, sw*sh*3)
	parallel(sh, func(y0, y1 int) {
		sums := make([]uint32, sw*3)
		for y := y0; y < y1; y++ {
			out := small[y*sw*3 : (y+1)*sw*3]
			if y < hole.Min.Y || y >= hole.Max.Y {
				averageBlocks(img, e.Min, y, 0, sw, sums, out)
				continue
			}
			averageBlocks(img, e.Min, y, 0, hole.Min.X, sums, out)
			averageBlocks(img, e.Min, y, hole.Max.X, sw, sums, out)
			averageUnder(under, y-hole.Min.Y, out[hole.Min.X*3:hole.Max.X*3])
		}
	})
	return smallGlass{pix: blurPlanes(small, grow(&buf.b, len(small)), sw, sh, 3, glassRadii), w: sw, h: sh, min: e.Min}
}

// glassArea is the full-size rectangle glassBlur reads: the panel and
// glassMargin around it, on the canvas, in whole blocks on multiples of
// glassScale.
func glassArea() image.Rectangle {
	const s = glassScale
	p := panelRect
	e := image.Rect(int(p.x)-glassMargin, int(p.y)-glassMargin, int(p.right())+glassMargin, int(p.bottom())+glassMargin).Intersect(image.Rect(0, 0, Width, Height))
	e.Min.X, e.Min.Y = e.Min.X&^(s-1), e.Min.Y&^(s-1)
	e.Max.X, e.Max.Y = e.Max.X-e.Dx()%s, e.Max.Y-e.Dy()%s
	return e
}

// averageUnder writes into out the average colour of the blocks of row y
// of under, each 2×2 of its pixels (underZoom is half of glassScale).
func averageUnder(under *image.RGBA, y int, out []uint8) {
	const n = glassScale / underZoom // 2: the loop reads two rows, two pixels each
	a := under.Pix[under.PixOffset(0, n*y):]
	b := under.Pix[under.PixOffset(0, n*y+1):]
	for x := range len(out) / 3 {
		p, q := a[x*8:x*8+8:x*8+8], b[x*8:x*8+8:x*8+8]
		for c := range 3 {
			out[x*3+c] = uint8((uint32(p[c]) + uint32(p[4+c]) + uint32(q[c]) + uint32(q[4+c]) + 2) / 4)
		}
	}
}

// averageBlocks writes into out the average colour of blocks [x0, x1) of
// block row y, the blocks counted from full-size point at; sums is scratch
// of 3 values a block.
func averageBlocks(img *image.RGBA, at image.Point, y, x0, x1 int, sums []uint32, out []uint8) {
	const s = glassScale
	clear(sums[x0*3 : x1*3])
	for r := range s {
		row := img.Pix[img.PixOffset(at.X, at.Y+s*y+r):]
		for x := x0; x < x1; x++ {
			p, t := row[x*s*4:(x+1)*s*4:(x+1)*s*4], sums[x*3:x*3+3:x*3+3]
			t[0] += uint32(p[0]) + uint32(p[4]) + uint32(p[8]) + uint32(p[12])
			t[1] += uint32(p[1]) + uint32(p[5]) + uint32(p[9]) + uint32(p[13])
			t[2] += uint32(p[2]) + uint32(p[6]) + uint32(p[10]) + uint32(p[14])
		}
	}
	for i := x0 * 3; i < x1*3; i++ {
		out[i] = uint8((sums[i] + s*s/2) / (s * s))
	}
}

// smallGlass is the blurred glass at 1/glassScale of full size: w×h RGB
// pixels, the first covering the full-size block at min.
type smallGlass struct {
	pix  []uint8
	w, h int
	min  image.Point
}

// glassWeights[j] are the weights, out of 2·glassScale, of small columns
// k-1, k and k+1 in the full-size pixel j of block k (and likewise of rows):
// the pixel's centre lies (2j+1-glassScale)/(2·glassScale) of a small pixel
// from k's centre, towards k-1 or k+1.
var glassWeights = func() (w [glassScale][3]uint32) {
	for j := range glassScale {
		off := 2*j + 1 - glassScale
		if off < 0 {
			w[j] = [3]uint32{uint32(-off), uint32(2*glassScale + off), 0}
		} else {
			w[j] = [3]uint32{0, uint32(2*glassScale - off), uint32(off)}
		}
	}
	return w
}()

// glassOne is the sum of the weights of both directions, and glassHalf
// rounds a division by it.
const glassOne, glassHalf = 4 * glassScale * glassScale, 2 * glassScale * glassScale

// row writes full-size pixels [x0, x1) of row y of plane (pix, or another
// w×h RGB image laid out alike), scaled up bilinearly, into out (RGBA,
// opaque: underRect's pixels get their alpha here); tmp holds at least w·3 values. The two small rows around y are mixed first,
// then each small column k gives the glassScale full-size pixels of its
// block from columns k-1, k and k+1 (glassWeights).
func (g smallGlass) row(plane []uint8, y int, out []uint8, tmp []uint16, x0, x1 int) {
	a, b, wa := pair(y-g.min.Y, g.h)
	ra, rb := plane[a*g.w*3:(a+1)*g.w*3], plane[b*g.w*3:(b+1)*g.w*3]
	k0, k1 := (x0-g.min.X)/glassScale, (x1-1-g.min.X)/glassScale
	wb := 2*glassScale - uint16(wa)
	for j := max(k0-1, 0) * 3; j < (min(k1+1, g.w-1)+1)*3; j++ {
		tmp[j] = uint16(ra[j])*uint16(wa) + uint16(rb[j])*wb
	}
	n := x1 - x0
	for k := k0; k <= k1; k++ {
		x := g.min.X + glassScale*k - x0 // the block's first pixel's place in out
		if x >= 0 && x+glassScale <= n && k >= 1 && k+1 < g.w {
			t := tmp[k*3-3 : k*3+6 : k*3+6] // columns k-1, k and k+1
			o := out[x*4 : (x+glassScale)*4 : (x+glassScale)*4]
			for c := range 3 { // glassWeights, written out
				l, m, r := uint32(t[c]), uint32(t[3+c]), uint32(t[6+c])
				o[c] = uint8((3*l + 5*m + glassHalf) / glassOne)
				o[4+c] = uint8((l + 7*m + glassHalf) / glassOne)
				o[8+c] = uint8((7*m + r + glassHalf) / glassOne)
				o[12+c] = uint8((5*m + 3*r + glassHalf) / glassOne)
			}
			o[3], o[7], o[11], o[15] = 0xff, 0xff, 0xff, 0xff
			continue
		}
		li, mi, ri := max(k-1, 0)*3, k*3, min(k+1, g.w-1)*3
		for j, w := range glassWeights {
			if x+j < 0 || x+j >= n {
				continue
			}
			for c := range 3 {
				v := uint32(tmp[li+c])*w[0] + uint32(tmp[mi+c])*w[1] + uint32(tmp[ri+c])*w[2]
				out[(x+j)*4+c] = uint8((v + glassHalf) / glassOne)
			}
			out[(x+j)*4+3] = 0xff
		}
	}
}

// pixel is the untinted glass at full-size pixel (x, y), scaled up
// bilinearly as row scales up a whole row.
func (g smallGlass) pixel(x, y int) rgb {
	ya, yb, wy := pair(y-g.min.Y, g.h)
	xa, xb, wx := pair(x-g.min.X, g.w)
	var c [3]uint8
	for k := range 3 {
		at := func(hx, hy int) uint32 { return uint32(g.pix[(hy*g.w+hx)*3+k]) }
		top := at(xa, ya)*uint32(wx) + at(xb, ya)*uint32(2*glassScale-wx)
		bot := at(xa, yb)*uint32(wx) + at(xb, yb)*uint32(2*glassScale-wx)
		c[k] = uint8((top*uint32(wy) + bot*uint32(2*glassScale-wy) + glassHalf) / glassOne)
	}
	return rgb{c[0], c[1], c[2]}
}

// pair gives, for full-size coordinate v, the two small coordinates
// (clamped to [0, n)) whose centres surround v's, and the weight of the
// first out of 2·glassScale.
func pair(v, n int) (a, b, wa int) {
	k, off := v/glassScale, 2*(v%glassScale)+1-glassScale
	if off < 0 { // below k's centre: between k-1 and k
		return max(k-1, 0), k, -off
	}
	return k, min(k+1, n-1), 2*glassScale - off
}

// blurBuffers is the memory of one blur, reused from rendering to rendering.
type blurBuffers struct{ a, b, tinted []uint8 }

func grow(b *[]uint8, n int) []uint8 {
	if cap(*b) < n {
		*b = make([]uint8, n)
	}
	*b = (*b)[:n]
	return *b
}

// blurPlanes blurs src, a w×h image of ch interleaved channels, with three
// horizontal then three vertical box passes of radii rad, edges clamped,
// and returns the result in dst; src is overwritten. Each row takes its
// three horizontal passes while it sits in cache; each vertical pass reads
// the whole of the one before. Rows are shared out between goroutines:
// shared out by columns, the goroutines wrote into the same cache lines.
func blurPlanes(src, dst []uint8, w, h, ch int, rad [3]int) []uint8 {
	stride := w * ch
	parallel(h, func(y0, y1 int) {
		tmp := make([]uint8, stride)
		for y := y0; y < y1; y++ {
			row := src[y*stride : (y+1)*stride]
			hpass(row, tmp, w, ch, rad[0])
			hpass(tmp, row, w, ch, rad[1])
			hpass(row, tmp, w, ch, rad[2])
			copy(row, tmp)
		}
	})
	for _, r := range rad {
		parallel(h, func(y0, y1 int) { vpass(src, dst, w, h, ch, r, y0, y1) })
		src, dst = dst, src
	}
	return src
}

// parallel runs f over [0, n) in chunks, four per goroutine, with one
// goroutine per CPU (at most 4), each taking the next chunk as it finishes
// one: split evenly, one slow chunk (shapes crowded into some rows, or a
// CPU taken by other work) would leave the other CPUs idle.
func parallel(n int, f func(lo, hi int)) {
	k := workers()
	if k <= 1 || n < 8 {
		f(0, n)
		return
	}
	chunks := min(n, 4*k)
	var next atomic.Int32
	var wg sync.WaitGroup
	for range k {
		wg.Go(func() {
			for c := int(next.Add(1)) - 1; c < chunks; c = int(next.Add(1)) - 1 {
				f(n*c/chunks, n*(c+1)/chunks)
			}
		})
	}
	wg.Wait()
}

// workers is how many goroutines share out a rendering's work.
func workers() int { return min(runtime.GOMAXPROCS(0), 4) }

// hpass blurs one row of w pixels of ch channels from in to out.
func hpass(in, out []uint8, w, ch, rad int) {
	if ch == 3 {
		hpass3(in, out, w, rad)
		return
	}
	inv := (uint64(1) << 32) / uint64(2*rad+1)
	for c := 0; c < ch; c++ {
		first, last := uint64(in[c]), uint64(in[(w-1)*ch+c])
		sum := first * uint64(rad+1)
		for x := 1; x <= rad; x++ {
			sum += uint64(in[min(x, w-1)*ch+c])
		}
		for x := 0; x < w; x++ {
			out[x*ch+c] = uint8((sum*inv + 1<<31) >> 32)
			add, sub := last, first
			if i := x + rad + 1; i < w {
				add = uint64(in[i*ch+c])
			}
			if i := x - rad; i >= 0 {
				sub = uint64(in[i*ch+c])
			}
			sum += add - sub
		}
	}
}

// hpass3 is hpass for RGB rows: the three channels advance together, and
// the clamped indices are computed without branches.
func hpass3(in, out []uint8, w, rad int) {
	inv := (uint32(1) << 24) / uint32(2*rad+1) // sum·inv < 255·2^24 fits
	in, out = in[:w*3], out[:w*3]
	var sr, sg, sb uint32
	for x := -rad; x <= rad; x++ {
		i := min(max(x, 0), w-1) * 3
		sr, sg, sb = sr+uint32(in[i]), sg+uint32(in[i+1]), sb+uint32(in[i+2])
	}
	const half = 1 << 23
	for x := 0; x < w; x++ {
		o := out[x*3 : x*3+3 : x*3+3]
		o[0] = uint8((sr*inv + half) >> 24)
		o[1] = uint8((sg*inv + half) >> 24)
		o[2] = uint8((sb*inv + half) >> 24)
		a := min(x+rad+1, w-1) * 3
		d := max(x-rad, 0) * 3
		ain, din := in[a:a+3:a+3], in[d:d+3:d+3]
		sr += uint32(ain[0]) - uint32(din[0])
		sg += uint32(ain[1]) - uint32(din[1])
		sb += uint32(ain[2]) - uint32(din[2])
	}
}

// vpass blurs rows [y0, y1) of a w×h image of ch channels from in to out,
// carrying each column's sum down the rows.
func vpass(in, out []uint8, w, h, ch, rad, y0, y1 int) {
	inv := (uint32(1) << 24) / uint32(2*rad+1) // sum·inv < 255·2^24 fits
	stride := w * ch
	sums := make([]uint32, stride)
	row := func(y int) []uint8 {
		y = min(max(y, 0), h-1)
		return in[y*stride : (y+1)*stride]
	}
	for y := y0 - rad; y <= y0+rad; y++ {
		for i, v := range row(y) {
			sums[i] += uint32(v)
		}
	}
	for y := y0; y < y1; y++ {
		o := out[y*stride : (y+1)*stride]
		add, sub := row(y+rad+1), row(y-rad)
		s := sums[:len(o)]
		add, sub = add[:len(o)], sub[:len(o)]
		for i := range o {
			o[i] = uint8((s[i]*inv + 1<<23) >> 24)
			s[i] += uint32(add[i]) - uint32(sub[i])
		}
	}
}
