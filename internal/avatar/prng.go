package avatar

import "math/bits"

// The picking stream. Its mapping from seed to avatar is frozen: golden files
// pin it, and changing any step below changes everybody's picture.
//
//  1. h = FNV-1a 64 of the seed's bytes as given (no normalisation, so the
//     seed is case-sensitive): offset basis 0xcbf29ce484222325, prime
//     0x100000001b3, for each byte h ^= b; h *= prime.
//  2. The stream is splitmix64 started at state h: each draw adds
//     0x9e3779b97f4a7c15 to the state and returns
//     z = (z ^ z>>30) * 0xbf58476d1ce4e5b9; z = (z ^ z>>27) * 0x94d049bb133111eb;
//     z ^ z>>31 of the new state.
//  3. A pick among n choices takes the next draw x and returns the high 64
//     bits of the 128-bit product x*n (Lemire's multiply-shift), so every
//     choice in [0, n) uses the whole draw.
//  4. Every attribute consumes exactly one draw, in the order of the fields
//     of face (see pickFace), whether it ends up shown or not; a new
//     attribute may only be appended after the last one, and only if it
//     leaves all existing pictures unchanged.
//  5. The part lists, weight tables and colour tables are part of the
//     mapping: adding, removing or reordering an entry changes which part a
//     draw lands on, so they are append-never, edit-never once shipped. Art
//     may be retouched in place only knowingly, regenerating the golden
//     files (go test ./internal/avatar -run TestGolden -update) in the same
//     change and saying so in its note.
//
// Distinctness: the 16 draws span about 2x10^17 part and colour combinations
// (fewer in practice, as weights favour some parts; the background alone has
// 360 steps), and two seeds give identical pictures only if all their picks
// coincide; the test suite renders 100,000 seeds and finds no identical SVG.

const (
	fnvOffset = 0xcbf29ce484222325
	fnvPrime  = 0x100000001b3
)

// hashSeed is FNV-1a 64 of seed.
func hashSeed(seed string) uint64 {
	h := uint64(fnvOffset)
	for i := 0; i < len(seed); i++ {
		h ^= uint64(seed[i])
		h *= fnvPrime
	}
	return h
}

// stream is a splitmix64 generator.
type stream struct{ state uint64 }

func (s *stream) next() uint64 {
	s.state += 0x9e3779b97f4a7c15
	z := s.state
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// pick returns a number in [0, n).
func (s *stream) pick(n int) int {
	hi, _ := bits.Mul64(s.next(), uint64(n))
	return int(hi)
}

// pickWeighted returns an index into cum, a table of cumulative weights, with
// probability proportional to each entry's own weight.
func (s *stream) pickWeighted(cum []uint16) int {
	v := uint16(s.pick(int(cum[len(cum)-1])))
	for i, c := range cum {
		if v < c {
			return i
		}
	}
	return len(cum) - 1
}
