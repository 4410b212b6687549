package ogimage

import "math"

// Canvas size of every og-image.
const (
	Width  = 1200
	Height = 630
)

// patternKind is one of the five background pattern kinds.
type patternKind uint8

// The pattern kinds, in the order the generator numbers them (frozen).
const (
	circles patternKind = iota
	lines
	polygons
	grids
	waves
	numKinds
)

var kindNames = [numKinds]string{"circles", "lines", "polygons", "grids", "waves"}

// String returns the kind's name as written in the SVG (data-pattern).
func (k patternKind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return "unknown"
}

// palette lists the eight pattern colours. Its
// order breaks ties in the border rule.
var palette = [8]string{"#ff6b35", "#118ab2", "#06d6a0", "#f72585", "#7209b7", "#ffd60a", "#f77f00", "#d00000"}

// Palette returns the eight pattern colours, in the order that breaks ties in
// the border rule.
func Palette() []string { p := palette; return p[:] }

// Colours that are not pattern colours. Together with Palette they are the
// only colours an og-image SVG uses.
const (
	Background = "#0a0a0a" // canvas, panel tint
	White      = "#ffffff" // text, panel sheen and edge, avatar mask
	Black      = "#000000" // panel shadow
)

type rgb struct{ r, g, b uint8 }

func hexRGB(s string) rgb {
	v := func(i int) uint8 {
		h := func(c byte) uint8 {
			switch {
			case c >= 'a':
				return c - 'a' + 10
			case c >= 'A':
				return c - 'A' + 10
			}
			return c - '0'
		}
		return h(s[i])<<4 | h(s[i+1])
	}
	return rgb{v(1), v(3), v(5)}
}

var (
	paletteRGB = func() (p [8]rgb) {
		for i, s := range palette {
			p[i] = hexRGB(s)
		}
		return p
	}()
	backgroundRGB = hexRGB(Background)
	whiteRGB      = hexRGB(White)
	blackRGB      = hexRGB(Black)
)

type point struct{ x, y float64 }

// shape is one element of a pattern layer: a circle, or a path made of one
// or more polylines. It is filled when fill > 0 and stroked when stroke > 0;
// both opacities apply to the shape's own palette colour.
type shape struct {
	circle    bool
	cx, cy, r float64   // circle
	paths     [][]point // path: sub-paths
	closed    bool
	color     uint8 // index into palette
	fill      float64
	stroke    float64
	width     float64
}

// layer is one pattern layer: shapes of one kind.
type layer struct {
	kind   patternKind
	shapes []shape
}

// Layer count bounds.
const (
	minLayers = 3
	maxLayers = 8
)

// genLayers draws the background layers from r. The order of draws is part
// of the frozen seed → picture mapping (see prng.go).
func genLayers(r *prng) []layer {
	n := r.between(minLayers, maxLayers)
	// Busy scenes get quieter shapes.
	k := 1 - 0.05*float64(n-minLayers)
	layers := make([]layer, n)
	prev := patternKind(r.Intn(int(numKinds)))
	for i := range layers {
		kind := prev
		if i > 0 {
			// Never the same kind twice in a row.
			kind = (prev + 1 + patternKind(r.Intn(int(numKinds)-1))) % numKinds
		}
		prev = kind
		c := colourPicker{primary: uint8(r.Intn(len(palette))), secondary: uint8(r.Intn(len(palette)))}
		var shapes []shape
		switch kind {
		case circles:
			shapes = genCircles(r, c, k)
		case lines:
			shapes = genLines(r, c, k)
		case polygons:
			shapes = genPolygons(r, c, k)
		case grids:
			shapes = genGrids(r, c, k)
		case waves:
			shapes = genWaves(r, c, k)
		}
		layers[i] = layer{kind: kind, shapes: shapes}
	}
	return layers
}

// colourPicker gives a layer two colours, the first more often.
type colourPicker struct{ primary, secondary uint8 }

func (c colourPicker) pick(r *prng) uint8 {
	if r.chance(0.7) {
		return c.primary
	}
	return c.secondary
}

func genCircles(r *prng, c colourPicker, k float64) []shape {
	out := make([]shape, r.between(10, 24))
	for i := range out {
		s := shape{circle: true, color: c.pick(r)}
		s.cx = r1(r.rangef(-20, Width+20))
		s.cy = r1(r.rangef(-20, Height+20))
		f := r.float()
		s.r = r1(4 + 66*f*f)
		if r.chance(0.55) {
			s.fill = r2(r.rangef(0.14, 0.40) * k)
		} else {
			s.stroke = r2(r.rangef(0.35, 0.70) * k)
			s.width = r1(r.rangef(1.5, 4))
		}
		out[i] = s
	}
	return out
}

