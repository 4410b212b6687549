package actions

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/audit"
)

// The reason presets' limits.
const (
	MaxReasons      = 50
	MaxReasonLength = 100
)

// reasonsKey is the setting that keeps the presets, as JSON.
const reasonsKey = "moderation.reasons"

// DefaultReasons are the presets until an admin sets them.
var DefaultReasons = []string{"Spam", "Harassment", "Off topic", "Misinformation", "Illegal content"}

// SettingReader reads a stored setting.
type SettingReader interface {
	Setting(ctx context.Context, key string) (string, bool, error)
}

// ModerationReasons reads the reason presets the console offers for bans
// and moderation: DefaultReasons until an admin sets them.
func ModerationReasons(ctx context.Context, s SettingReader) ([]string, error) {
	value, ok, err := s.Setting(ctx, reasonsKey)
	if err != nil || !ok {
		return DefaultReasons, err
	}
	var reasons []string
	return reasons, json.Unmarshal([]byte(value), &reasons)
}

// SetModerationReasons replaces the reason presets with reasons, each
// trimmed, with the list before and after in the audit entry, and
// returns the list stored.
func (a *Actions) SetModerationReasons(ctx context.Context, who *access.Principal, reasons []string) ([]string, error) {
	err := a.Store.Change(ctx, func(ctx context.Context) error {
		if err := a.Policy.Check(who, policy.UpdateModerationReasons, policy.Platform); err != nil {
			return err
		}
		var err error
		if reasons, err = checkReasons(reasons); err != nil {
			return err
		}
		before, err := ModerationReasons(ctx, a.Store.Settings)
		if err != nil {
			return err
		}
		value, err := json.Marshal(reasons)
		if err != nil {
			return err
		}
		audit.Target(ctx, "settings", reasonsKey, map[string]any{"before": before, "after": reasons})
		return a.Store.Settings.PutSetting(ctx, reasonsKey, string(value))
	})
	if err != nil {
		return nil, err
	}
	return reasons, nil
}

// checkReasons trims the reasons and says what is wrong with the list:
// 1 to MaxReasons of them, each 1 to MaxReasonLength characters and
// there once, whatever its case.
func checkReasons(in []string) ([]string, error) {
	if n := len(in); n == 0 || n > MaxReasons {
		return nil, &InvalidError{Field: "reasons", Reason: "give 1 to " + strconv.Itoa(MaxReasons) + " reasons"}
	}
	out := make([]string, len(in))
	seen := map[string]bool{}
	for i, reason := range in {
		out[i] = strings.TrimSpace(reason)
		key := strings.ToLower(out[i])
		if n := len([]rune(out[i])); n == 0 || n > MaxReasonLength || seen[key] {
			return nil, &InvalidError{Field: "reasons", Reason: "each reason is 1 to " + strconv.Itoa(MaxReasonLength) + " characters and appears once"}
		}
		seen[key] = true
	}
	return out, nil
}
