package handlers

import (
	"context"
	"errors"
)

// Meter counts against a route's rate-limit scope what only the handler
// can count: the collector's events, sign-in's failures. The pipeline puts
// one in the context of every route that declares such a scope; a refusal
// is the 429 the handler returns as it is.
type Meter interface {
	// Check refuses when a window of the scope is spent, counting nothing.
	// subject is what the scope counts by beyond the caller (the email of
	// a sign-in), or "".
	Check(ctx context.Context, subject string) error
	// Take counts n against the scope's windows and refuses past the limit.
	Take(ctx context.Context, subject string, n int64) error
	// Refund gives back one hit Take counted: an attempt counted before
	// its secret was checked, which turned out right.
	Refund(ctx context.Context, subject string)
}

// attempt counts one try at a secret (a password, a code) for subject
// before check runs, so that tries sent together cannot all pass a window
// with one left, and gives it back when check passes: only failures stay
// counted. A spent window refuses before check runs.
func attempt(ctx context.Context, m Meter, subject string, check func() error) error {
	if err := m.Take(ctx, subject, 1); err != nil {
		return err
	}
	err := check()
	if err == nil {
		m.Refund(ctx, subject)
	}
	return err
}

type meterKey struct{}

// WithMeter gives the request's handler its Meter.
func WithMeter(ctx context.Context, m Meter) context.Context {
	return context.WithValue(ctx, meterKey{}, m)
}

// errNoMeter means a route that counts in its handler did not declare the
// scope it counts in the route table.
var errNoMeter = errors.New("no rate-limit meter: the route must declare its Meter scope")

func meterFrom(ctx context.Context) (Meter, error) {
	if m, ok := ctx.Value(meterKey{}).(Meter); ok {
		return m, nil
	}
	return nil, errNoMeter
}
