package api

import (
	"errors"
	"strconv"
	"time"
)

// ParseDuration reads "<n><unit>" with unit m (minutes), h (hours), d (days)
// or w (weeks) and n >= 1, the duration syntax of bans and token lifetimes.
func ParseDuration(s string) (time.Duration, error) {
	if len(s) < 2 {
		return 0, errors.New("expected a number followed by m, h, d or w, e.g. 7d")
	}
	n, err := strconv.Atoi(s[:len(s)-1])
	if err != nil || n < 1 || n > 100000 {
		return 0, errors.New("expected a whole number of at least 1 followed by m, h, d or w, e.g. 7d")
	}
	unit := map[byte]time.Duration{'m': time.Minute, 'h': time.Hour, 'd': 24 * time.Hour, 'w': 7 * 24 * time.Hour}[s[len(s)-1]]
	if unit == 0 {
		return 0, errors.New("unit must be m, h, d or w")
	}
	return time.Duration(n) * unit, nil
}
