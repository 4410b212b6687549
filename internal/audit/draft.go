package audit

import (
	"context"
	"sync"
)

// Draft is the audit entry of a request being served. The pipeline opens it
// with who, what and where; the handler may name the target and add
// details; when the request ends, the pipeline writes it with the response
// status, in the transaction of the request's changes if it made any.
type Draft struct {
	AdminID       *int64
	AdminUsername string
	Action        string
	TargetType    string
	TargetID      string
	IPAddress     string
	UserAgent     string
	Details       map[string]any
	// Optional leaves the entry to the handler: it is written only if the
	// handler calls Keep (a route where acting on one's own resource is
	// no admin action, but acting on someone else's is).
	Optional bool

	mu   sync.Mutex
	kept bool
}

// Keep asks for an Optional entry to be written.
func (d *Draft) Keep() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.kept = true
}

// Wanted reports whether the entry is to be written: always, unless it is
// Optional and the handler did not Keep it.
func (d *Draft) Wanted() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return !d.Optional || d.kept
}

// Set adds a detail, e.g. Set("before", …) and Set("after", …).
func (d *Draft) Set(key string, value any) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.Details == nil {
		d.Details = map[string]any{}
	}
	d.Details[key] = value
}

type draftKey struct{}

// WithDraft stores the request's draft in its context.
func WithDraft(ctx context.Context, d *Draft) context.Context {
	return context.WithValue(ctx, draftKey{}, d)
}

// DraftFrom returns the request's draft, or nil outside audited routes.
func DraftFrom(ctx context.Context) *Draft {
	d, _ := ctx.Value(draftKey{}).(*Draft)
	return d
}

// Target names the request's target and adds details to its entry; outside
// an audited request it does nothing.
func Target(ctx context.Context, typ, id string, details map[string]any) {
	d := DraftFrom(ctx)
	if d == nil {
		return
	}
	d.TargetType, d.TargetID = typ, id
	for k, v := range details {
		d.Set(k, v)
	}
}

// Keep asks for the request's Optional entry to be written, with details:
// staff acting on someone else's resource through a route where acting on
// one's own is no admin action.
func Keep(ctx context.Context, details map[string]any) {
	d := DraftFrom(ctx)
	if d == nil {
		return
	}
	d.Keep()
	for k, v := range details {
		d.Set(k, v)
	}
}

// Act renames the request's action when what the handler did is a
// different act than the route's (releasing someone else's lock breaks
// it); outside an audited request it does nothing.
func Act(ctx context.Context, action string) {
	if d := DraftFrom(ctx); d != nil {
		d.Action = action
	}
}
