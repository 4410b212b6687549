package ogimage

import (
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/goitalic"
	"golang.org/x/image/font/gofont/gomedium"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
)

// refFaces measures with golang.org/x/image/font faces made here from the
// embedded fonts, independently of the layout's own measuring code.
var refFaces = struct {
	sync.Mutex
	m map[[2]float64]font.Face
}{m: map[[2]float64]font.Face{}}

func refWidth(t testing.TB, author bool, size float64, s string) float64 {
	t.Helper()
	refFaces.Lock()
	defer refFaces.Unlock()
	k := [2]float64{0, size}
	ttf := gomedium.TTF
	if author {
		k[0], ttf = 1, goitalic.TTF
	}
	fa, ok := refFaces.m[k]
	if !ok {
		f, err := opentype.Parse(ttf)
		if err != nil {
			t.Fatal(err)
		}
		fa, err = opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingNone})
		if err != nil {
			t.Fatal(err)
		}
		refFaces.m[k] = fa
	}
	return float64(font.MeasureString(fa, s)) / 64
}

// checkLinesInside measures every laid-out line with a reference face and
// checks that its box (ascent above the baseline to descent below, over the
// measured width) lies inside the panel's text area, itself inside the panel.
func checkLinesInside(t testing.TB, s *Scene) {
	t.Helper()
	px, py, pw, ph := Panel()
	if textRect.x < px || textRect.y < py || textRect.right() > px+pw || textRect.bottom() > py+ph {
		t.Fatal("text area is not inside the panel")
	}
	lines := s.Lines()
	if a, ok := s.AuthorLine(); ok {
		lines = append(lines[:len(lines):len(lines)], a)
	}
	const eps = 0.01
	prevY := 0.0
	for i, l := range lines {
		author := i == len(lines)-1 && s.byline != nil
		w := refWidth(t, author, l.Size, l.Text)
		// The reference face rounds each advance to 1/64 px.
		if d := w - l.Width; d > 1 || d < -1 {
			t.Errorf("line %d %q: layout width %.2f, font measures %.2f", i, l.Text, l.Width, w)
		}
		x0, y0, x1, y1 := l.Box()
		if l.X+w > textRect.right()+1 {
			t.Errorf("line %d %q: the font measures it %.2f wide, past the text area", i, l.Text, w)
		}
		if x0 < textRect.x-eps || x1 > textRect.right()+eps || y0 < textRect.y-eps || y1 > textRect.bottom()+eps {
			t.Errorf("line %d %q (size %v) box [%.1f %.1f %.1f %.1f] leaves the text area %+v", i, l.Text, l.Size, x0, y0, x1, y1, textRect)
		}
		if l.Y <= prevY {
			t.Errorf("line %d baseline %.1f is not below the previous one %.1f", i, l.Y, prevY)
		}
		prevY = l.Y
		if strings.HasPrefix(l.Text, " ") || strings.HasSuffix(l.Text, " ") {
			t.Errorf("line %d %q has a leading or trailing space", i, l.Text)
		}
	}
}

// words makes text of exactly n runes from random words, some long enough
// to need breaking, some wide (W, M) and some beyond ASCII.
func words(r *rand.Rand, n int) string {
	alphabets := []string{"abcdefghijklmnopqrstuvwxyz", "WMWMWMmw", "éèàçœüßñ", "абвгдежзий", "iiiilll.,;'"}
	var b []rune
	for len(b) < n {
		if len(b) > 0 {
			b = append(b, ' ')
		}
		l := 1 + r.IntN(10)
		if r.IntN(20) == 0 {
			l = 30 + r.IntN(50)
		}
		al := []rune(alphabets[r.IntN(len(alphabets))])
		for range l {
			b = append(b, al[r.IntN(len(al))])
		}
	}
	b = b[:n]
	if b[n-1] == ' ' {
		b[n-1] = 'x'
	}
	return string(b)
}

