package config

import (
	"strings"
	"testing"
)

// TestModerationStreamSettings: 8 streams per user and 1,000 per
// instance unless set otherwise; neither may be below one user's.
func TestModerationStreamSettings(t *testing.T) {
	c, err := load(nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.ModerationStreams.PerUser != 8 || c.ModerationStreams.Max != 1000 {
		t.Errorf("defaults %+v, want 8 and 1000", c.ModerationStreams)
	}
	for _, tt := range []struct {
		vars map[string]string
		want string
	}{
		{map[string]string{"MODERATION_STREAMS_PER_USER": "0"}, `MODERATION_STREAMS_PER_USER="0": expected a positive integer`},
		{map[string]string{"MODERATION_STREAMS_PER_USER": "many"}, `MODERATION_STREAMS_PER_USER="many": expected an integer`},
		{map[string]string{"MODERATION_STREAMS_MAX": "4"}, `MODERATION_STREAMS_MAX="4": expected a whole number at least MODERATION_STREAMS_PER_USER`},
	} {
		if _, err := load(tt.vars); err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%v: got %v, want an error starting %q", tt.vars, err, tt.want)
		}
	}
}
