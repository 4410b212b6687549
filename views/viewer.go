package views

import (
	"context"
	"time"
)

// Viewer is the signed-in person a console page is drawn for: who they are
// and what they may do, so that a page shows no control that would answer
// 403. The request pipeline puts it in the request's context.
type Viewer struct {
	ID    int64
	Name  string
	Email string
	Role  string
	// May is what the viewer may do, as the route table and the policy
	// answer it for them: pages read it and never a permission.
	May Abilities
	// TwoFactor is whether the viewer signs in with a second factor, and
	// so may confirm it's them with a code.
	TwoFactor bool
}

// Abilities are the policy's answers for one viewer: each is whether the
// route behind a control (or a link) would let them through, perhaps
// after confirming it's them. The web layer fills them in; what a page
// shows about one person (ban, edit, delete them) is in that page's data.
type Abilities struct {
	// Pages are the console paths (the sidebar's links) the viewer may
	// open.
	Pages map[string]bool
	// SeeUsers: a user's page, where the names of people link.
	SeeUsers bool
	// BulkUpdateUsers: the users page's selection and bulk changes.
	BulkUpdateUsers bool
	// PurgeUsers: ticking accounts (the users page, a user's related
	// accounts) and purging them.
	PurgeUsers bool
	// DeletePosts: the moderation queue's Delete, one post or many.
	DeletePosts bool
	// ExportAudit: the audit log's CSV and JSON export.
	ExportAudit bool
	// SetRegistration: the registration page's forms.
	SetRegistration bool
	// CreateBlocks, DeleteBlocks: the blocks page's form and Delete.
	CreateBlocks bool
	// CreateInvitations: the invitations page's form (whether one may
	// revoke is asked per invitation: staff their own, admins anyone's).
	CreateInvitations bool
	DeleteBlocks      bool
	// SendBroadcasts: the broadcasts page's form.
	SendBroadcasts bool
	// ChangeFlags: create, edit, toggle and delete feature flags.
	ChangeFlags bool
	// RunMaintenance: the jobs page's maintenance actions.
	RunMaintenance bool
	// ManageBackups: download and delete backups.
	ManageBackups bool
	// ChangeWebhooks: create, test, pause, resume and rotate webhooks,
	// retry and cancel their deliveries; DeleteWebhooks: delete them.
	ChangeWebhooks bool
	DeleteWebhooks bool
	// ResendMail: the mail page's Resend; TestMail: its "Send me a test
	// message".
	ResendMail bool
	TestMail   bool
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

// Allowed is what the viewer ctx carries may do (nothing without one): a
// page shows a control only to those its route would let through.
func Allowed(ctx context.Context) Abilities {
	v, _ := ViewerFrom(ctx)
	return v.May
}
