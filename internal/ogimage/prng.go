package ogimage

import (
	"math"
	"math/bits"
)

// The picking stream. Its mapping from seed to background is frozen: golden
// files pin it, and changing any step changes everybody's picture.
//
//  1. h = FNV-1a 64 of the seed's bytes as given (case-sensitive, no
//     normalisation), then h ^= streamSalt so that an og-image seed and an
//     avatar seed that happen to be equal do not walk the same stream.
//  2. The stream is splitmix64 started at state h.
//  3. intn(n) is Lemire's multiply-shift of one draw; float() is the top 53
//     bits of one draw scaled to [0, 1).
//  4. Scene generation (pattern.go) consumes draws in a fixed order; new
//     draws may only be appended after the last one.

const (
	fnvOffset  = 0xcbf29ce484222325
	fnvPrime   = 0x100000001b3
	streamSalt = 0x6f672d696d616765 // "og-image"
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

// prng is a splitmix64 generator.
type prng struct{ state uint64 }

func newPRNG(seed string) *prng { return &prng{state: hashSeed(seed) ^ streamSalt} }

func (p *prng) next() uint64 {
	p.state += 0x9e3779b97f4a7c15
	z := p.state
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// intn returns a number in [0, n).
func (p *prng) intn(n int) int {
	hi, _ := bits.Mul64(p.next(), uint64(n))
	return int(hi)
}

// between returns an integer in [lo, hi].
func (p *prng) between(lo, hi int) int { return lo + p.intn(hi-lo+1) }

// float returns a number in [0, 1).
func (p *prng) float() float64 { return float64(p.next()>>11) / (1 << 53) }

// rangef returns a number in [lo, hi).
func (p *prng) rangef(lo, hi float64) float64 { return lo + (hi-lo)*p.float() }

// chance reports true with probability q.
func (p *prng) chance(q float64) bool { return p.float() < q }

// r1 rounds to one decimal: every coordinate of the scene is rounded once,
// when it is generated, so the SVG text and the rasteriser see one number.
func r1(v float64) float64 { return math.Round(v*10) / 10 }

// r2 rounds to two decimals (opacities, widths).
func r2(v float64) float64 { return math.Round(v*100) / 100 }
