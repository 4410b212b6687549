package handlers

import (
	"testing"
	"time"
)

func TestFormatUptime(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0:                                     "0h 0m 0s",
		59*time.Second + 900*time.Millisecond: "0h 0m 59s",
		3*time.Hour + 2*time.Minute + time.Second: "3h 2m 1s",
		50 * time.Hour: "50h 0m 0s",
	} {
		if got := FormatUptime(d); got != want {
			t.Errorf("FormatUptime(%v) = %q, want %q", d, got, want)
		}
	}
}
