package avatar

// Colours are literals; shades are derived from them with integer
// arithmetic only, so that they are the same on every platform.

// rgb is a colour as 0xRRGGBB.
type rgb uint32

func (c rgb) r() int { return int(c >> 16 & 0xff) }
func (c rgb) g() int { return int(c >> 8 & 0xff) }
func (c rgb) b() int { return int(c & 0xff) }

// mix returns a + (b-a)*t/256 per channel.
func mix(a, b rgb, t int) rgb {
	ch := func(x, y int) rgb { return rgb(x + (y-x)*t/256) }
	return ch(a.r(), b.r())<<16 | ch(a.g(), b.g())<<8 | ch(a.b(), b.b())
}

func darken(c rgb, t int) rgb  { return mix(c, 0x000000, t) }
func lighten(c rgb, t int) rgb { return mix(c, 0xffffff, t) }

// hex formats c as "#rrggbb".
func (c rgb) hex() [7]byte {
	const digits = "0123456789abcdef"
	return [7]byte{'#',
		digits[c>>20&15], digits[c>>16&15],
		digits[c>>12&15], digits[c>>8&15],
		digits[c>>4&15], digits[c&15]}
}

const outline = "#2d1e1a" // every outline, pupil and dark line

// skinTones, lightest to darkest.
var skinTones = [...]rgb{
	0xffe3d3, 0xfcd5bc, 0xf7c6a3, 0xefb68c, 0xe6a57a, 0xd9956a,
	0xc8835a, 0xb2704a, 0x9a5d3c, 0x824c31, 0x6c3e28, 0x573221,
}

// hairColors with their weights (natural colours are the common ones).
var hairColors = [...]rgb{
	0x2e2626, 0x45302a, 0x5e3d2b, 0x7d5538, 0x95532f, 0xac4a2a, 0xd5742f, 0xe49a62,
	0xc59b5b, 0xeac77f, 0xf2e4bc, 0xa3a2a4, 0xf291b6, 0xa78ae2, 0x5d8fe6, 0x3cb3a6,
}
var hairWeights = cumulative([]uint16{9, 9, 9, 8, 5, 4, 4, 3, 4, 5, 3, 3, 2, 2, 2, 2})

// irisColors: dark brown, brown, hazel, blue, green, grey.
var irisColors = [...]rgb{0x3d2519, 0x6b4226, 0x8c6c32, 0x3f7fab, 0x4d8b50, 0x6d7c88}
var irisWeights = cumulative([]uint16{5, 5, 3, 3, 2, 2})

var clothesColors = [...]rgb{
	0xff8a65, 0x4fb3e8, 0x7cc47f, 0xffcf4d, 0xb168c8, 0xf06292,
	0x45b0a5, 0x7483cf, 0xe05f5f, 0xa1887f, 0x8a9ba6, 0xfff1dc,
}

// frameColors for glasses: dark, gold, red, blue, tortoiseshell.
var frameColors = [...]rgb{0x2d1e1a, 0xc8962d, 0xb83c3c, 0x3d5fb0, 0x7a4a2a}

// metalColors for earrings: gold, silver, rose gold.
var metalColors = [...]rgb{0xf4c542, 0xd8dde3, 0xeaa58f}

// backgroundAnchors are soft colours around the colour wheel; a background
// is one of 30 steps between two neighbours, 360 colours in all.
var backgroundAnchors = [...]rgb{
	0xffd6d6, 0xffe2c9, 0xfff0c4, 0xebf5c8, 0xd3f0d8, 0xc9eee8,
	0xcde8f9, 0xd6dcfb, 0xe3d6fb, 0xf1d3f4, 0xffd3e6, 0xffd9dc,
}

const backgroundSteps = 30

func background(i int) rgb {
	a := backgroundAnchors[i/backgroundSteps]
	b := backgroundAnchors[(i/backgroundSteps+1)%len(backgroundAnchors)]
	return mix(a, b, i%backgroundSteps*256/backgroundSteps)
}

// cumulative turns weights into a running total for pickWeighted.
func cumulative(w []uint16) []uint16 {
	out := make([]uint16, len(w))
	var sum uint16
	for i, x := range w {
		sum += x
		out[i] = sum
	}
	return out
}

// Colour tables in "#rrggbb" form, derived once from the literals above.
var (
	skinHex = shades4(skinTones[:], func(c rgb) [4]rgb {
		return [4]rgb{c, darken(c, 30), mix(c, 0xff5a6e, 90), mix(darken(c, 40), 0xc0394f, 90)}
	})
	hairHex = shades4(hairColors[:], func(c rgb) [4]rgb {
		return [4]rgb{c, darken(c, 50), lighten(c, 60), darken(c, 110)}
	})
	clothesHex = shades2(clothesColors[:], func(c rgb) [2]rgb { return [2]rgb{c, darken(c, 36)} })
	irisHex    = hexAll(irisColors[:])
	frameHex   = hexAll(frameColors[:])
	metalHex   = hexAll(metalColors[:])

	backgroundHex = func() (out [len(backgroundAnchors) * backgroundSteps][7]byte) {
		for i := range out {
			out[i] = background(i).hex()
		}
		return out
	}()
)

func hexAll(cs []rgb) [][7]byte {
	out := make([][7]byte, len(cs))
	for i, c := range cs {
		out[i] = c.hex()
	}
	return out
}

func shades2(cs []rgb, f func(rgb) [2]rgb) [][2][7]byte {
	out := make([][2][7]byte, len(cs))
	for i, c := range cs {
		for j, s := range f(c) {
			out[i][j] = s.hex()
		}
	}
	return out
}

func shades4(cs []rgb, f func(rgb) [4]rgb) [][4][7]byte {
	out := make([][4][7]byte, len(cs))
	for i, c := range cs {
		for j, s := range f(c) {
			out[i][j] = s.hex()
		}
	}
	return out
}
