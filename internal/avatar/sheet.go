package avatar

import "strconv"

// Sheet tags: a sheet is one SVG document of symbols, one per avatar,
// that a page draws with <use href="sheet#a0">, so a list of fifty faces
// costs one request, compressed as a whole (their shapes repeat).
const (
	sheetOpen  = `<svg xmlns="http://www.w3.org/2000/svg">`
	symbolOpen = `<symbol id="a`
	symbolMid  = `" viewBox="0 0 100 100"><rect width="100" height="100" fill="`
	symbolEnd  = `</g></symbol>`
	sheetClose = `</svg>`
)

// MaxSheet is the most avatars a sheet holds: a page of a list.
const MaxSheet = 100

// AppendSheet appends an SVG sheet of the seeds' avatars to dst: the i-th
// as symbol "a<i>", drawn exactly as Render draws it (the same parts and
// colours, in the same 100-unit box).
func AppendSheet(dst []byte, seeds []string) []byte {
	dst = append(dst, sheetOpen...)
	for i, seed := range seeds {
		f := pickFace(seed)
		var p palette
		f.colors(&p)
		dst = append(dst, symbolOpen...)
		dst = strconv.AppendInt(dst, int64(i), 10)
		dst = append(dst, symbolMid...)
		dst = append(dst, p[slotBackground][:]...)
		dst = append(dst, groupTag...)
		for _, t := range f.parts() {
			dst = t.appendTo(dst, &p)
		}
		dst = append(dst, symbolEnd...)
	}
	return append(dst, sheetClose...)
}
