package config

import (
	"strings"
	"testing"
	"time"
)

// TestStaffSessionSettings: staff sessions last 12 hours and end after 30
// minutes idle unless set otherwise; a value that would outlast a
// member's session, end sessions in use, or idle past the lifetime stops
// the start with a message naming the variable.
func TestStaffSessionSettings(t *testing.T) {
	c, err := load(nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.StaffSession.Lifetime != 12*time.Hour || c.StaffSession.Idle != 30*time.Minute {
		t.Errorf("defaults %+v, want 12h and 30m", c.StaffSession)
	}
	c, err = load(map[string]string{"STAFF_SESSION_LIFETIME": "8h", "STAFF_SESSION_IDLE": "15m"})
	if err != nil || c.StaffSession.Lifetime != 8*time.Hour || c.StaffSession.Idle != 15*time.Minute {
		t.Errorf("8h and 15m: %+v, %v", c.StaffSession, err)
	}
	for _, tt := range []struct {
		vars map[string]string
		want string
	}{
		{map[string]string{"STAFF_SESSION_LIFETIME": "soon"}, `STAFF_SESSION_LIFETIME="soon": expected a duration`},
		{map[string]string{"STAFF_SESSION_LIFETIME": "200h"}, `STAFF_SESSION_LIFETIME="200h0m0s": expected a duration from 1h to 168h`},
		{map[string]string{"STAFF_SESSION_LIFETIME": "10m"}, `STAFF_SESSION_LIFETIME="10m0s": expected a duration from 1h to 168h`},
		{map[string]string{"STAFF_SESSION_IDLE": "1m"}, `STAFF_SESSION_IDLE="1m0s": expected a duration from 5m to 24h`},
		{map[string]string{"STAFF_SESSION_IDLE": "-30m"}, `STAFF_SESSION_IDLE="-30m0s": expected a duration from 5m to 24h`},
		{map[string]string{"STAFF_SESSION_LIFETIME": "2h", "STAFF_SESSION_IDLE": "3h"}, `STAFF_SESSION_IDLE="3h0m0s": expected a duration from 5m to 24h and at most STAFF_SESSION_LIFETIME`},
	} {
		if _, err := load(tt.vars); err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%v: got %v, want an error starting %q", tt.vars, err, tt.want)
		}
	}
}

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