func TestTextFitsForEveryLength(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	sizes := map[float64]bool{}
	for n := 1; n <= MaxQuoteRunes; n++ {
		q := words(r, n)
		s := mustBuild(t, Options{Seed: "fit", Quote: q, Author: words(r, 1+r.IntN(40))})
		checkLinesInside(t, s)
		// Nothing is lost: the lines hold the quote's runes in order.
		var got strings.Builder
		for _, l := range s.Lines() {
			got.WriteString(l.Text)
		}
		if strings.ReplaceAll(got.String(), " ", "") != strings.ReplaceAll(q, " ", "") {
			t.Fatalf("n=%d: lines %q do not hold the quote %q", n, got.String(), q)
		}
		sizes[s.Lines()[0].Size] = true
		if t.Failed() {
			t.Fatalf("n=%d quote %q", n, q)
		}
	}
	if len(sizes) < 6 {
		t.Errorf("font size took only %d values over lengths 1..500", len(sizes))
	}
}

func TestTextExtremes(t *testing.T) {
	cases := map[string]string{
		"one long word":   strings.Repeat("W", MaxQuoteRunes),
		"500 dots":        strings.Repeat(".", MaxQuoteRunes),
		"wide words":      strings.TrimSpace(strings.Repeat("WWWWWWWWWWWWW MMMMMMMMMMMMMMMMMM ", 15)),
		"single rune":     "W",
		"too long":        strings.Repeat("lorem ipsum ", 200),
		"long author":     "Hi",
		"cjk (no glyphs)": strings.Repeat("漢字", 100),
	}
	for name, q := range cases {
		t.Run(name, func(t *testing.T) {
			author := "Somebody"
			if name == "long author" {
				author = strings.Repeat("Wolfgang Amadeus ", 10)
			}
			s := mustBuild(t, Options{Seed: "x", Quote: q, Author: author})
			checkLinesInside(t, s)
		})
	}
}

func TestFontSizeFollowsLength(t *testing.T) {
	size := func(q string) float64 { return mustBuild(t, Options{Seed: "x", Quote: q}).Lines()[0].Size }
	short, medium, long := size("Onward."), size(strings.Repeat("word ", 30)), size(strings.Repeat("word ", 100))
	if !(short > medium && medium > long) {
		t.Errorf("sizes short %v, medium %v, long %v: want decreasing", short, medium, long)
	}
	if short != 80 {
		t.Errorf("a one-word quote is set at %v px, want 80", short)
	}
}

func TestWrapBreaksLongWords(t *testing.T) {
	fs, err := loadFonts()
	if err != nil {
		t.Fatal(err)
	}
	rn := measure(fs.quote, new(sfnt.Buffer), []rune("go "+strings.Repeat("x", 40)+" end"))
	max := rn.width(3, 13) // ten x
	br := wrap(&rn, max)
	for _, b := range br {
		if w := rn.width(b[0], b[1]); w > max {
			t.Errorf("line %v is %.0f wide, max %.0f", b, w, max)
		}
	}
	if len(br) != 1+4+1 && len(br) != 1+4 {
		t.Errorf("breaks %v", br)
	}
}

func TestNormalise(t *testing.T) {
	cases := []struct{ in, want string }{
		{"  a \n\t b  ", "a b"},
		{"a\x00b\x1fc", "abc"},
		{"bad \xff utf8", "bad \uFFFD utf8"},
		{"zero\u200bwidth", "zerowidth"},
	}
	for _, c := range cases {
		if got := string(normalise(c.in, 100)); got != c.want {
			t.Errorf("normalise(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	long := strings.Repeat("abcd ", 200)
	got := []rune(string(normalise(long, MaxQuoteRunes)))
	if len(got) > MaxQuoteRunes || got[len(got)-1] != '…' || got[len(got)-2] == ' ' {
		t.Errorf("cut to %d runes ending %q", len(got), string(got[len(got)-5:]))
	}
}
