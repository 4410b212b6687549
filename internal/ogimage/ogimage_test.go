package ogimage

import (
	"bytes"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/plazahq/plaza/internal/golden"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata that differ, logging each")

func TestSVGIsDeterministic(t *testing.T) {
	o := Options{Seed: "alice", Quote: "Be yourself; everyone else is already taken.", Author: "Oscar Wilde"}
	a := mustBuild(t, o).SVG()
	b := mustBuild(t, o).SVG()
	if !bytes.Equal(a, b) {
		t.Fatal("two builds of the same options differ")
	}
	s := mustBuild(t, o)
	if !bytes.Equal(s.SVG(), s.SVG()) {
		t.Fatal("two renderings of one scene differ")
	}
	if c := mustBuild(t, Options{Seed: "Alice", Quote: o.Quote, Author: o.Author}).SVG(); bytes.Equal(a, c) {
		t.Error("seeds alice and Alice give the same SVG; seeds are case-sensitive")
	}
}

// The seed alone decides the background: another quote leaves it unchanged.
func TestSeedDecidesBackground(t *testing.T) {
	bg := func(doc []byte) string {
		s := string(doc)
		i := strings.Index(s, `<g id="`)
		j := strings.Index(s[i:], `<circle cx="240"`) // the glow closes the group
		return s[i : i+j]
	}
	a := mustBuild(t, Options{Seed: "s1", Quote: "One.", Author: "A"}).SVG()
	b := mustBuild(t, Options{Seed: "s1", Quote: "A rather longer quote that wraps onto more lines than one.", Author: "B"}).SVG()
	if bg(a) != bg(b) {
		t.Error("the background changed with the quote")
	}
	c := mustBuild(t, Options{Seed: "s2", Quote: "One.", Author: "A"}).SVG()
	if bg(a) == bg(c) {
		t.Error("seeds s1 and s2 give the same background")
	}
}

func TestGolden(t *testing.T) {
	cases := []struct {
		name string
		opts Options
	}{
		{"short", Options{Seed: "alice", Quote: "Be yourself; everyone else is already taken.", Author: "Oscar Wilde"}},
		{"long", Options{Seed: "bob", Quote: strings.Repeat("Fair moderation keeps a community open. ", 8), Author: "Plaza"}},
		{"escaped", Options{Seed: "<&>", Quote: `Use <b> & "quotes" & 'apostrophes'`, Author: "O'Brien & Sons"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := mustBuild(t, c.opts).SVG()
			golden.Check(t, filepath.Join("testdata", c.name+".svg"), got, *update, "go test ./internal/ogimage -run TestGolden -update -v")
		})
	}
}

func TestLayerCounts(t *testing.T) {
	counts := map[int]int{}
	kinds := map[string]int{}
	for i := range 400 {
		s := mustBuild(t, Options{Seed: fmt.Sprint("layers-", i), Quote: "q"})
		p := parseSVG(t, s.SVG())
		n := len(p.layers)
		if n < minLayers || n > maxLayers {
			t.Fatalf("seed %d: %d layers, want 3..8", i, n)
		}
		counts[n]++
		for j, l := range p.layers {
			kinds[l.kind]++
			if len(l.colours) == 0 {
				t.Errorf("seed %d: layer %d (%s) is empty", i, j, l.kind)
			}
			if j > 0 && l.kind == p.layers[j-1].kind {
				t.Errorf("seed %d: layers %d and %d are both %s", i, j-1, j, l.kind)
			}
		}
	}
	for n := minLayers; n <= maxLayers; n++ {
		if counts[n] == 0 {
			t.Errorf("no seed gave %d layers", n)
		}
	}
	for _, k := range kindNames {
		if kinds[k] == 0 {
			t.Errorf("no layer of kind %s", k)
		}
	}
}

// Every colour in the SVG is a palette colour, the background, white or
// black (or a reference to a gradient, or none); pattern shapes use the
// palette only.
func TestPaletteOnly(t *testing.T) {
	allowed := map[string]bool{Background: true, White: true, Black: true, "none": true}
	pal := map[string]bool{}
	for _, c := range Palette() {
		allowed[c], pal[c] = true, true
	}
	for i := range 200 {
		s := mustBuild(t, Options{Seed: fmt.Sprint("palette-", i), Quote: "A quote", Author: "Someone"})
		p := parseSVG(t, s.SVG())
		for _, u := range p.colours {
			if !allowed[u.value] && !(strings.HasPrefix(u.value, "url(#") && strings.HasSuffix(u.value, ")")) {
				t.Fatalf("seed %d: <%s %s=%q> is not an allowed colour", i, u.elem, u.attr, u.value)
			}
		}
		for _, l := range p.layers {
			for _, c := range l.colours {
				if !pal[c] {
					t.Fatalf("seed %d: %s shape coloured %q, not a palette colour", i, l.kind, c)
				}
			}
		}
	}
}

