// Command gallery renders the og-image gallery of docs/og from the real
// engines: ogimage for the scene and avatar for the face.
//
//	go run ./internal/ogimage/gallery -out docs/og
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/plazahq/plaza/internal/avatar"
	"github.com/plazahq/plaza/internal/ogimage"
)

// entries mixes seeds and quote lengths, from one word to the 500-rune
// limit, with long words and text beyond ASCII.
var entries = []struct{ name, seed, quote, author string }{
	{"01-one-word", "plaza", "Onward.", "Anonymous"},
	{"02-short", "alice", "Be yourself; everyone else is already taken.", "Oscar Wilde"},
	{"03-medium", "bob", "The only way to do great work is to love what you do. If you haven't found it yet, keep looking. Don't settle.", "Steve Jobs"},
	{"04-long", "carol", "It is not the critic who counts; not the man who points out how the strong man stumbles, or where the doer of deeds could have done them better. The credit belongs to the man who is actually in the arena, whose face is marred by dust and sweat and blood.", "Theodore Roosevelt"},
	{"05-no-author", "dave", "Simplicity is prerequisite for reliability.", ""},
	{"06-long-word", "erin", "Visit https://example.com/a/very/long/path/that/never/ends/and/keeps/going/for/ever/and/ever to see why long words must break.", "A careful typesetter"},
	{"07-accents", "frank", "Je n'ai fait celle-ci plus longue que parce que je n'ai pas eu le loisir de la faire plus courte.", "Blaise Pascal"},
	{"08-cyrillic", "grace", "Красота спасёт мир.", "Фёдор Достоевский"},
	{"09-max-length", "heidi", strings.Repeat("Communities thrive when people feel heard, when moderation is fair and visible, and when the tools get out of the way. ", 5), "The Plaza team"},
	{"10-long-author", "ivan", "Code is like humor. When you have to explain it, it's bad.", "Cory House, software architect, speaker and author of many courses on building applications people love"},
	{"11-medium-2", "judy", "In the middle of every difficulty lies opportunity.", "Albert Einstein"},
	{"12-numbers", "mallory", "Measure twice, cut once: 2 ms for the SVG, 100 ms for the PNG, 0 waiting on the network.", "docs/performance.md"},
}

func main() {
	out := flag.String("out", "docs/og", "directory to write the PNG files to")
	flag.Parse()
	if err := os.MkdirAll(*out, 0o755); err != nil {
		log.Fatal(err)
	}
	for _, e := range entries {
		s, err := ogimage.Build(ogimage.Options{Seed: e.seed, Quote: e.quote, Author: e.author}, avatar.Render)
		if err != nil {
			log.Fatalf("%s: %v", e.name, err)
		}
		b, err := s.PNG()
		if err != nil {
			log.Fatalf("%s: %v", e.name, err)
		}
		path := filepath.Join(*out, e.name+".png")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s  seed=%q  %d runes  border %s\n", path, e.seed, len([]rune(s.Quote())), s.BorderColor())
	}
}
