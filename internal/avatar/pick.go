package avatar

import "github.com/plazahq/plaza/internal/seedrand"

// How an avatar is picked. The mapping from seed to avatar is frozen:
// golden files pin it, and changing any step changes everybody's picture.
//
//  1. The stream is seedrand's: splitmix64 started at the FNV-1a 64 hash of
//     the seed's bytes as given (no salt), and a pick among n choices is
//     one draw's Intn(n). Package seedrand documents and pins both.
//  2. Every attribute consumes exactly one draw, in the order of the fields
//     of face (see pickFace), whether it ends up shown or not; a new
//     attribute may only be appended after the last one, and only if it
//     leaves all existing pictures unchanged.
//  3. A weighted pick (pickWeighted) draws Intn(total weight) and takes the
//     first entry whose cumulative weight exceeds it.
//  4. The part lists, weight tables and colour tables are part of the
//     mapping: adding, removing or reordering an entry changes which part a
//     draw lands on, so they are append-never, edit-never once shipped. Art
//     may be retouched in place only knowingly, regenerating the golden
//     files (go test ./internal/avatar -run TestGolden -update -v) in the same
//     change and saying so in its note.
//
// Distinctness: the 16 draws span about 2x10^17 part and colour combinations
// (fewer in practice, as weights favour some parts; the background alone has
// 360 steps), and two seeds give identical pictures only if all their picks
// coincide; the test suite renders 100,000 seeds and finds no identical SVG.

// pickWeighted returns an index into cum, a table of cumulative weights, with
// probability proportional to each entry's own weight.
func pickWeighted(s *seedrand.Stream, cum []uint16) int {
	v := uint16(s.Intn(int(cum[len(cum)-1])))
	for i, c := range cum {
		if v < c {
			return i
		}
	}
	return len(cum) - 1
}
