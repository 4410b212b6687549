package actions

import (
	"context"
	"regexp"
	"strconv"
	"strings"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/models"
)

// MaxFlagDescription is how long a feature flag's description may be, in
// characters.
const MaxFlagDescription = 500

// flagNames are the names a feature flag may have.
var flagNames = regexp.MustCompile(`^[a-z][a-z0-9_.-]{1,63}$`)

// FlagChange is a change to a feature flag: nil fields stay (a new flag
// starts disabled at 0% with no description).
type FlagChange = models.FlagChange

// FlagResult is what a flag's put did.
type FlagResult struct {
	// Before is the flag as it was, nil when the put created it.
	Before, After *models.FeatureFlag
}

// PutFeatureFlag creates flag name or changes it, under its edit lock
// (another admin's is *models.LockedError), with the flag before and
// after in the audit entry.
func (a *Actions) PutFeatureFlag(ctx context.Context, who *access.Principal, name string, ch FlagChange) (*FlagResult, error) {
	var out FlagResult
	err := a.Store.ChangeLocked(ctx, LockFeatureFlag, name, callerID(who), func(ctx context.Context) (err error) {
		if err := a.Policy.Check(who, policy.UpdateFeatureFlag, policy.Platform); err != nil {
			return err
		}
		if err := checkFlag(name, &ch); err != nil {
			return err
		}
		if out.Before, out.After, err = a.Store.Settings.PutFeatureFlag(ctx, name, ch, callerID(who)); err != nil {
			return err
		}
		details := map[string]any{"after": flagFields(out.After)}
		if out.Before != nil {
			details["before"] = flagFields(out.Before)
		}
		audit.Target(ctx, "feature_flag", name, details)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// DeleteFeatureFlag removes flag name under its edit lock, with the flag
// before in the audit entry; an unknown name is models.ErrNotFound.
func (a *Actions) DeleteFeatureFlag(ctx context.Context, who *access.Principal, name string) error {
	return a.Store.ChangeLocked(ctx, LockFeatureFlag, name, callerID(who), func(ctx context.Context) error {
		if err := a.Policy.Check(who, policy.DeleteFeatureFlag, policy.Platform); err != nil {
			return err
		}
		if err := checkFlag(name, nil); err != nil {
			return err
		}
		gone, err := a.Store.Settings.DeleteFeatureFlag(ctx, name)
		if err != nil {
			return err
		}
		audit.Target(ctx, "feature_flag", name, map[string]any{"before": flagFields(gone)})
		return nil
	})
}

// checkFlag checks a flag's name and change, trimming its description.
func checkFlag(name string, ch *FlagChange) error {
	if !flagNames.MatchString(name) {
		return &InvalidError{Field: "name", Reason: "a flag's name is 2 to 64 lowercase letters, digits, _ . or -, starting with a letter"}
	}
	if ch == nil {
		return nil
	}
	if p := ch.RolloutPercentage; p != nil && (*p < 0 || *p > 100) {
		return &InvalidError{Field: "rolloutPercentage", Reason: "rolloutPercentage must be from 0 to 100"}
	}
	if ch.Description != nil {
		d := strings.TrimSpace(*ch.Description)
		ch.Description = &d
		if len([]rune(d)) > MaxFlagDescription {
			return &InvalidError{Field: "description", Reason: "description must be at most " + strconv.Itoa(MaxFlagDescription) + " characters"}
		}
	}
	return nil
}

// flagFields are what the audit entry keeps of a flag before and after.
func flagFields(f *models.FeatureFlag) map[string]any {
	return map[string]any{"enabled": f.Enabled, "rolloutPercentage": f.RolloutPercentage, "description": f.Description}
}
