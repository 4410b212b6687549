package actions

import (
	"context"
	"time"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/internal/wiretime"
	"github.com/plazahq/plaza/models"
)

// Token lifetimes, whatever the door (the API, the console, the CLI).
const (
	DefaultTokenTTL = 24 * time.Hour
	MinTokenTTL     = time.Minute
	MaxTokenTTL     = 365 * 24 * time.Hour
)

// TokenTTLRule is what a token's lifetime must be, in the words every
// door answers with, after the name of its field (ttl, --ttl).
const TokenTTLRule = "must be a duration between 1m and 365d, e.g. 24h or 30d"

// ParseTokenTTL reads a token lifetime as a Go duration (24h) or
// <n>m|h|d|w (30d), within MinTokenTTL and MaxTokenTTL; "" is the default.
func ParseTokenTTL(text string) (time.Duration, error) {
	if text == "" {
		return DefaultTokenTTL, nil
	}
	d, err := time.ParseDuration(text)
	if err != nil {
		d, err = api.ParseDuration(text)
	}
	if err != nil || !validTTL(d) {
		return 0, &InvalidError{Field: "ttl", Reason: "ttl " + TokenTTLRule}
	}
	return d, nil
}

func validTTL(d time.Duration) bool { return d >= MinTokenTTL && d <= MaxTokenTTL }

// TokenInput is an admin API token to mint.
type TokenInput struct {
	// UserID is the user the token acts as: 0 for its maker. Only the
	// operator mints for someone else (plaza token create --email).
	UserID      int64
	Permissions []string
	TTL         time.Duration
	Name        string
}

// NewToken is a minted token: the JWT, shown this once, and its record.
type NewToken struct {
	Token  string
	Record *models.APIToken
}

// MintToken mints an admin API token. Only a signed-in session under a
// fresh confirmation, or the operator, mints one, never a bearer token: a
// token that mints tokens outlives its own revocation through them. A
// token never carries a permission its maker lacks.
func (a *Actions) MintToken(ctx context.Context, who *access.Principal, in TokenInput) (*NewToken, error) {
	var out NewToken
	err := a.Store.Change(ctx, func(ctx context.Context) error {
		if err := a.Policy.Check(who, policy.MintToken, policy.Platform); err != nil {
			return err
		}
		if !validTTL(in.TTL) {
			return &InvalidError{Field: "ttl", Reason: "ttl " + TokenTTLRule}
		}
		maker := who.UserID
		subject, createdBy := in.UserID, &maker
		switch {
		case who.Via == access.ViaOperator && subject == 0:
			return &InvalidError{Field: "user", Reason: "name the user the token acts as"}
		case who.Via == access.ViaOperator:
			createdBy = nil // no user made it
		case subject == 0:
			subject = who.UserID
		case subject != who.UserID:
			return policy.ErrNotOwner
		}
		for _, perm := range in.Permissions {
			if !who.Holds(perm) {
				return &InvalidError{Field: "permissions", Reason: "you do not hold " + perm}
			}
		}
		tok, claims, err := auth.NewToken(a.Secret, subject, in.Permissions, a.Now(), in.TTL)
		if err != nil {
			return err
		}
		out = NewToken{Token: tok, Record: models.NewAPIToken(claims, in.Name, createdBy)}
		if err := a.Store.Auth.RecordAPIToken(ctx, out.Record); err != nil {
			return err
		}
		audit.Target(ctx, "token", claims.ID, map[string]any{"permissions": in.Permissions,
			"expiresAt": wiretime.Format(claims.ExpiresAt)})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// RevokeToken ends the token jti at once; models.ErrNotFound when no
// unrevoked token has it.
func (a *Actions) RevokeToken(ctx context.Context, who *access.Principal, jti string) error {
	return a.Store.Change(ctx, func(ctx context.Context) error {
		if err := a.Policy.Check(who, policy.RevokeToken, policy.Platform); err != nil {
			return err
		}
		audit.Target(ctx, "token", jti, nil)
		return a.Store.Auth.RevokeAPIToken(ctx, jti)
	})
}
