// Package seedrand turns a seed string into a deterministic stream of random
// numbers, shared by the picture engines (internal/avatar, internal/ogimage).
//
// The mapping from seed to stream is frozen: the engines' golden files pin
// it, and changing any step below changes everybody's picture.
//
//  1. Hash(seed) is FNV-1a 64 of the seed's bytes as given (no
//     normalisation, so a seed is case-sensitive): offset basis
//     0xcbf29ce484222325, prime 0x100000001b3, for each byte h ^= b;
//     h *= prime.
//  2. The stream is splitmix64 started at the state the engine chooses
//     (the hash, possibly salted): each draw adds 0x9e3779b97f4a7c15 to the
//     state and returns, of the new state z,
//     z = (z ^ z>>30) * 0xbf58476d1ce4e5b9; z = (z ^ z>>27) * 0x94d049bb133111eb;
//     z ^ z>>31.
//  3. Intn(n) takes the next draw x and returns the high 64 bits of the
//     128-bit product x*n (Lemire's multiply-shift), so every choice in
//     [0, n) uses the whole draw and each call consumes exactly one draw.
//
// What an engine does with the draws (their order, salts, tables) is part
// of its own frozen mapping and documented there.
package seedrand

import "math/bits"

const (
	fnvOffset = 0xcbf29ce484222325
	fnvPrime  = 0x100000001b3
	golden    = 0x9e3779b97f4a7c15 // splitmix64's increment
)

// Hash is FNV-1a 64 of seed's bytes.
func Hash(seed string) uint64 {
	h := uint64(fnvOffset)
	for i := 0; i < len(seed); i++ {
		h ^= uint64(seed[i])
		h *= fnvPrime
	}
	return h
}

// Stream is a splitmix64 generator. Its zero value starts at state 0.
type Stream struct{ state uint64 }

// New returns a stream started at state.
func New(state uint64) Stream { return Stream{state: state} }

// Next returns the next draw.
func (s *Stream) Next() uint64 {
	s.state += golden
	z := s.state
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// Intn returns a number in [0, n) from one draw; n must be positive.
func (s *Stream) Intn(n int) int {
	hi, _ := bits.Mul64(s.Next(), uint64(n))
	return int(hi)
}
