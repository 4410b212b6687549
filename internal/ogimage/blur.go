package ogimage

import (
	"image"
	"runtime"
	"sync"
)

// Blur radii of the three box-blur passes. Three passes of a box of width
// 2r+1 approximate a Gaussian of variance r(r+1), which is the
// stdDeviation the SVG asks of feGaussianBlur.
const shadowRadius = 15

// boxBlur blurs the pixels of img under r (RGB, 3 bytes a pixel, row after
// row) by three box passes of radius rad in each direction. It reads a
// margin of 3·rad around r (clamped to the image), so the result is what
// blurring the whole image would give there. It returns the blurred margin
// and region e together, with e's bounds; buf provides the memory.
func boxBlur(img *image.RGBA, r image.Rectangle, rad int, buf *blurBuffers) ([]uint8, image.Rectangle) {
	m := 3 * rad
	e := image.Rect(r.Min.X-m, r.Min.Y-m, r.Max.X+m, r.Max.Y+m).Intersect(img.Bounds())
	w, h := e.Dx(), e.Dy()
	src := grow(&buf.a, w*h*3)
	for y := 0; y < h; y++ {
		row := img.Pix[img.PixOffset(e.Min.X, e.Min.Y+y):][:w*4]
		out := src[y*w*3 : (y+1)*w*3]
		for x := 0; x < w; x++ {
			out[x*3], out[x*3+1], out[x*3+2] = row[x*4], row[x*4+1], row[x*4+2]
		}
	}
	return blurPlanes(src, grow(&buf.b, len(src)), w, h, 3, rad), e
}

// blurBuffers is the memory of one blur, reused from rendering to rendering.
type blurBuffers struct{ a, b []uint8 }

func grow(b *[]uint8, n int) []uint8 {
	if cap(*b) < n {
		*b = make([]uint8, n)
	}
	*b = (*b)[:n]
	return *b
}

// blurPlanes blurs src, a w×h image of ch interleaved channels, with three
// horizontal then three vertical box passes of radius rad, edges clamped,
// and returns the result in dst; src is overwritten. Each row takes its
// three horizontal passes while it sits in cache, then column strips take
// their three vertical ones. Rows and strips are shared out between
// goroutines.
func blurPlanes(src, dst []uint8, w, h, ch, rad int) []uint8 {
	stride := w * ch
	parallel(h, func(y0, y1 int) {
		tmp := make([]uint8, stride)
		for y := y0; y < y1; y++ {
			row := src[y*stride : (y+1)*stride]
			hpass(row, tmp, w, ch, rad)
			hpass(tmp, row, w, ch, rad)
			hpass(row, tmp, w, ch, rad)
			copy(row, tmp)
		}
	})
	const strip = 32 // columns per strip
	strips := (w + strip - 1) / strip
	parallel(strips, func(s0, s1 int) {
		for s := s0; s < s1; s++ {
			x0, x1 := s*strip, min((s+1)*strip, w)
			vpass(src, dst, w, h, ch, rad, x0, x1)
			vpass(dst, src, w, h, ch, rad, x0, x1)
			vpass(src, dst, w, h, ch, rad, x0, x1)
		}
	})
	return dst
}

// parallel runs f over [0, n) split into one chunk per CPU (at most 4).
func parallel(n int, f func(lo, hi int)) {
	k := min(runtime.GOMAXPROCS(0), 4)
	if k <= 1 || n < 8 {
		f(0, n)
		return
	}
	var wg sync.WaitGroup
	for i := 0; i < k; i++ {
		lo, hi := n*i/k, n*(i+1)/k
		wg.Go(func() { f(lo, hi) })
	}
	wg.Wait()
}

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

// vpass blurs columns [x0, x1) of a w×h image of ch channels from in to out,
// walking rows so that memory is read in order.
func vpass(in, out []uint8, w, h, ch, rad, x0, x1 int) {
	inv := (uint32(1) << 24) / uint32(2*rad+1) // sum·inv < 255·2^24 fits
	lo, hi := x0*ch, x1*ch
	stride := w * ch
	sums := make([]uint32, hi-lo)
	row := func(y int) []uint8 {
		y = min(max(y, 0), h-1)
		return in[y*stride+lo : y*stride+hi]
	}
	for y := -rad; y <= rad; y++ {
		for i, v := range row(y) {
			sums[i] += uint32(v)
		}
	}
	for y := 0; y < h; y++ {
		o := out[y*stride+lo : y*stride+hi]
		add, sub := row(y+rad+1), row(y-rad)
		s := sums[:len(o)]
		add, sub = add[:len(o)], sub[:len(o)]
		for i := range o {
			o[i] = uint8((s[i]*inv + 1<<23) >> 24)
			s[i] += uint32(add[i]) - uint32(sub[i])
		}
	}
}
