package avatar

import (
	"bytes"
	"fmt"
	"image"
	"image/png"

	"github.com/srwiley/oksvg"
	"github.com/srwiley/rasterx"
)

// RenderImage rasterises seed's avatar at size pixels (clamped like
// Render). It draws the very SVG that Render returns, so the PNG and the
// SVG cannot disagree.
func RenderImage(seed string, size int) (*image.RGBA, error) {
	size = clampSize(size)
	f := pickFace(seed)
	return rasterize(f.appendSVG(make([]byte, 0, TypicalLen), size), size)
}

// RenderPNG returns seed's avatar as PNG bytes at size pixels.
func RenderPNG(seed string, size int) ([]byte, error) {
	img, err := RenderImage(seed, size)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("avatar png: %w", err)
	}
	return buf.Bytes(), nil
}

// rasterize draws an SVG document onto a new size x size image. Unknown
// elements are errors, so a part outside oksvg's subset fails the tests.
func rasterize(svg []byte, size int) (*image.RGBA, error) {
	icon, err := oksvg.ReadIconStream(bytes.NewReader(svg), oksvg.StrictErrorMode)
	if err != nil {
		return nil, fmt.Errorf("avatar raster: %w", err)
	}
	icon.SetTarget(0, 0, float64(size), float64(size))
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	scanner := rasterx.NewScannerGV(size, size, img, img.Bounds())
	icon.Draw(rasterx.NewDasher(size, size, scanner), 1)
	return img, nil
}
