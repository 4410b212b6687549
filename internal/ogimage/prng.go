package ogimage

import (
	"math"

	"github.com/plazahq/plaza/internal/seedrand"
)

// The picking stream. Its mapping from seed to background is frozen: golden
// files pin it, and changing any step changes everybody's picture.
//
//  1. The stream is seedrand's splitmix64 (documented and pinned there),
//     started at seedrand.Hash(seed) ^ streamSalt: the FNV-1a 64 hash of
//     the seed's bytes as given, salted so that an og-image seed and an
//     avatar seed that happen to be equal do not walk the same stream.
//  2. Intn(n) is seedrand's multiply-shift of one draw; float() is the top
//     53 bits of one draw scaled to [0, 1).
//  3. Scene generation (pattern.go) consumes draws in a fixed order; new
//     draws may only be appended after the last one.

const streamSalt = 0x6f672d696d616765 // "og-image"

// prng is the scene's stream with the helpers scene generation uses.
type prng struct{ seedrand.Stream }

func newPRNG(seed string) *prng { return &prng{seedrand.New(seedrand.Hash(seed) ^ streamSalt)} }

// between returns an integer in [lo, hi].
func (p *prng) between(lo, hi int) int { return lo + p.Intn(hi-lo+1) }

// float returns a number in [0, 1).
func (p *prng) float() float64 { return float64(p.Next()>>11) / (1 << 53) }

// rangef returns a number in [lo, hi).
func (p *prng) rangef(lo, hi float64) float64 { return lo + (hi-lo)*p.float() }

// chance reports true with probability q.
func (p *prng) chance(q float64) bool { return p.float() < q }

// r1 rounds to one decimal: every coordinate of the scene is rounded once,
// when it is generated, so the SVG text and the rasteriser see one number.
func r1(v float64) float64 { return math.Round(v*10) / 10 }

// r2 rounds to two decimals (opacities, widths).
func r2(v float64) float64 { return math.Round(v*100) / 100 }
