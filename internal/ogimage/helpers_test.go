package ogimage

import (
	"encoding/xml"
	"errors"
	"fmt"
	"image"
	"io"
	"strings"
	"testing"
)

// testAvatar is a small face drawn with the SVG subset the avatar engine
// uses: a background square, circles and paths. Its centre is skin colour.
func testAvatar(seed string, size int) []byte {
	return fmt.Appendf(nil, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 100 100">`+
		`<rect width="100" height="100" fill="#d8f2d4"/>`+
		`<circle cx="50" cy="50" r="30" fill="#e0ac69"/>`+
		`<circle cx="40" cy="44" r="4" fill="#222222"/><circle cx="60" cy="44" r="4" fill="#222222"/>`+
		`<path d="M38 62 Q50 72 62 62" stroke="#222222" stroke-width="3" fill="none"/>`+
		`<path d="M20 42 Q50 -2 80 42 Q70 22 50 22 Q30 22 20 42Z" fill="#5a3825"/></svg>`, size, size)
}

const testAvatarSkin = "#e0ac69"

func mustBuild(t testing.TB, o Options) *Scene {
	t.Helper()
	s, err := Build(o, testAvatar)
	if err != nil {
		t.Fatalf("Build(%+v): %v", o, err)
	}
	return s
}

// parsedSVG is what the tests read back from an SVG document.
type parsedSVG struct {
	width, height string
	title         string
	layers        []parsedLayer
	border        string // stroke of the border rect
	texts         []parsedText
	images        []string // href of <image>
	colours       []attrUse
}

type parsedLayer struct {
	kind    string
	colours []string // one per shape
}

type parsedText struct {
	x, y, size, length string
	text               string
}

type attrUse struct{ elem, attr, value string }

// parseSVG decodes doc with encoding/xml, failing the test if it is not
// well-formed.
func parseSVG(t testing.TB, doc []byte) parsedSVG {
	t.Helper()
	var p parsedSVG
	d := xml.NewDecoder(strings.NewReader(string(doc)))
	var stack []string
	inLayer := -1 // depth of the open pattern group
	var text *parsedText
	inTitle := false
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v\n%s", err, doc)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			name := el.Name.Local
			stack = append(stack, name)
			attr := map[string]string{}
			for _, a := range el.Attr {
				attr[a.Name.Local] = a.Value
				switch a.Name.Local {
				case "fill", "stroke", "stop-color", "flood-color", "color", "lighting-color":
					p.colours = append(p.colours, attrUse{name, a.Name.Local, a.Value})
				case "style":
					t.Errorf("<%s> has a style attribute; colours must be attributes", name)
				}
			}
			switch {
			case name == "svg" && len(stack) == 1:
				p.width, p.height = attr["width"], attr["height"]
			case name == "title" && len(stack) == 2:
				inTitle = true
			case name == "g" && attr["data-pattern"] != "":
				p.layers = append(p.layers, parsedLayer{kind: attr["data-pattern"]})
				inLayer = len(stack)
			case inLayer > 0 && (name == "circle" || name == "path"):
				c := attr["fill"]
				if c == "none" {
					c = attr["stroke"]
				}
				l := &p.layers[len(p.layers)-1]
				l.colours = append(l.colours, c)
			case name == "rect" && attr["stroke-width"] == "10":
				p.border = attr["stroke"]
			case name == "text":
				text = &parsedText{x: attr["x"], y: attr["y"], size: attr["font-size"], length: attr["textLength"]}
			case name == "image":
				p.images = append(p.images, attr["href"])
			}
		case xml.EndElement:
			if len(stack) == inLayer {
				inLayer = -1
			}
			stack = stack[:len(stack)-1]
			if el.Name.Local == "text" && text != nil {
				p.texts = append(p.texts, *text)
				text = nil
			}
			if el.Name.Local == "title" {
				inTitle = false
			}
		case xml.CharData:
			if text != nil {
				text.text += string(el)
			}
			if inTitle {
				p.title += string(el)
			}
		}
	}
	return p
}

// Tolerances of the small glass blur against the full-size one
// (TestGlassBlurMatchesFullSize), in levels of 255, as docs/performance.md
// states them.
const (
	glassTolerance     = 3
	glassMeanTolerance = 0.25
)

// boxBlur is the full-size glass blur the small one stands in for:
// three box passes of radius rad in each direction over the pixels of img
// under r and a margin of 3·rad around it (clamped to the image), so the
// result is what blurring the whole image would give there. It returns the
// blurred margin and region together, with their bounds.
func boxBlur(img *image.RGBA, r image.Rectangle, rad int) ([]uint8, image.Rectangle) {
	m := 3 * rad
	e := image.Rect(r.Min.X-m, r.Min.Y-m, r.Max.X+m, r.Max.Y+m).Intersect(img.Bounds())
	w, h := e.Dx(), e.Dy()
	src := make([]uint8, w*h*3)
	for y := 0; y < h; y++ {
		row := img.Pix[img.PixOffset(e.Min.X, e.Min.Y+y):][:w*4]
		for x := 0; x < w; x++ {
			copy(src[(y*w+x)*3:(y*w+x)*3+3], row[x*4:x*4+3])
		}
	}
	return blurPlanes(src, make([]uint8, len(src)), w, h, 3, [3]int{rad, rad, rad}), e
}

// fullSizeGlass is img with the glass panel over pr drawn the long way:
// the full-size blur, then per pixel the glass, the tint and the sheen
// blended in turn by the panel's coverage.
func fullSizeGlass(img *image.RGBA, pr image.Rectangle) *image.RGBA {
	out := newCanvas()
	copy(out.Pix, img.Pix)
	glass, e := boxBlur(img, pr, glassRadius)
	p := panelRect
	for y := pr.Min.Y; y < pr.Max.Y; y++ {
		for x := pr.Min.X; x < pr.Max.X; x++ {
			fx, fy := float64(x)+0.5, float64(y)+0.5
			cov := roundRectCoverage(p, panelRadius, fx, fy)
			if cov <= 0 {
				continue
			}
			t := min(max(((fx-p.x)*p.w+(fy-p.y)*p.h)/(p.w*p.w+p.h*p.h), 0), 1)
			j := ((y-e.Min.Y)*e.Dx() + x - e.Min.X) * 3
			i := out.PixOffset(x, y)
			blend(out.Pix, i, rgb{glass[j], glass[j+1], glass[j+2]}, cov)
			blend(out.Pix, i, backgroundRGB, cov*tintAlpha)
			blend(out.Pix, i, whiteRGB, cov*(sheenFrom+(sheenTo-sheenFrom)*t))
		}
	}
	return out
}
