package ogimage

import (
	"bytes"
	"fmt"
	"hash/adler32"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/srwiley/rasterx"
	"golang.org/x/image/math/fixed"
)

func TestPNG(t *testing.T) {
	s := mustBuild(t, Options{Seed: "png", Quote: "Be yourself; everyone else is already taken.", Author: "Oscar Wilde"})
	b, err := s.PNG()
	if err != nil {
		t.Fatal(err)
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(b))
	if err != nil || format != "png" || cfg.Width != 1200 || cfg.Height != 630 {
		t.Fatalf("decodes as %s %dx%d (err %v), want png 1200x630", format, cfg.Width, cfg.Height, err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	near := func(x, y int, want rgb, tol int) bool {
		r, g, b, _ := img.At(x, y).RGBA()
		d := func(a uint32, b uint8) int { return abs(int(a>>8) - int(b)) }
		return d(r, want.r) <= tol && d(g, want.g) <= tol && d(b, want.b) <= tol
	}
	accent := hexRGB(s.BorderColor())
	for _, p := range []image.Point{{2, 2}, {600, 627}, {1197, 300}, {5, 400}} {
		if !near(p.X, p.Y, accent, 0) {
			t.Errorf("border pixel %v is %v, want %s", p, img.At(p.X, p.Y), s.BorderColor())
		}
	}
	// The avatar's centre is opaque; its corner is masked away.
	cx, cy := int(avatarRect.x+avatarRect.w/2), int(avatarRect.y+avatarRect.h/2)
	if !near(cx, cy, hexRGB(testAvatarSkin), 2) {
		t.Errorf("avatar centre is %v, want the avatar's %s", img.At(cx, cy), testAvatarSkin)
	}
	if near(int(avatarRect.x)+1, int(avatarRect.y)+1, hexRGB("#d8f2d4"), 40) {
		t.Error("avatar corner shows the avatar's background: the fading mask is missing")
	}
	// Text is drawn: the first line's box holds near-white pixels.
	l := s.Lines()[0]
	x0, y0, x1, y1 := l.Box()
	white := 0
	for y := int(y0); y < int(y1); y++ {
		for x := int(x0); x < int(x1); x++ {
			if near(x, y, whiteRGB, 10) {
				white++
			}
		}
	}
	if white < 100 {
		t.Errorf("only %d white pixels in the first line's box", white)
	}
}

// The PNG holds exactly the pixels Render draws, though it is encoded
// band by band while the rest is still being drawn: no band is encoded
// before all that lies over it is laid.
func TestPNGIsTheRendering(t *testing.T) {
	for i, opts := range []Options{
		{Seed: "bands-1", Quote: "Be yourself; everyone else is already taken.", Author: "Oscar Wilde"},
		{Seed: "bands-2", Quote: "A quote long enough to fill the panel with several lines of text, reaching down towards its lower edge and the bands below it."},
		{Seed: "bands-3", Quote: "Short.", Author: "Someone"},
	} {
		s := mustBuild(t, opts)
		want, err := s.Render()
		if err != nil {
			t.Fatal(err)
		}
		b, err := s.PNG()
		if err != nil {
			t.Fatal(err)
		}
		dec, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		got := image.NewRGBA(dec.Bounds())
		draw.Draw(got, got.Rect, dec, image.Point{}, draw.Src)
		if !bytes.Equal(got.Pix, want.Pix) {
			t.Errorf("image %d: the PNG's pixels differ from the rendering's", i)
		}
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func TestPNGBadAvatar(t *testing.T) {
	s, err := Build(Options{Seed: "x", Quote: "q"}, func(string, int) []byte { return []byte("<svg") })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.PNG(); err == nil {
		t.Error("a broken avatar SVG rendered without error")
	}
}

// The blur of a region equals the blur of the whole image cut to that
// region: the margin boxBlur reads covers the three passes.
func TestBoxBlurRegionMatchesWhole(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	img := image.NewRGBA(image.Rect(0, 0, 300, 200))
	for i := range img.Pix {
		img.Pix[i] = uint8(r.IntN(256))
	}
	const rad = 5
	region := image.Rect(40, 30, 260, 170)
	all0, e := boxBlur(img, region, rad)

	w, h := 300, 200
	all := make([]uint8, w*h*3)
	for i := 0; i < w*h; i++ {
		copy(all[i*3:i*3+3], img.Pix[i*4:i*4+3])
	}
	all = blurPlanes(all, make([]uint8, len(all)), w, h, 3, [3]int{rad, rad, rad})
	for y := region.Min.Y; y < region.Max.Y; y++ {
		for x := region.Min.X; x < region.Max.X; x++ {
			for c := 0; c < 3; c++ {
				g := all0[((y-e.Min.Y)*e.Dx()+(x-e.Min.X))*3+c]
				if want := all[(y*w+x)*3+c]; g != want {
					t.Fatalf("(%d,%d) channel %d: region blur %d, whole-image blur %d", x, y, c, g, want)
				}
			}
		}
	}
}

// The glass blur, made at a quarter of full size, stays within a few levels of three
// full-size passes of glassRadius over the panel: on rendered scenes (the
// pixels the glass really blurs) and on noise, the hardest case for a
// small image.
func TestGlassBlurMatchesFullSize(t *testing.T) {
	p := panelRect
	pr := image.Rect(int(p.x), int(p.y), int(p.right()), int(p.bottom()))
	noise := newCanvas()
	rnd := rand.New(rand.NewPCG(7, 8))
	for i := range noise.Pix {
		noise.Pix[i] = uint8(rnd.IntN(256))
	}
	images := map[string]*image.RGBA{"noise": noise}
	for _, seed := range []string{"a", "glass", "benchmark", "z9"} {
		img, err := mustBuild(t, Options{Seed: seed, Quote: "Glass"}).Render()
		if err != nil {
			t.Fatal(err)
		}
		images[seed] = img
	}
	for name, img := range images {
		want, e := boxBlur(img, pr, glassRadius)
		small := glassBlur(img, pr, nil, &blurBuffers{})
		got := make([]uint8, pr.Dx()*pr.Dy()*4)
		tmp := make([]uint16, small.w*3)
		for y := pr.Min.Y; y < pr.Max.Y; y++ {
			small.row(small.pix, y, got[(y-pr.Min.Y)*pr.Dx()*4:], tmp, pr.Min.X, pr.Max.X)
		}
		worst, sum := 0, 0
		for y := pr.Min.Y; y < pr.Max.Y; y++ {
			for x := pr.Min.X; x < pr.Max.X; x++ {
				for c := 0; c < 3; c++ {
					d := abs(int(got[((y-pr.Min.Y)*pr.Dx()+x-pr.Min.X)*4+c]) - int(want[((y-e.Min.Y)*e.Dx()+x-e.Min.X)*3+c]))
					worst, sum = max(worst, d), sum+d
				}
			}
		}
		mean := float64(sum) / float64(pr.Dx()*pr.Dy()*3)
		t.Logf("%s: largest difference %d, mean %.3f levels", name, worst, mean)
		if worst > glassTolerance || mean > glassMeanTolerance {
			t.Errorf("%s: the small glass differs from the full-size blur by up to %d levels (mean %.3f); allowed %d (mean %.2f)",
				name, worst, mean, glassTolerance, glassMeanTolerance)
		}
	}
}

// One box pass against a plain average; a flat image stays flat.
func TestBoxBlurPass(t *testing.T) {
	in := []uint8{0, 10, 20, 30, 40, 250, 60}
	out := make([]uint8, len(in))
	hpass(in, out, len(in), 1, 1)
	want := []uint8{3, 10, 20, 30, 107, 117, 123} // edges clamped: (0+0+10)/3, …, (250+60+60)/3
	for i := range want {
		if out[i] != want[i] {
			t.Fatalf("hpass = %v, want %v", out, want)
		}
	}
	flat := bytes.Repeat([]uint8{77}, 50*40)
	if got := blurPlanes(bytes.Clone(flat), make([]uint8, len(flat)), 50, 40, 1, [3]int{6, 6, 6}); !bytes.Equal(got, flat) {
		t.Error("blurring a flat image changed it")
	}
}

// One pixel short of opaque, anywhere, makes the PNG RGBA.
func TestEncodePNGOnePixelClear(t *testing.T) {
	for _, y := range []int{0, 300, Height - 1} {
		for _, x := range []int{0, 501, Width - 1} {
			img := newCanvas()
			for i := range img.Pix {
				img.Pix[i] = 0xff
			}
			img.Pix[img.PixOffset(x, y)+3] = 0xfe
			dec, err := png.Decode(bytes.NewReader(encodePNG(img).Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := dec.(*image.NRGBA); !ok {
				t.Errorf("a clear pixel at (%d, %d): decoded as %T, want *image.NRGBA", x, y, dec)
			}
		}
	}
}

// encodePNG round-trips through image/png: opaque images as RGB, others as
// RGBA with straight alpha.
func TestEncodePNG(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, opaque := range []bool{true, false} {
		img := image.NewRGBA(image.Rect(0, 0, 123, 77))
		for i := 0; i < len(img.Pix); i += 4 {
			a := uint8(255)
			if !opaque {
				a = uint8(r.IntN(256))
			}
			for c := 0; c < 3; c++ {
				img.Pix[i+c] = uint8(r.IntN(int(a) + 1)) // premultiplied: c <= a
			}
			img.Pix[i+3] = a
		}
		dec, err := png.Decode(bytes.NewReader(encodePNG(img).Bytes()))
		if err != nil {
			t.Fatalf("opaque=%v: %v", opaque, err)
		}
		if _, isRGBA := dec.(*image.RGBA); opaque != isRGBA {
			t.Errorf("opaque=%v decoded as %T", opaque, dec)
		}
		for y := 0; y < 77; y++ {
			for x := 0; x < 123; x++ {
				wr, wg, wb, wa := img.At(x, y).RGBA()
				gr, gg, gb, ga := dec.At(x, y).RGBA()
				// Straight alpha in 8 bits cannot hold every premultiplied value.
				tol := uint32(0)
				if !opaque {
					tol = 0x101
				}
				if diff(wr, gr) > tol || diff(wg, gg) > tol || diff(wb, gb) > tol || wa != ga {
					t.Fatalf("opaque=%v pixel (%d,%d): got %v, want %v", opaque, x, y, dec.At(x, y), img.At(x, y))
				}
			}
		}
	}
}

func diff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}

// adler32Update agrees with hash/adler32 on every length up to a few
// reductions' worth, from any running sum, on random bytes and on the
// largest byte throughout (the sums' worst case).
func TestAdler32Update(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	data := make([]byte, 3*5552+17)
	for i := range data {
		data[i] = uint8(r.IntN(256))
	}
	ff := bytes.Repeat([]byte{0xff}, len(data))
	for _, buf := range [][]byte{data, ff} {
		for n := 0; n <= len(buf); n += 1 + n/64 {
			for _, cut := range []int{0, n / 3} {
				want := adler32.Checksum(buf[:n])
				if got := adler32Update(adler32Update(1, buf[:cut]), buf[cut:n]); got != want {
					t.Fatalf("%d bytes (cut at %d): %08x, want %08x", n, cut, got, want)
				}
			}
		}
	}
}

func TestAdler32Combine(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	data := make([]byte, 300000)
	for i := range data {
		data[i] = uint8(r.IntN(256))
	}
	for _, cut := range []int{0, 1, 65520, 65521, 65522, 150000, len(data)} {
		a, b := data[:cut], data[cut:]
		got := adler32Combine(adler32.Checksum(a), adler32.Checksum(b), int64(len(b)))
		if want := adler32.Checksum(data); got != want {
			t.Errorf("cut at %d: combined %08x, want %08x", cut, got, want)
		}
	}
}

// Renderings share fonts and pooled buffers; concurrent ones must not mix.
func TestConcurrentPNG(t *testing.T) {
	a := mustBuild(t, Options{Seed: "one", Quote: "First quote", Author: "A"})
	b := mustBuild(t, Options{Seed: "two", Quote: "Second, different quote", Author: "B"})
	wantA, err := a.PNG()
	if err != nil {
		t.Fatal(err)
	}
	wantB, _ := b.PNG()
	errs := make(chan string, 8)
	for i := range 8 {
		go func() {
			s, want := a, wantA
			if i%2 == 1 {
				s, want = b, wantB
			}
			got, err := s.PNG()
			if err != nil || !bytes.Equal(got, want) {
				errs <- fmt.Sprintf("goroutine %d: PNG differs from a lone rendering (err %v)", i, err)
				return
			}
			errs <- ""
		}()
	}
	for range 8 {
		if e := <-errs; e != "" {
			t.Error(e)
		}
	}
}

// The glass panel as drawn (small blur, tint and sheen before scaling
// up) stays within a few levels of the glass written out at full size: three
// box passes of glassRadius, then the glass, the tint and the sheen blended
// in turn, as the SVG layers them.
func TestGlassMatchesFullSize(t *testing.T) {
	p := panelRect
	pr := image.Rect(int(p.x), int(p.y), int(p.right()), int(p.bottom()))
	for _, seed := range []string{"a", "glass", "benchmark", "z9"} {
		s := mustBuild(t, Options{Seed: seed, Quote: "Glass"})
		full := newCanvas()
		s.paintBackground(full, nil)
		want := fullSizeGlass(full, pr)
		// As draw paints it: underRect at a quarter size, on a canvas whose
		// pixels there are left from an earlier image (noise here).
		img, under := noiseCanvas(9), newUnder()
		s.paintBackground(img, under)
		buf := &blurBuffers{}
		composeGlass(img, pr, glassBlur(img, pr, under, buf), buf)
		worst, sum, n := 0, 0, 0
		for y := pr.Min.Y; y < pr.Max.Y; y++ {
			for x := pr.Min.X; x < pr.Max.X; x++ {
				for c := range 3 {
					i := img.PixOffset(x, y) + c
					d := abs(int(img.Pix[i]) - int(want.Pix[i]))
					worst, sum, n = max(worst, d), sum+d, n+1
				}
			}
		}
		mean := float64(sum) / float64(n)
		t.Logf("%s: largest difference %d, mean %.3f levels", seed, worst, mean)
		if worst > glassTolerance || mean > glassMeanTolerance {
			t.Errorf("%s: the glass differs from the full-size one by up to %d levels (mean %.3f); allowed %d (mean %.2f)",
				seed, worst, mean, glassTolerance, glassMeanTolerance)
		}
	}
}

// Painted around underRect, the background is what it is painted whole
// everywhere else, to within a level (a shape clipped to a narrower
// rectangle is rasterised in fixed point rather than floating point, which
// may round an edge pixel's coverage the other way); and the small canvas
// under the glass is close to the average of the blocks it stands for.
func TestBackgroundAroundUnder(t *testing.T) {
	for _, seed := range []string{"a", "glass", "benchmark", "z9"} {
		s := mustBuild(t, Options{Seed: seed, Quote: "Glass"})
		full := newCanvas()
		s.paintBackground(full, nil)
		img, under := noiseCanvas(10), newUnder()
		s.paintBackground(img, under)
		differ := 0
		for y := range Height {
			for x := range Width {
				if image.Pt(x, y).In(underRect) {
					continue
				}
				i := img.PixOffset(x, y)
				for c := range 4 {
					switch abs(int(img.Pix[i+c]) - int(full.Pix[i+c])) {
					case 0:
					case 1:
						differ++
					default:
						t.Fatalf("%s: pixel (%d, %d) is %v painted around underRect, %v painted whole", seed, x, y, img.Pix[i:i+4], full.Pix[i:i+4])
					}
				}
			}
		}
		t.Logf("%s: %d bytes around underRect one level from the whole painting", seed, differ)
		worst, sum, n := 0, 0, 0
		const z = underZoom
		for y := range under.Rect.Dy() {
			for x := range under.Rect.Dx() {
				for c := range 3 {
					avg := 0
					for k := range z * z {
						avg += int(full.Pix[full.PixOffset(underRect.Min.X+z*x+k%z, underRect.Min.Y+z*y+k/z)+c])
					}
					d := abs(int(under.Pix[under.PixOffset(x, y)+c]) - (avg+z*z/2)/(z*z))
					worst, sum, n = max(worst, d), sum+d, n+1
				}
			}
		}
		t.Logf("%s: the small canvas differs from the blocks' averages by up to %d levels, %.3f on average", seed, worst, float64(sum)/float64(n))
		if float64(sum)/float64(n) > 1 {
			t.Errorf("%s: the small canvas is %.3f levels from the blocks' averages on average", seed, float64(sum)/float64(n))
		}
	}
}

// noiseCanvas is a canvas of random bytes.
func noiseCanvas(seed uint64) *image.RGBA {
	img := newCanvas()
	rnd := rand.New(rand.NewPCG(seed, seed))
	for i := range img.Pix {
		img.Pix[i] = uint8(rnd.IntN(256))
	}
	return img
}

// The glow and the shadow, laid from their maps made once, match blending
// their opacities worked out per pixel to within one level.
func TestAlphaMapsMatchDirect(t *testing.T) {
	rnd := rand.New(rand.NewPCG(11, 12))
	base := newCanvas()
	for i := range base.Pix {
		base.Pix[i] = uint8(rnd.IntN(256))
	}
	cx, cy := avatarRect.x+avatarRect.w/2, avatarRect.y+avatarRect.h/2
	direct := func(x, y int) float64 {
		d := math.Hypot(float64(x)+0.5-cx, float64(y)+0.5-cy) / glowRadius
		return glowAlpha * max(1-d, 0)
	}
	got, want := newCanvas(), newCanvas()
	copy(got.Pix, base.Pix)
	copy(want.Pix, base.Pix)
	glow().lay(got, got.Bounds(), paletteRGB[1])
	for y := range Height {
		for x := range Width {
			if a := direct(x, y); a > 0 {
				blend(want.Pix, want.PixOffset(x, y), paletteRGB[1], a)
			}
		}
	}
	for i := range got.Pix {
		if d := abs(int(got.Pix[i]) - int(want.Pix[i])); d > 1 {
			t.Fatalf("glow: byte %d is %d from its map, %d worked out directly", i, got.Pix[i], want.Pix[i])
		}
	}
	runs := 0
	for _, row := range shadow().rows {
		for _, r := range row {
			if slices.Contains(r.a, 0) {
				t.Fatalf("the shadow's run at x=%d holds a zero", r.x)
			}
			runs++
		}
	}
	if runs == 0 {
		t.Fatal("the shadow's map is empty")
	}
}

// The panel's edge, laid from its coverage kept once, is byte for byte what
// stroking the outline afresh draws, on any background.
func TestPanelEdgeMatchesStroke(t *testing.T) {
	rnd := rand.New(rand.NewPCG(13, 14))
	got, want := newCanvas(), newCanvas()
	for i := range got.Pix {
		got.Pix[i] = uint8(rnd.IntN(256))
	}
	copy(want.Pix, got.Pix)
	c := nrgba(whiteRGB, edgeAlpha)
	panelEdge().lay(got, got.Bounds(), c)

	p := panelRect
	sc := newScanner(want)
	ds := rasterx.NewDasher(Width, Height, sc)
	ds.SetStroke(fixed.Int26_6(edgeWidth*64), 4<<6, rasterx.RoundCap, rasterx.RoundCap, rasterx.RoundGap, rasterx.Round, nil, 0)
	rasterx.AddRoundRect(p.x, p.y, p.right(), p.bottom(), panelRadius, panelRadius, 0, rasterx.RoundGap, ds)
	ds.SetColor(c)
	ds.Draw()
	for i := range got.Pix {
		if got.Pix[i] != want.Pix[i] {
			t.Fatalf("byte %d (pixel %d, %d) is %d laid from the kept coverage, %d stroked", i, i/4%Width, i/4/Width, got.Pix[i], want.Pix[i])
		}
	}
	if n := len(panelEdge().runs); n < 2*int(p.h) {
		t.Fatalf("the edge's coverage has %d runs, fewer than two a row of the panel", n)
	}
}

// subBytes64 is eight byte subtractions, modulo 256, for every pair of bytes.
func TestSubBytes64(t *testing.T) {
	for a := range 256 {
		for b := range 256 {
			x := uint64(a) | uint64(b)<<8 | uint64(255-a)<<16 | uint64(a^b)<<24 | uint64(b)<<32 | uint64(a)<<40 | uint64(0xff)<<48 | uint64(a*b&0xff)<<56
			y := uint64(b) | uint64(a)<<8 | uint64(b^0x5a)<<16 | uint64(255-b)<<24 | uint64(a)<<32 | uint64(0xff)<<40 | uint64(b)<<48 | uint64((a+b)&0xff)<<56
			got := subBytes64(x, y)
			for k := range 8 {
				if want := uint8(x>>(8*k)) - uint8(y>>(8*k)); uint8(got>>(8*k)) != want {
					t.Fatalf("subBytes64(%#x, %#x) byte %d = %#x, want %#x", x, y, k, uint8(got>>(8*k)), want)
				}
			}
		}
	}
}

// upRGB is Up filtering of RGB rows, and tells an opaque row, for every
// width from one pixel up (the pairs, and the one or two pixels after
// them).
func TestUpRGB(t *testing.T) {
	rnd := rand.New(rand.NewPCG(19, 20))
	for w := 1; w <= 21; w++ {
		img := image.NewRGBA(image.Rect(5, 3, 5+w, 5))
		for i := range img.Pix {
			img.Pix[i] = uint8(rnd.IntN(256))
		}
		got := bytes.Repeat([]byte{0xee}, 1+3*w+8)
		if upRGB(got, img, 4) {
			t.Errorf("width %d: a row of random alphas reported opaque", w)
		}
		opaque := bytes.Clone(got)
		for x := 5; x < 5+w; x++ {
			img.Pix[img.PixOffset(x, 4)+3] = 0xff
		}
		if !upRGB(opaque, img, 4) {
			t.Errorf("width %d: an opaque row reported clear", w)
		}
		want := []byte{2}
		for x := 5; x < 5+w; x++ {
			c, p := img.RGBAAt(x, 4), img.RGBAAt(x, 3)
			want = append(want, c.R-p.R, c.G-p.G, c.B-p.B)
		}
		if !bytes.Equal(got[:len(want)], want) {
			t.Fatalf("width %d: %v, want %v", w, got[:len(want)], want)
		}
	}
}

// over is draw.Draw's Over, byte for byte, for clear, opaque and partly
// covering pixels alike.
func TestOverMatchesDraw(t *testing.T) {
	rnd := rand.New(rand.NewPCG(15, 16))
	src := image.NewRGBA(image.Rect(0, 0, 40, 30))
	for i := 0; i < len(src.Pix); i += 4 {
		a := [...]uint8{0, 0xff, uint8(rnd.IntN(256))}[rnd.IntN(3)]
		for k := range 3 {
			src.Pix[i+k] = uint8(rnd.IntN(int(a) + 1)) // premultiplied: never above alpha
		}
		src.Pix[i+3] = a
	}
	got, want := newCanvas(), newCanvas()
	for i := range got.Pix {
		got.Pix[i] = uint8(rnd.IntN(256))
	}
	copy(want.Pix, got.Pix)
	at := image.Pt(13, 7)
	over(got, at, src, got.Bounds())
	draw.Draw(want, src.Bounds().Add(at), src, image.Point{}, draw.Over)
	if !bytes.Equal(got.Pix, want.Pix) {
		t.Fatal("over differs from draw.Draw with draw.Over")
	}
}

// overTable.blend is vector's Over arithmetic for a uniform colour, per
// pixel, byte for byte: over rows of coverage with long uncovered runs (the
// eight-at-a-time skip), full coverage (its own table) and partial
// coverage, of lengths that are not multiples of eight, in opaque and
// translucent colours, on opaque and clear destinations.
func TestOverTableBlend(t *testing.T) {
	rnd := rand.New(rand.NewPCG(17, 18))
	var tab overTable // one table, set again and again, as a scanner's is
	for _, c := range []color.NRGBA{{200, 30, 90, 255}, {40, 220, 180, 77}, {200, 30, 90, 255}, {0, 0, 0, 1}} {
		if !tab.set(c) {
			t.Fatalf("%v tabled as clear", c)
		}
		var src [4]uint32
		src[0], src[1], src[2], src[3] = c.RGBA()
		for n := range 70 {
			mrow := make([]uint8, n)
			for i := range mrow {
				switch rnd.IntN(4) {
				case 0:
					mrow[i] = 255
				case 1:
					mrow[i] = uint8(rnd.IntN(256))
				}
			}
			got := image.NewRGBA(image.Rect(0, 0, n+3, 2))
			for i := range got.Pix {
				got.Pix[i] = uint8(rnd.IntN(256))
			}
			want := image.NewRGBA(got.Rect)
			copy(want.Pix, got.Pix)
			tab.blend(got, 2, 1, mrow)
			for i, m := range mrow {
				ma := uint32(m) * 0x101
				keep := (0xffff - src[3]*ma/0xffff) * 0x101
				for k := range 4 {
					d := &want.Pix[want.PixOffset(2+i, 1)+k]
					*d = uint8((uint32(*d)*keep + src[k]*ma) / 0xffff >> 8)
				}
			}
			if i := firstDiff(got.Pix, want.Pix); i >= 0 {
				t.Fatalf("%v over %d pixels: byte %d is %d, want %d", c, n, i, got.Pix[i], want.Pix[i])
			}
		}
	}
	if tab.set(color.NRGBA{1, 2, 3, 0}) {
		t.Error("a clear colour was tabled")
	}
}

func firstDiff(a, b []uint8) int {
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}

// blend16 is blend at opacity a/0xffff, to the byte, for every destination
// and colour value and opacities across the whole range.
func TestBlend16(t *testing.T) {
	for c := range 256 {
		col := rgb{uint8(c), uint8(255 - c), uint8(c / 2)}
		for p := range 256 {
			for a := 0; a <= 0xffff; a += 331 {
				for _, a := range []int{a, 0xffff - a} {
					got, want := []uint8{uint8(p), uint8(p), uint8(p), 9}, []uint8{uint8(p), uint8(p), uint8(p), 9}
					blend16(got[:3], col, uint16(a))
					blend(want, 0, col, float64(a)/0xffff)
					if !bytes.Equal(got, want) {
						t.Fatalf("p=%d c=%v a=%d: %v, want %v", p, col, a, got, want)
					}
				}
			}
		}
	}
}

// A PNGFile writes out the same bytes PNG returns, Len of them, and its
// pooled memory, once released, serves the next image without a trace of
// the last.
func TestPNGFileWriteTo(t *testing.T) {
	a := mustBuild(t, Options{Seed: "file-a", Quote: "Simplicity is the soul of efficiency.", Author: "Austin Freeman"})
	b := mustBuild(t, Options{Seed: "file-b", Quote: "Well begun is half done.", Author: "Aristotle"})
	want, err := a.PNG()
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		other, err := b.EncodePNG()
		if err != nil {
			t.Fatal(err)
		}
		other.Release()
		f, err := a.EncodePNG()
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		n, err := f.WriteTo(&got)
		if err != nil || n != int64(len(want)) || f.Len() != len(want) {
			t.Fatalf("WriteTo wrote %d bytes (%v), Len %d, want %d", n, err, f.Len(), len(want))
		}
		f.Release()
		if !bytes.Equal(got.Bytes(), want) {
			t.Fatal("WriteTo wrote other bytes than PNG returned")
		}
	}
}

// A map laid over a band narrower than itself changes that band only.
func TestAlphaMapLaysItsBand(t *testing.T) {
	band := image.Rect(Width/2, 0, Width/2+7, Height)
	got := newCanvas()
	shadow().lay(got, band, rgb{9, 9, 9})
	for y := range Height {
		for x := range Width {
			if got.RGBAAt(x, y) != (color.RGBA{}) && !image.Pt(x, y).In(band) {
				t.Fatalf("pixel (%d, %d) outside the band changed", x, y)
			}
		}
	}
	if bytes.Equal(got.Pix, newCanvas().Pix) {
		t.Fatal("nothing changed in the band")
	}
}

// The avatar's fade, kept in fixed point, rounds every byte of every pixel
// as the float32 opacity it stands for did in float64.
func TestAvatarFadeMatchesFloat(t *testing.T) {
	n := int(avatarRect.w)
	c := float64(n) / 2
	masks := avatarFade()
	for y := range n {
		for x := range n {
			dx, dy := float64(x)+0.5-c, float64(y)+0.5-c
			m := float32(min(max((1-math.Sqrt(dx*dx+dy*dy)/c)/(1-fadeFrom), 0), 1))
			for v := range 256 {
				want := uint8(float64(v)*float64(m) + 0.5)
				if got := fade(uint8(v), masks[y*n+x]); got != want {
					t.Fatalf("pixel (%d, %d), m %v: byte %d faded to %d, want %d", x, y, m, v, got, want)
				}
			}
		}
	}
}

// A long line drawn in a box of up to 512 rows, where vector steps its x in
// fixed point from row to row, covers the same pixels as in a taller box,
// where vector works in floating point: cut every pieceRows rows, it drifts
// by at most a 512th of a pixel a row within a piece, half a level of
// coverage (and one more for rounding), where uncut it drifted by up to
// 192 levels.
func TestLongLinesDoNotDrift(t *testing.T) {
	line := func(clip image.Rectangle) *image.RGBA {
		img := newCanvas()
		fillRGB(img, img.Bounds(), rgb{})
		sc := newScanner(img)
		sc.clip = clip
		fl := rasterx.NewFiller(Width, Height, sc)
		fl.Start(fix(10, 2))
		fl.Line(fix(11.5, 2))
		fl.Line(fix(421.5, 627))
		fl.Line(fix(420, 627))
		fl.Stop(true)
		fl.SetColor(color.NRGBA{255, 255, 255, 255})
		fl.Draw()
		return img
	}
	tall := line(image.Rectangle{})               // 625 rows: floating point
	short := line(image.Rect(0, 100, Width, 600)) // 500 rows: fixed point
	worst := 0
	for y := 100; y < 600; y++ {
		for x := range Width {
			i := tall.PixOffset(x, y)
			worst = max(worst, abs(int(tall.Pix[i])-int(short.Pix[i])))
		}
	}
	t.Logf("largest difference %d levels", worst)
	if allowed := pieceRows/2 + 1; worst > allowed {
		t.Errorf("a long line drawn in fixed point is up to %d levels from the same line in floating point; allowed %d", worst, allowed)
	}
}

// composeGlass lays the whole glass over the panel, as draw does band by
// band.
func composeGlass(img *image.RGBA, pr image.Rectangle, glass smallGlass, buf *blurBuffers) {
	tinted := grow(&buf.tinted, len(glass.pix))
	tintSmall(glass, tinted)
	tmp := make([]uint16, glass.w*3)
	for y := pr.Min.Y; y < pr.Max.Y; y++ {
		glassRow(img, pr, y, tinted, tmp, glass)
	}
}
