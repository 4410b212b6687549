package audit

import (
	"context"
	"sync"
)

// Draft is the audit entry of a request being served. The pipeline opens it
// with who, what and where; the handler adds details and writes it inside
// its transaction; if the handler did not (a read, a refusal, a failure),
// the pipeline writes it afterwards with the final status.
type Draft struct {
	AdminID       *int64
	AdminUsername string
	Action        string
	TargetType    string
	TargetID      string
	IPAddress     string
	UserAgent     string
	Details       map[string]any

	mu      sync.Mutex
	written bool
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

// MarkWritten records that the entry is stored; a second write is skipped.
// It reports whether this call was the first.
func (d *Draft) MarkWritten() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	first := !d.written
	d.written = true
	return first
}

// Written reports whether the entry is stored.
func (d *Draft) Written() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.written
}

// Unmark forgets a write whose transaction rolled back.
func (d *Draft) Unmark() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.written = false
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
