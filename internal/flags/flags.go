// Package flags decides who a feature flag's rollout reaches. It knows
// nothing of storage or HTTP.
package flags

import (
	"hash/fnv"
	"strconv"
)

// Bucket is where user falls in flag's rollout, 0..99: a stable hash of
// the flag's name and the user's id, so one user keeps one answer, and
// different flags reach different users.
func Bucket(flag string, user int64) int {
	h := fnv.New32a()
	h.Write([]byte(flag))
	h.Write([]byte{0})
	h.Write(strconv.AppendInt(nil, user, 10))
	return int(h.Sum32() % 100)
}

// On says whether an enabled flag at percent reaches user. Raising the
// percentage only adds users: a user in at 30 is in at 50.
func On(flag string, enabled bool, percent int, user int64) bool {
	return enabled && Bucket(flag, user) < percent
}
