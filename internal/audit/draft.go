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

	mu sync.Mutex
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
