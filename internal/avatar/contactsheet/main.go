// Command contactsheet renders a grid of avatars from the real engine to a
// PNG, so that people can see what the seeds give:
//
//	go run ./internal/avatar/contactsheet -o docs/avatars.png
package main

import (
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"os"
	"strings"

	"github.com/plazahq/plaza/internal/avatar"
	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// seeds are 48 plausible user names.
var seeds = []string{
	"alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi",
	"ivan", "judy", "mallory", "niaj", "olivia", "peggy", "rupert", "sybil",
	"trent", "victor", "walter", "yuki", "zoe", "amara", "bilal", "chen.wei",
	"dmitri", "elena", "fatima", "gustavo", "hana", "ines", "jamal", "kofi",
	"lena", "mateo", "noor", "oskar", "priya", "quinn", "rosa", "sven",
	"tariq", "uma", "valentina", "wen", "ximena", "yusuf", "zara", "Plaza",
}

func main() {
	out := flag.String("o", "docs/avatars.png", "output PNG file")
	cell := flag.Int("cell", 160, "avatar size in pixels")
	cols := flag.Int("cols", 8, "avatars per row")
	only := flag.String("seeds", "", "comma-separated seeds to draw instead of the usual 48")
	flag.Parse()
	if *only != "" {
		seeds = strings.Split(*only, ",")
	}
	if err := run(*out, *cell, *cols); err != nil {
		fmt.Fprintln(os.Stderr, "contactsheet:", err)
		os.Exit(1)
	}
}

func run(out string, cell, cols int) error {
	const pad, label = 12, 18
	rows := (len(seeds) + cols - 1) / cols
	sheet := image.NewRGBA(image.Rect(0, 0, pad+cols*(cell+pad), pad+rows*(cell+label+pad)))
	draw.Draw(sheet, sheet.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	d := font.Drawer{Dst: sheet, Src: image.NewUniform(color.RGBA{0x55, 0x55, 0x55, 0xff}), Face: basicfont.Face7x13}
	for i, seed := range seeds {
		img, err := avatar.RenderImage(seed, cell)
		if err != nil {
			return fmt.Errorf("seed %q: %w", seed, err)
		}
		x := pad + i%cols*(cell+pad)
		y := pad + i/cols*(cell+label+pad)
		draw.Draw(sheet, image.Rect(x, y, x+cell, y+cell), img, image.Point{}, draw.Over)
		w := d.MeasureString(seed).Ceil()
		d.Dot = fixed.P(x+(cell-w)/2, y+cell+label-4)
		d.DrawString(seed)
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(f, sheet); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
