package avatar

import (
	"bytes"
	"encoding/xml"
	"errors"
	"flag"
	"hash/maphash"
	"image"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/plazahq/plaza/internal/golden"
)

var (
	update     = flag.Bool("update", false, "rewrite the testdata/*.golden files that differ from the current engine, logging each")
	partsSheet = flag.String("parts-sheet", "", "write a PNG of every part to this file (for artists)")
)

// goldenCases pin the exact bytes of these avatars. Never regenerate them to
// make a change pass: a diff here means people's pictures would change.
var goldenCases = []struct {
	name, seed string
	size       int
}{
	{"alice", "alice", 200},
	{"alice-capital", "Alice", 200},
	{"alice-min", "alice", 50},
	{"alice-max", "alice", 1000},
	{"bob", "bob", 200},
	{"email", "someone@example.com", 128},
	{"uuid", "3f0e6c2a-9b1d-4c1e-8d7a-2b6f5e4c3a10", 200},
	{"unicode", "Zoë 🌷 東京", 256},
	{"space", " ", 200},
	{"long", strings.Repeat("plaza", 200), 200},
	{"number", "42", 64},
	{"markup", `<script>&"'`, 200},
}

func TestGolden(t *testing.T) {
	for _, tc := range goldenCases {
		t.Run(tc.name, func(t *testing.T) {
			got := Render(tc.seed, tc.size)
			golden.Check(t, filepath.Join("testdata", tc.name+".golden"), got, *update, "go test ./internal/avatar -run TestGolden -update -v")
		})
	}
}

func TestDistinct100k(t *testing.T) {
	const n = 100_000
	seen := make(map[uint64]int32, n)
	h := maphash.MakeSeed()
	buf := make([]byte, 0, TypicalLen)
	seed := func(i int) string { return "user-" + strconv.Itoa(i) }
	collisions := 0
	for i := range n {
		buf = AppendSVG(buf[:0], seed(i), DefaultSize)
		k := maphash.Bytes(h, buf)
		if j, ok := seen[k]; ok && bytes.Equal(buf, Render(seed(int(j)), DefaultSize)) {
			collisions++
			if collisions < 5 {
				t.Errorf("seeds %q and %q give the same SVG", seed(i), seed(int(j)))
			}
		}
		seen[k] = int32(i)
	}
	if collisions > 0 {
		t.Errorf("%d identical SVGs among %d seeds", collisions, n)
	}
}

func TestSeedIsCaseSensitive(t *testing.T) {
	if bytes.Equal(Render("Plaza", 200), Render("plaza", 200)) {
		t.Error("seeds differing only in case give the same avatar")
	}
}

func TestDeterministic(t *testing.T) {
	for _, s := range []string{"a", "b", "anyone"} {
		if !bytes.Equal(Render(s, 200), Render(s, 200)) {
			t.Errorf("seed %q renders differently twice", s)
		}
	}
}

