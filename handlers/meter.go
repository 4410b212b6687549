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
