package api

import (
	"testing"
	"time"
)

func TestAnalyticsText(t *testing.T) {
	for _, c := range []struct {
		now, before int
		want        string
	}{{9, 8, "+12.5%"}, {97, 100, "-3.0%"}, {5, 5, "+0.0%"}, {0, 0, "+0.0%"}, {3, 0, "+100.0%"}, {0, 4, "-100.0%"}, {9999, 10000, "+0.0%"}} {
		if got := Growth(c.now, c.before); got != c.want {
			t.Errorf("Growth(%d, %d) = %s, want %s", c.now, c.before, got, c.want)
		}
	}
	if got := MinutesSeconds(4*time.Minute + 32*time.Second + 400*time.Millisecond); got != "4m 32s" {
		t.Errorf("MinutesSeconds: %s", got)
	}
	if got := HoursMinutes(2*time.Hour + 15*time.Minute + 20*time.Second); got != "2h 15m" {
		t.Errorf("HoursMinutes: %s", got)
	}
	if got := MinutesSeconds(0); got != "0m 0s" {
		t.Errorf("MinutesSeconds(0): %s", got)
	}
}
