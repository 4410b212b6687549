package wiretime

import (
	"testing"
	"time"
)

func TestFormatIsUTCWithMilliseconds(t *testing.T) {
	at := time.Date(2026, 3, 4, 5, 6, 7, 891_000_000, time.FixedZone("east", 2*3600))
	if got := Format(at); got != "2026-03-04T03:06:07.891Z" {
		t.Errorf("Format = %s", got)
	}
	if _, err := time.Parse(time.RFC3339, Format(at)); err != nil {
		t.Errorf("not RFC 3339: %v", err)
	}
}