func TestParseSize(t *testing.T) {
	tests := []struct {
		in      string
		want    int
		wantErr bool
	}{
		{"", DefaultSize, false},
		{"50", 50, false},
		{"1000", 1000, false},
		{"200", 200, false},
		{"0200", 200, false},
		{"49", 0, true},
		{"1001", 0, true},
		{"0", 0, true},
		{"-100", 0, true},
		{"+100", 0, true},
		{"100.5", 0, true},
		{"1e3", 0, true},
		{" 100", 0, true},
		{"abc", 0, true},
		{"99999999999999999999999", 0, true},
	}
	for _, tt := range tests {
		t.Run(strconv.Quote(tt.in), func(t *testing.T) {
			got, err := ParseSize(tt.in)
			if tt.wantErr {
				if !errors.Is(err, ErrInvalidSize) {
					t.Errorf("ParseSize(%q) = %d, %v; want ErrInvalidSize", tt.in, got, err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("ParseSize(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestParseSeed(t *testing.T) {
	if _, err := ParseSeed(""); !errors.Is(err, ErrMissingSeed) {
		t.Errorf("ParseSeed(\"\") error = %v, want ErrMissingSeed", err)
	}
	if got, err := ParseSeed(" Ab "); err != nil || got != " Ab " {
		t.Errorf("ParseSeed(\" Ab \") = %q, %v; want it unchanged", got, err)
	}
}

// TestSizeOnlyChangesDimensions: the drawing is the same at every size.
func TestSizeOnlyChangesDimensions(t *testing.T) {
	strip := func(b []byte, size int) string {
		n := strconv.Itoa(size)
		return strings.Replace(string(b), `width="`+n+`" height="`+n+`"`, `width="N" height="N"`, 1)
	}
	base := strip(Render("sizes", DefaultSize), DefaultSize)
	for _, size := range []int{MinSize, 51, 999, MaxSize} {
		if got := strip(Render("sizes", size), size); got != base {
			t.Errorf("size %d changes the drawing", size)
		}
	}
	for in, want := range map[int]int{0: MinSize, -5: MinSize, 49: MinSize, 1001: MaxSize, 1 << 40: MaxSize} {
		if got := Render("sizes", in); !bytes.Contains(got, []byte(`width="`+strconv.Itoa(want)+`"`)) {
			t.Errorf("size %d not clamped to %d", in, want)
		}
	}
}

// TestValidSVG parses avatars as XML and checks the root and the title.
func TestValidSVG(t *testing.T) {
	for i := range 2000 {
		seed := "xml-" + strconv.Itoa(i)
		size := MinSize + i%(MaxSize-MinSize+1)
		svg := Render(seed, size)
		var doc struct {
			XMLName xml.Name `xml:"svg"`
			Width   string   `xml:"width,attr"`
			Height  string   `xml:"height,attr"`
			ViewBox string   `xml:"viewBox,attr"`
			Title   string   `xml:"title"`
		}
		if err := xml.Unmarshal(svg, &doc); err != nil {
			t.Fatalf("seed %q: %v\n%s", seed, err, svg)
		}
		n := strconv.Itoa(size)
		if doc.XMLName.Space != "http://www.w3.org/2000/svg" || doc.Width != n || doc.Height != n ||
			doc.ViewBox != "0 0 100 100" || doc.Title == "" {
			t.Fatalf("seed %q: root %+v", seed, doc)
		}
		// every element must be well formed all the way down
		d := xml.NewDecoder(bytes.NewReader(svg))
		for {
			if _, err := d.Token(); err != nil {
				if err.Error() != "EOF" {
					t.Fatalf("seed %q: %v", seed, err)
				}
				break
			}
		}
	}
}

// TestTypicalSize keeps SVGs small: the mean under 6 KB, none over 8 KB.
func TestTypicalSize(t *testing.T) {
	total, largest := 0, 0
	const n = 5000
	for i := range n {
		l := len(Render("len-"+strconv.Itoa(i), 1000))
		total += l
		largest = max(largest, l)
	}
	t.Logf("mean %d bytes, largest %d bytes", total/n, largest)
	if total/n > 6144 || largest > 8192 {
		t.Errorf("mean %d bytes, largest %d bytes; want under 6144 and 8192", total/n, largest)
	}
}

func TestRenderAllocatesExactly(t *testing.T) {
	for i := range 1000 {
		seed := "cap-" + strconv.Itoa(i)
		f := pickFace(seed)
		if got, want := len(Render(seed, MaxSize)), f.svgLen(); got != want {
			t.Fatalf("seed %q: SVG is %d bytes, svgLen says %d", seed, got, want)
		}
	}
}

func TestAppendSVGDoesNotAllocate(t *testing.T) {
	buf := make([]byte, 0, 16<<10)
	allocs := testing.AllocsPerRun(200, func() {
		buf = AppendSVG(buf[:0], "no allocations", 200)
	})
	if allocs != 0 {
		t.Errorf("AppendSVG allocates %.1f times per call, want 0", allocs)
	}
}

func TestRenderPNG(t *testing.T) {
	b, err := RenderPNG("png", 64)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if r := img.Bounds(); r.Dx() != 64 || r.Dy() != 64 {
		t.Errorf("PNG is %v, want 64x64", r)
	}
}

// partFaces returns one face per part of every list, each showing that
// part on an otherwise fixed face.
func partFaces() []face {
	base := face{hair: 0, eyes: 0, mouth: 0, feature: 0}
	var faces []face
	add := func(n int, set func(*face, int)) {
		for i := range n {
			f := base
			set(&f, i)
			faces = append(faces, f)
		}
	}
	add(len(hairBack), func(f *face, i int) { f.hair = i; f.hairColor = i % len(hairColors) })
	add(len(skinTones), func(f *face, i int) { f.skin = i })
	add(len(eyeParts), func(f *face, i int) { f.eyes = i; f.iris = i % len(irisColors) })
	add(len(browParts), func(f *face, i int) { f.brows = i })
	add(len(mouthParts), func(f *face, i int) { f.mouth = i })
	add(len(noseParts), func(f *face, i int) { f.nose = i })
	add(len(clothesParts), func(f *face, i int) { f.clothes = i })
	add(len(clothesColors), func(f *face, i int) { f.clothesColor = i })
	add(len(glassesParts), func(f *face, i int) { f.glasses = i; f.frame = i % len(frameColors) })
	add(len(earringParts), func(f *face, i int) { f.earrings = i; f.metal = i % len(metalColors); f.hair = 0 })
	add(len(featureParts), func(f *face, i int) { f.feature = i })
	add(len(hairColors), func(f *face, i int) { f.hairColor = i; f.hair = 3 })
	return faces
}

// TestEveryPartRasterizes draws every part through oksvg in strict mode, so
// that nothing in the library falls outside what the PNG path can draw.
func TestEveryPartRasterizes(t *testing.T) {
	const cell = 120
	faces := partFaces()
	var sheet *image.RGBA
	if *partsSheet != "" {
		const cols = 12
		sheet = image.NewRGBA(image.Rect(0, 0, cols*cell, (len(faces)+cols-1)/cols*cell))
	}
	for i, f := range faces {
		img, err := rasterize(f.appendSVG(nil, cell), cell)
		if err != nil {
			t.Fatalf("face %+v: %v", f, err)
		}
		if img.RGBAAt(cell/2, cell/2).A == 0 {
			t.Errorf("face %+v: nothing drawn", f)
		}
		if sheet != nil {
			x, y := i%12*cell, i/12*cell
			draw.Draw(sheet, image.Rect(x, y, x+cell, y+cell), img, image.Point{}, draw.Src)
		}
	}
	if sheet != nil {
		var buf bytes.Buffer
		if err := png.Encode(&buf, sheet); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(*partsSheet, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestPartCounts keeps the library at least as rich as the issue asks.
func TestPartCounts(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want int
	}{
		{"skin tones", len(skinTones), 12},
		{"eyes", len(eyeParts), 24},
		{"eyebrows", len(browParts), 16},
		{"mouths", len(mouthParts), 30},
		{"hair styles", len(hairBack), 40},
		{"hair colours", len(hairColors), 16},
		{"glasses", len(glassesParts) - 1, 6},
		{"earrings", len(earringParts) - 1, 6},
		{"features", len(featureParts) - 1, 8},
	} {
		if c.got < c.want {
			t.Errorf("%d %s, want at least %d", c.got, c.name, c.want)
		}
	}
	for _, w := range []struct {
		name string
		cum  []uint16
		n    int
	}{
		{"hair colours", hairWeights, len(hairColors)},
		{"irises", irisWeights, len(irisColors)},
		{"eyes", eyeWeights, len(eyeParts)},
		{"eyebrows", browWeights, len(browParts)},
		{"mouths", mouthWeights, len(mouthParts)},
		{"glasses", glassesWeights, len(glassesParts)},
		{"earrings", earringWeights, len(earringParts)},
		{"features", featureWeights, len(featureParts)},
	} {
		if len(w.cum) != w.n {
			t.Errorf("%s: %d weights for %d parts", w.name, len(w.cum), w.n)
		}
	}
}

func TestMirror(t *testing.T) {
	got := mirror(`<path d="M34 42C36 39 42 38.5 45.5 40.5L40 41H30.25A2 3 10 0 1 20 21Z" fill="$b"/><circle cx="39.5" cy="50" r="1"/>`)
	want := `<path d="M66 42C64 39 58 38.5 54.5 40.5L60 41H69.75A2 3-10 0 0 80 21Z" fill="$b"/><circle cx="60.5" cy="50" r="1"/>`
	if got != want {
		t.Errorf("mirror:\ngot  %s\nwant %s", got, want)
	}
}

// benchSink keeps Render's result on the heap, as a caller's would be.
var benchSink []byte

var benchSeeds = func() []string {
	s := make([]string, 1024)
	for i := range s {
		s[i] = "bench-user-" + strconv.Itoa(i)
	}
	return s
}()

// BenchmarkRender measures one avatar: Render allocates its result buffer
// once; AppendSVG into a reused buffer allocates nothing.
func BenchmarkRender(b *testing.B) {
	b.Run("Render", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			benchSink = Render(benchSeeds[i&1023], DefaultSize)
		}
	})
	b.Run("AppendSVG", func(b *testing.B) {
		b.ReportAllocs()
		buf := make([]byte, 0, TypicalLen)
		for i := 0; b.Loop(); i++ {
			buf = AppendSVG(buf[:0], benchSeeds[i&1023], DefaultSize)
		}
	})
}

func BenchmarkRenderPNG(b *testing.B) {
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := RenderPNG(benchSeeds[i&1023], DefaultSize); err != nil {
			b.Fatal(err)
		}
	}
}

func FuzzParseSize(f *testing.F) {
	for _, s := range []string{"", "50", "1000", "49", "1001", "-1", "+60", "1e3", "٣٠٠"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := ParseSize(s)
		if err != nil {
			if !errors.Is(err, ErrInvalidSize) {
				t.Fatalf("ParseSize(%q) error %v is not ErrInvalidSize", s, err)
			}
			return
		}
		if n < MinSize || n > MaxSize {
			t.Fatalf("ParseSize(%q) = %d, outside [%d, %d]", s, n, MinSize, MaxSize)
		}
		if s != "" && strconv.Itoa(n) != strings.TrimLeft(s, "0") {
			t.Fatalf("ParseSize(%q) = %d", s, n)
		}
	})
}