func genLines(r *prng, c colourPicker, k float64) []shape {
	out := make([]shape, r.between(6, 14))
	for i := range out {
		x, y := r.rangef(0, Width), r.rangef(0, Height)
		a := r.rangef(0, math.Pi)
		l := r.rangef(160, 620) / 2
		dx, dy := math.Cos(a)*l, math.Sin(a)*l
		out[i] = shape{
			color:  c.pick(r),
			paths:  [][]point{{{r1(x - dx), r1(y - dy)}, {r1(x + dx), r1(y + dy)}}},
			width:  r1(r.rangef(1, 3.5)),
			stroke: r2(r.rangef(0.30, 0.60) * k),
		}
	}
	return out
}

func genPolygons(r *prng, c colourPicker, k float64) []shape {
	out := make([]shape, r.between(3, 8))
	for i := range out {
		sides := r.between(3, 6)
		cx, cy := r.rangef(0, Width), r.rangef(0, Height)
		rad := r.rangef(30, 130)
		rot := r.rangef(0, 2*math.Pi)
		pts := make([]point, sides)
		for j := range pts {
			a := rot + float64(j)*2*math.Pi/float64(sides) + r.rangef(-0.25, 0.25)*math.Pi/float64(sides)
			rr := rad * r.rangef(0.75, 1)
			pts[j] = point{r1(cx + rr*math.Cos(a)), r1(cy + rr*math.Sin(a))}
		}
		out[i] = shape{
			color:  c.pick(r),
			paths:  [][]point{pts},
			closed: true,
			fill:   r2(r.rangef(0.08, 0.24) * k),
			stroke: r2(r.rangef(0.40, 0.70) * k),
			width:  r1(r.rangef(1.2, 2.5)),
		}
	}
	return out
}

func genGrids(r *prng, c colourPicker, k float64) []shape {
	out := make([]shape, r.between(1, 3))
	for i := range out {
		cx, cy := r.rangef(100, Width-100), r.rangef(80, Height-80)
		size := r.rangef(200, 520)
		cells := r.between(5, 10)
		a := r.rangef(0, math.Pi/2)
		sin, cos := math.Sincos(a)
		at := func(u, v float64) point {
			return point{r1(cx + u*cos - v*sin), r1(cy + u*sin + v*cos)}
		}
		h := size / 2
		paths := make([][]point, 0, 2*(cells+1))
		for j := 0; j <= cells; j++ {
			t := -h + float64(j)*size/float64(cells)
			paths = append(paths, []point{at(t, -h), at(t, h)}, []point{at(-h, t), at(h, t)})
		}
		out[i] = shape{
			color:  c.pick(r),
			paths:  paths,
			width:  r1(r.rangef(1, 1.6)),
			stroke: r2(r.rangef(0.20, 0.38) * k),
		}
	}
	return out
}

func genWaves(r *prng, c colourPicker, k float64) []shape {
	out := make([]shape, r.between(2, 5))
	baseY := r.rangef(60, Height-60)
	amp := r.rangef(10, 55)
	wl := r.rangef(180, 520)
	phase := r.rangef(0, 2*math.Pi)
	gap := r.rangef(12, 28)
	tilt := r.rangef(-0.12, 0.12)
	width := r1(r.rangef(1.5, 3.5))
	op := r.rangef(0.30, 0.65) * k
	const step = 10
	for i := range out {
		y0 := baseY + float64(i)*gap
		pts := make([]point, 0, (Width+40)/step+1)
		for x := -20.0; x <= Width+20; x += step {
			y := y0 + tilt*(x-Width/2) + amp*math.Sin(2*math.Pi*x/wl+phase+float64(i)*0.35)
			pts = append(pts, point{x, r1(y)})
		}
		out[i] = shape{
			color:  c.pick(r),
			paths:  [][]point{pts},
			width:  width,
			stroke: r2(op * (1 - 0.12*float64(i))),
		}
	}
	return out
}

// mostUsed returns the border colour: the palette colour carried by the most
// shapes over all layers (a circle, line, polygon, grid patch or wave each
// counts once), ties going to the colour listed first in palette.
func mostUsed(layers []layer) uint8 {
	var n [len(palette)]int
	for _, l := range layers {
		for _, s := range l.shapes {
			n[s.color]++
		}
	}
	best := 0
	for i := range n {
		if n[i] > n[best] {
			best = i
		}
	}
	return uint8(best)
}