// The border takes the colour carried by the most pattern shapes (circles,
// lines, polygons, grid patches and waves each count once), ties going to
// the colour listed first in the palette. The count is redone here from the
// SVG text.
func TestBorderIsMostUsedColour(t *testing.T) {
	order := Palette()
	for i := range 300 {
		s := mustBuild(t, Options{Seed: fmt.Sprint("border-", i), Quote: "q"})
		p := parseSVG(t, s.SVG())
		n := map[string]int{}
		for _, l := range p.layers {
			for _, c := range l.colours {
				n[c]++
			}
		}
		want := order[0]
		for _, c := range order {
			if n[c] > n[want] {
				want = c
			}
		}
		if p.border != want || s.BorderColor() != want {
			t.Fatalf("seed %d: border %s (scene says %s), want %s; counts %v", i, p.border, s.BorderColor(), want, n)
		}
	}
}

func TestMostUsedTieBreak(t *testing.T) {
	ls := []layer{{shapes: []shape{{color: 5}, {color: 2}, {color: 5}, {color: 2}, {color: 7}}}}
	if got := mostUsed(ls); got != 2 {
		t.Errorf("tie between colours 2 and 5 went to %d, want 2 (first in palette)", got)
	}
}

func TestTitleAndText(t *testing.T) {
	q := `Use <b> & "quotes" & 'apostrophes'`
	s := mustBuild(t, Options{Seed: "x", Quote: q, Author: "O'Brien & Sons"})
	p := parseSVG(t, s.SVG())
	if p.title != q {
		t.Errorf("title %q, want the quote %q", p.title, q)
	}
	var lines []string
	for _, tx := range p.texts[:len(p.texts)-1] {
		lines = append(lines, tx.text)
	}
	if got := strings.Join(lines, " "); got != q {
		t.Errorf("quote lines %q, want %q", got, q)
	}
	if last := p.texts[len(p.texts)-1].text; last != "O'Brien & Sons" {
		t.Errorf("author line %q", last)
	}
	// Every line's textLength is its measured width.
	all := append(slices.Clone(s.Lines()), *s.byline)
	for i, l := range all {
		got, err := strconv.ParseFloat(p.texts[i].length, 64)
		if err != nil || got != l.Width || got <= 0 {
			t.Errorf("line %d textLength %q, want %v", i, p.texts[i].length, l.Width)
		}
	}
}

func TestAvatarEmbedded(t *testing.T) {
	s := mustBuild(t, Options{Seed: "face", Quote: "q"})
	p := parseSVG(t, s.SVG())
	if len(p.images) != 1 {
		t.Fatalf("%d <image> elements, want 1", len(p.images))
	}
	b64, ok := strings.CutPrefix(p.images[0], "data:image/svg+xml;base64,")
	if !ok {
		t.Fatalf("avatar href %.40q… is not a base64 SVG data URI", p.images[0])
	}
	got, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || !bytes.Equal(got, testAvatar("face", AvatarSize)) {
		t.Errorf("embedded avatar is not the avatar function's output (err %v)", err)
	}
	if !bytes.Contains(s.SVG(), []byte(`mask="url(#`)) {
		t.Error("avatar has no mask")
	}

	none, err := Build(Options{Seed: "face", Quote: "q"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p := parseSVG(t, none.SVG()); len(p.images) != 0 {
		t.Error("nil avatar function, yet an <image>")
	}
	_, err = Build(Options{Seed: "face", Quote: "q"}, func(string, int) []byte { return nil })
	if !errors.Is(err, ErrNoAvatar) {
		t.Errorf("empty avatar: err %v, want ErrNoAvatar", err)
	}
}

func TestEmptyQuote(t *testing.T) {
	for _, q := range []string{"", "   ", "\n\t", "\x00\x01"} {
		if _, err := Build(Options{Seed: "s", Quote: q}, testAvatar); !errors.Is(err, ErrNoQuote) {
			t.Errorf("quote %q: err %v, want ErrNoQuote", q, err)
		}
	}
}

func TestNoAuthor(t *testing.T) {
	s := mustBuild(t, Options{Seed: "s", Quote: "Quote without an author"})
	if _, ok := s.AuthorLine(); ok {
		t.Error("author line without an author")
	}
	if p := parseSVG(t, s.SVG()); len(p.texts) != len(s.Lines()) {
		t.Errorf("%d <text>, want %d", len(p.texts), len(s.Lines()))
	}
}

// FuzzBuild feeds outside text to the layout: Build must not fail on a
// non-empty quote, and the SVG must stay well-formed with the quote as title.
func FuzzBuild(f *testing.F) {
	for _, s := range []string{"hello", "<script>&amp;</script>", "\xff\xfe bad utf8", "a\u200bb\u202ec", strings.Repeat("W", 600), "日本語のテキスト", "emoji 🎉🎉"} {
		f.Add("seed", s, "author "+s)
	}
	f.Fuzz(func(t *testing.T, seed, quote, author string) {
		s, err := Build(Options{Seed: seed, Quote: quote, Author: author}, testAvatar)
		if errors.Is(err, ErrNoQuote) {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		p := parseSVG(t, s.SVG())
		if p.title != s.Quote() {
			t.Errorf("title %q, want %q", p.title, s.Quote())
		}
		checkLinesInside(t, s)
	})
}
