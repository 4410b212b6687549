package ogimage

import (
	"image"
	"io"
	"slices"
	"strconv"
	"testing"
	"time"
)

var benchOpts = Options{
	Seed:   "benchmark",
	Quote:  "The only way to do great work is to love what you do. If you haven't found it yet, keep looking. Don't settle.",
	Author: "Steve Jobs",
}

// BenchmarkSVG measures a whole SVG answer: layout plus writing.
func BenchmarkSVG(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		s, err := Build(benchOpts, testAvatar)
		if err != nil {
			b.Fatal(err)
		}
		_ = s.SVG()
	}
}

// BenchmarkPNG measures a whole PNG answer (layout, rasterising with the real
// glass blur, encoding, writing it out) for a new seed each time, as
// /api/og-image draws them (3 to 8 pattern layers), and reports the median and 99th percentile
// of the wall time, and the CPU time per image over all threads (steadier
// than wall time on a busy machine).
func BenchmarkPNG(b *testing.B) {
	b.ReportAllocs()
	var d []time.Duration
	cpu0 := processCPU()
	opts := benchOpts
	for i := 0; b.Loop(); i++ {
		t0 := time.Now()
		opts.Seed = "benchmark-" + strconv.Itoa(i)
		s, err := Build(opts, testAvatar)
		if err != nil {
			b.Fatal(err)
		}
		f, err := s.EncodePNG()
		if err != nil {
			b.Fatal(err)
		}
		f.WriteTo(io.Discard) //nolint:errcheck // io.Discard does not fail
		f.Release()
		d = append(d, time.Since(t0))
	}
	b.ReportMetric(float64((processCPU()-cpu0).Microseconds())/1000/float64(len(d)), "cpu-ms/op")
	reportPercentiles(b, d)
}

// BenchmarkRender is BenchmarkPNG without the PNG encoding.
func BenchmarkRender(b *testing.B) {
	b.ReportAllocs()
	s, err := Build(benchOpts, testAvatar)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := s.Render(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGlassBlur is the panel's blur alone.
func BenchmarkGlassBlur(b *testing.B) {
	img := image.NewRGBA(image.Rect(0, 0, Width, Height))
	p := panelRect
	r := image.Rect(int(p.x), int(p.y), int(p.right()), int(p.bottom()))
	var buf blurBuffers
	b.ReportAllocs()
	for b.Loop() {
		glassBlur(img, r, nil, &buf)
	}
}

func reportPercentiles(b *testing.B, d []time.Duration) {
	if len(d) == 0 {
		return
	}
	slices.Sort(d)
	b.ReportMetric(float64(d[len(d)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(d[len(d)*99/100].Microseconds())/1000, "p99-ms")
}

// BenchmarkEncodePNG is the PNG encoding of one drawn image alone.
func BenchmarkEncodePNG(b *testing.B) {
	s, err := Build(benchOpts, testAvatar)
	if err != nil {
		b.Fatal(err)
	}
	img, err := s.Render()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(img.Pix)))
	b.ReportAllocs()
	for b.Loop() {
		encodePNG(img).Release()
	}
}
