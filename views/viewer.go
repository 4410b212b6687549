package views

import (
	"context"
	"slices"
	"time"

	"github.com/plazahq/plaza/api"
)

// Viewer is the signed-in person a console page is drawn for: who they are
// and what they may do, so that a page shows no control that would answer
// 403. The request pipeline puts it in the request's context.
type Viewer struct {
	ID          int64
	Name        string
	Email       string
	Role        string
	Permissions []string
	// TwoFactor is whether the viewer signs in with a second factor, and
	// so may confirm it's them with a code.
	TwoFactor bool
}

// Can reports whether the viewer holds perm; admin:super holds every
// admin permission, as it does for the routes.
func (v Viewer) Can(perm string) bool {
	return slices.Contains(v.Permissions, perm) || slices.Contains(v.Permissions, api.PermAdminSuper)
}

// Label is how the header names the viewer.
func (v Viewer) Label() string {
	if v.Name != "" {
		return v.Name
	}
	return v.Email
}

type viewerKey struct{}
type nowKey struct{}

// WithViewer returns ctx carrying v.
func WithViewer(ctx context.Context, v Viewer) context.Context {
	return context.WithValue(ctx, viewerKey{}, v)
}

// ViewerFrom is the viewer ctx carries, and whether there is one.
func ViewerFrom(ctx context.Context) (Viewer, bool) {
	v, ok := ctx.Value(viewerKey{}).(Viewer)
	return v, ok
}

// WithNow returns ctx whose relative times count from now: the request's
// clock, which tests move.
func WithNow(ctx context.Context, now time.Time) context.Context {
	return context.WithValue(ctx, nowKey{}, now)
}

func nowFrom(ctx context.Context) time.Time {
	if t, ok := ctx.Value(nowKey{}).(time.Time); ok {
		return t
	}
	return time.Now()
}

// ViewerCan reports whether the viewer ctx carries holds perm: a page
// shows a control only to those its route would let through.
func ViewerCan(ctx context.Context, perm string) bool {
	v, _ := ViewerFrom(ctx)
	return v.Can(perm)
}
