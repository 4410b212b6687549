// Package policy is the one place that decides who may do what to whom.
// Every rule-bearing action, whatever door it came through (the versioned
// admin API, the unversioned admin family, the general API, the console or
// the CLI), asks Check with the acting principal and the action's target,
// and gets back nil or one of the typed errors below, which the web layer
// renders once per family. The table is data, so a test can walk it.
package policy

import (
	"errors"
	"time"

	"github.com/plazahq/plaza/internal/access"
)

// Action names one rule-bearing action.
type Action string

// The actions. Their names match the audit actions where one exists.
const (
	Register       Action = "user.register"
	ChangePassword Action = "auth.password"
	// ForgotPassword asks for a reset link by mail, and ResetPassword
	// sets a new password with one: both for people who cannot sign in.
	ForgotPassword   Action = "auth.password_forgot"
	ResetPassword    Action = "auth.password_reset"
	SetUpTwoFactor   Action = "two_factor.setup"
	EnableTwoFactor  Action = "two_factor.enable"
	DisableTwoFactor Action = "two_factor.disable"
	RevokeOwnSession Action = "session.revoke"
	// ConfirmIdentity is re-entering one's password or code before
	// dangerous actions (POST /api/auth/confirm).
	ConfirmIdentity Action = "auth.confirm"
	// LinkProvider links an external sign-in provider's account to one's
	// own, from the account page: another way into the account, so it
	// takes a fresh confirmation. UnlinkProvider removes such a link.
	LinkProvider   Action = "auth.link_provider"
	UnlinkProvider Action = "auth.unlink_provider"
	// ResetTwoFactor turns off someone else's two-factor sign-in (a lost
	// device): today only the CLI's operator does it.
	ResetTwoFactor Action = "two_factor.reset"
	// CreateAccount makes an account of any role, verified at once:
	// today only the CLI's operator does it (plaza user create).
	CreateAccount Action = "user.create"

	// VerifyEmail spends a verification link's token: the link proves the
	// mailbox, so nobody needs to be signed in. ResendVerification mails
	// one's own address a new link; ChangeEmail, with the password, mails
	// one to a new address, which becomes the account's once it is used.
	VerifyEmail        Action = "auth.email_verify"
	ResendVerification Action = "auth.email_resend"
	ChangeEmail        Action = "auth.email_change"

	BanUser           Action = "user.ban" // and unban, at the v1 door whose body says which
	UpdateUser        Action = "user.update"
	ChangeRole        Action = "user.role"
	BulkUpdateUsers   Action = "users.bulk_update"
	EditProfile       Action = "user.profile"
	DeleteAccount     Action = "user.delete"
	ViewUserSessions  Action = "user.sessions"
	RevokeUserSession Action = "user.revoke_session"
	AddUserNote       Action = "user.note"
	// SilenceUser makes a member read-only for a time (they sign in and
	// read, but do not post, report or edit); UnsilenceUser lifts it early.
	SilenceUser   Action = "user.silence"
	UnsilenceUser Action = "user.unsilence"
	// StartPasswordReset is staff opening a password reset of someone
	// else's account: the reset mail, or a link to hand over when no mail
	// can be sent. The link is a way into the account, so it asks what a
	// role change asks.
	StartPasswordReset Action = "user.password_reset"
	// ViewRelatedAccounts lists the accounts that share an address, a
	// range or a mailbox with a user: other people's emails, and the
	// addresses the user signed up and signed in from, so staff data, and
	// a super admin's for super admins only, as the user's sessions are.
	ViewRelatedAccounts Action = "users.related"
	// PreviewPurge counts what a purge of a spam wave's accounts would
	// change; PurgeUsers bans them, hides their posts and blocks their
	// ranges and email domains at once; UndoPurge puts back, within 10
	// minutes, what one did (docs/api.md, "Purges").
	PreviewPurge Action = "users.purge_preview"
	PurgeUsers   Action = "users.purge"
	UndoPurge    Action = "users.purge_undo"

	EditPost     Action = "post.update"
	DeletePost   Action = "post.delete"
	ModeratePost Action = "post.moderate"
	BulkModerate Action = "posts.bulk_moderate"
	// ClaimPost claims a post of the moderation queue ("Ana is
	// reviewing") or renews the claim; ReleasePost lets it go.
	ClaimPost Action = "post.claim"

	MintToken   Action = "token.create"
	RevokeToken Action = "token.revoke"

	CreateBlock Action = "block.create"
	DeleteBlock Action = "block.delete"

	// Invitations: sign-up links staff hand out. Staff list them, see who
	// used each and make them; revoking asks RevokeInvitation of every
	// caller and, for an invitation someone else made, RevokeOthersInvitation
	// too (an admin's), so a moderator revokes only their own.
	SeeInvitations         Action = "invitations.list"
	CreateInvitation       Action = "invitation.create"
	RevokeInvitation       Action = "invitation.revoke"
	RevokeOthersInvitation Action = "invitation.revoke_others"

	// ReverseModeration brings back a post someone's standing decision
	// took down (approve, dismiss of a flagged post, publishing it again).
	ReverseModeration Action = "post.reverse"

	// TakeLock takes or renews an edit lock on a user or a post;
	// TakeFlagLock one on a feature flag, which asks what changing the
	// flag asks (UpdateFeatureFlag). ReleaseLock lets one's own lock go, or breaks someone
	// else's.
	TakeLock     Action = "lock.acquire"
	TakeFlagLock Action = "lock.acquire_flag"
	ReleaseLock  Action = "lock.release"

	// CreateWebhook registers a webhook endpoint. The others change,
	// rotate the secret of, test, retry or cancel a delivery of, or delete
	// one: they act on what the endpoint's maker owns, so rank protects
	// it as it protects its maker.
	CreateWebhook         Action = "webhook.create"
	UpdateWebhook         Action = "webhook.update"
	RotateWebhookSecret   Action = "webhook.rotate_secret"
	TestWebhook           Action = "webhook.test"
	RetryWebhookDelivery  Action = "webhook.retry"
	CancelWebhookDelivery Action = "webhook.cancel_delivery"
	DeleteWebhook         Action = "webhook.delete"

	// ResendMail queues a failed or held outgoing message again;
	// SendTestMail sends the caller a test message through the outbox.
	ResendMail   Action = "mail.resend"
	SendTestMail Action = "mail.test"

	// SetAlerts chooses the mail one gets of new reports (staff) and,
	// with SetOperationsAlerts on top (admins), of failed jobs and
	// backups: one's own account's, from a session.
	SetAlerts           Action = "account.alerts"
	SetOperationsAlerts Action = "account.alerts_operations"

	// SetRegistration sets how new accounts open: the mode (open,
	// approval, invite-only, closed), an emergency pause and the question
	// applicants answer.
	SetRegistration Action = "registration.update"
	// ApproveApplication opens the account of someone who applied while
	// sign-ups needed approval, and RejectApplication (its twin) turns
	// the application down with a reason: desk decisions, like a post's.
	// BulkDecideApplications takes one of them on many applications at
	// once. ClaimApplication claims an application of the desk ("Ana is
	// reviewing"), ReleaseApplication lets it go.
	ApproveApplication     Action = "application.approve"
	BulkDecideApplications Action = "applications.bulk_decide"
	ClaimApplication       Action = "application.claim"

	// Platform settings: the reason presets, the hold of new accounts'
	// posts, feature flags, maintenance jobs and broadcasts to many
	// inboxes.
	UpdateModerationReasons Action = "moderation_reasons.update"
	UpdateNewAccountPosts   Action = "new_account_posts.update"
	UpdateFeatureFlag       Action = "feature_flag.update"
	DeleteFeatureFlag       Action = "feature_flag.delete"
	QueueMaintenance        Action = "system.maintenance"
	SendBroadcast           Action = "notification.broadcast"

	DownloadBackup Action = "backup.download"
	DeleteBackup   Action = "backup.delete"
	Restore        Action = "backup.restore"
	ExportAudit    Action = "audit.export"

	// Acting as oneself on the general API: the target is the caller's
	// own account (AsSelf). A bearer token needs account:write for these.
	CreatePost  Action = "post.create"
	ReportPost  Action = "post.report"
	ManageInbox Action = "notifications.update" // mark read, dismiss

	// Reads whose answer depends on the caller: they gate what is shown,
	// never a write. Staff power used to read is staff power: under
	// REQUIRE_STAFF_2FA an unenrolled staff session sees what a member
	// sees, and is refused where it asks for staff data by name.
	SeeUnpublishedPosts Action = "posts.see_unpublished"
	SeePrivateProfiles  Action = "users.see_private"
	// SeeOwnAccount reads one's own private data: the profile's email and
	// sign-in activity, one's drafts and taken-down posts, notifications,
	// sessions with their addresses. A bearer token needs account:read.
	SeeOwnAccount Action = "account.read"
	// SeeAnalytics reads the platform's analytics: the dashboard shows
	// them to those who may, as GET /api/v1/admin/analytics answers them.
	SeeAnalytics Action = "analytics.read"
	// WatchModeration opens the moderation queue's live stream: a console
	// page's, so a session's.
	WatchModeration Action = "moderation.watch"
)

// Actions split from another so that each action names the audit action
// its routes write: each has the rule of the action it was split from
// (twins).
const (
	UnbanUser          Action = "user.unban"
	RevokeUserSessions Action = "user.revoke_sessions" // all of a user's sessions
	UndoModeration     Action = "post.moderate_undo"
	ReleasePost        Action = "post.release"
	ViewInvitation     Action = "invitation.view" // one invitation with who used it
	RejectApplication  Action = "application.reject"
	ReleaseApplication Action = "application.release"
)

// twins maps each split action to the one whose rule it shares.
var twins = map[Action]Action{UnbanUser: BanUser, RevokeUserSessions: RevokeUserSession, UndoModeration: ModeratePost, ReleasePost: ClaimPost,
	ViewInvitation:    SeeInvitations,
	RejectApplication: ApproveApplication, ReleaseApplication: ClaimApplication}

func init() {
	for a, twin := range twins {
		Table[a] = Table[twin]
	}
}

// Confirm says when a session caller needs a fresh confirmation of its
// password or code (bearer tokens were minted under one and are scoped).
type Confirm int

const (
	ConfirmNever  Confirm = iota
	ConfirmOthers         // when acting on someone else's resource
	ConfirmAlways
)

// Rule is what one action asks of its caller.
type Rule struct {
	// Permission is what acting on someone else's resource (or on the
	// platform's) needs. With Owner and no Permission, only the owner acts.
	Permission string
	// Owner lets the resource's owner act on it without Permission.
	Owner bool
	// Anonymous lets a caller who is not signed in act (registration).
	Anonymous bool
	// Rank is rank among equals: a role acts only on people of a strictly
	// lower role, on them or on what they own (posts, notes, locks on
	// their record, blocks of their addresses, webhooks). admin:super in
	// the caller's effective permissions acts on anyone (a token's scope
	// included), and what a rule lets one do to oneself is NotSelf's.
	Rank bool
	// NotSelf refuses the staff form of the action on one's own account,
	// which could lock the caller out (ban, status and role changes).
	NotSelf bool
	// MembersOnly refuses the action on any staff account (moderator and
	// up), whoever acts: a purge is for members' accounts only.
	MembersOnly bool
	// NotOwn refuses the action on what the caller owns: nobody decides
	// on their own post's moderation or holds an edit lock on their own
	// record or post.
	NotOwn bool
	// Outrank asks for a role strictly above the target person's highest
	// role (admin:super acts over anyone), unless the target is the
	// caller: reversing someone's moderation decision, breaking their lock.
	Outrank bool
	// SecondFactor: using staff power here needs two-factor sign-in when
	// the instance requires it of staff.
	SecondFactor bool
	Confirm      Confirm
	// SessionOnly refuses bearer tokens: a token never mints another.
	SessionOnly bool
	// Scope is the account scope a bearer token needs to take the action
	// as the owner; without it the token is judged by Permission alone,
	// as on anyone else's resource.
	Scope string
}

// Table is every action's rule.
var Table = map[Action]Rule{
	Register:         {Anonymous: true},
	ChangePassword:   {Owner: true, SessionOnly: true},
	ForgotPassword:   {Anonymous: true},
	ResetPassword:    {Anonymous: true},
	SetUpTwoFactor:   {Owner: true, SessionOnly: true},
	EnableTwoFactor:  {Owner: true, SessionOnly: true},
	DisableTwoFactor: {Owner: true, SessionOnly: true},
	RevokeOwnSession: {Owner: true, SessionOnly: true},
	ConfirmIdentity:  {Owner: true, SessionOnly: true},
	LinkProvider:     {Owner: true, SessionOnly: true, Confirm: ConfirmAlways},
	UnlinkProvider:   {Owner: true, SessionOnly: true},
	ResetTwoFactor:   {Permission: access.PermAdminSuper, Rank: true, SecondFactor: true, Confirm: ConfirmAlways, SessionOnly: true},
	CreateAccount:    {Permission: access.PermAdminSuper, SecondFactor: true, Confirm: ConfirmAlways, SessionOnly: true},

	VerifyEmail: {Anonymous: true},
	// A token with account:write may ask for a link again: it goes to the
	// account's own address. Changing the address is a way to take the
	// account's mail, and with it password resets, so it needs a session.
	ResendVerification: {Owner: true, Scope: access.ScopeAccountWrite},
	ChangeEmail:        {Owner: true, SessionOnly: true},

	BanUser:           {Permission: access.PermUsersManage, Rank: true, NotSelf: true, SecondFactor: true},
	UpdateUser:        {Permission: access.PermAdminWrite, Rank: true, SecondFactor: true},
	ChangeRole:        {Permission: access.PermAdminWrite, Rank: true, NotSelf: true, SecondFactor: true, Confirm: ConfirmAlways},
	BulkUpdateUsers:   {Permission: access.PermAdminSuper, Rank: true, SecondFactor: true, Confirm: ConfirmAlways},
	EditProfile:       {Permission: access.PermUsersManage, Owner: true, Rank: true, SecondFactor: true, Scope: access.ScopeAccountWrite},
	DeleteAccount:     {Permission: access.PermUsersManage, Owner: true, Rank: true, SecondFactor: true, Confirm: ConfirmOthers, Scope: access.ScopeAccountWrite},
	ViewUserSessions:  {Permission: access.PermAdminRead, Rank: true, SecondFactor: true},
	RevokeUserSession: {Permission: access.PermAdminDelete, Rank: true, SecondFactor: true},
	AddUserNote:       {Permission: access.PermAdminWrite, Rank: true, NotSelf: true, SecondFactor: true},
	SilenceUser:       {Permission: access.PermUsersManage, Rank: true, NotSelf: true, SecondFactor: true},
	UnsilenceUser:     {Permission: access.PermUsersManage, Rank: true, NotSelf: true, SecondFactor: true},

	StartPasswordReset:  {Permission: access.PermAdminWrite, Rank: true, NotSelf: true, SecondFactor: true, Confirm: ConfirmAlways},
	ViewRelatedAccounts: {Permission: access.PermAdminRead, Rank: true, SecondFactor: true},
	// A purge acts on many accounts at once: each is asked as a ban's
	// target (rank, never oneself) and none may be staff. A purge of more
	// than PURGE_CONFIRM_ABOVE accounts also needs a fresh confirmation
	// (ConfirmedRecently, asked by the action). Undoing someone else's
	// purge takes a role above theirs, as reversing a decision does.
	PreviewPurge: {Permission: access.PermAdminWrite, SecondFactor: true},
	PurgeUsers:   {Permission: access.PermAdminWrite, Rank: true, NotSelf: true, MembersOnly: true, SecondFactor: true},
	UndoPurge:    {Permission: access.PermAdminWrite, Outrank: true, SecondFactor: true},

	EditPost:     {Owner: true, Scope: access.ScopeAccountWrite},
	DeletePost:   {Permission: access.PermAdminDelete, Owner: true, Rank: true, SecondFactor: true, Scope: access.ScopeAccountWrite},
	ModeratePost: {Permission: access.PermPostsModerate, Rank: true, NotOwn: true, SecondFactor: true},
	BulkModerate: {Permission: access.PermPostsModerate, Rank: true, NotOwn: true, SecondFactor: true, Confirm: ConfirmAlways},
	ClaimPost:    {Permission: access.PermPostsModerate, SecondFactor: true},

	MintToken:   {Permission: access.PermAdminSuper, SecondFactor: true, Confirm: ConfirmAlways, SessionOnly: true},
	RevokeToken: {Permission: access.PermAdminSuper, SecondFactor: true},

	CreateBlock: {Permission: access.PermAdminWrite, Rank: true, SecondFactor: true},
	DeleteBlock: {Permission: access.PermAdminDelete, SecondFactor: true},

	SeeInvitations:         {Permission: access.PermPostsModerate, SecondFactor: true},
	CreateInvitation:       {Permission: access.PermPostsModerate, SecondFactor: true},
	RevokeInvitation:       {Permission: access.PermPostsModerate, SecondFactor: true},
	RevokeOthersInvitation: {Permission: access.PermUsersManage, SecondFactor: true},

	ReverseModeration: {Permission: access.PermPostsModerate, Outrank: true, SecondFactor: true},

	TakeLock:     {Permission: access.PermAdminWrite, Rank: true, NotOwn: true, SecondFactor: true},
	TakeFlagLock: {Permission: access.PermAdminSuper, SecondFactor: true},
	ReleaseLock:  {Permission: access.PermAdminDelete, Outrank: true, SecondFactor: true},

	CreateWebhook:         {Permission: access.PermAdminWrite, SecondFactor: true},
	UpdateWebhook:         {Permission: access.PermAdminWrite, Rank: true, SecondFactor: true},
	RotateWebhookSecret:   {Permission: access.PermAdminWrite, Rank: true, SecondFactor: true},
	TestWebhook:           {Permission: access.PermAdminWrite, Rank: true, SecondFactor: true},
	RetryWebhookDelivery:  {Permission: access.PermAdminWrite, Rank: true, SecondFactor: true},
	CancelWebhookDelivery: {Permission: access.PermAdminWrite, Rank: true, SecondFactor: true},
	DeleteWebhook:         {Permission: access.PermAdminDelete, Rank: true, SecondFactor: true},

	ResendMail:   {Permission: access.PermAdminWrite, SecondFactor: true},
	SendTestMail: {Permission: access.PermAdminWrite, SecondFactor: true},

	SetRegistration: {Permission: access.PermAdminSuper, SecondFactor: true},
	// Applications are decided at the moderation desk, as posts are; rank
	// holds as for any action on a person, and a bulk decision asks for a
	// fresh confirmation as the desk's bulk moderation does.
	ApproveApplication:     {Permission: access.PermPostsModerate, Rank: true, SecondFactor: true},
	BulkDecideApplications: {Permission: access.PermPostsModerate, Rank: true, SecondFactor: true, Confirm: ConfirmAlways},
	ClaimApplication:       {Permission: access.PermPostsModerate, SecondFactor: true},

	SetAlerts:           {Permission: access.PermPostsModerate, SecondFactor: true, SessionOnly: true},
	SetOperationsAlerts: {Permission: access.PermAdminRead, SecondFactor: true, SessionOnly: true},

	UpdateModerationReasons: {Permission: access.PermAdminWrite, SecondFactor: true},
	UpdateNewAccountPosts:   {Permission: access.PermAdminWrite, SecondFactor: true},
	UpdateFeatureFlag:       {Permission: access.PermAdminSuper, SecondFactor: true},
	DeleteFeatureFlag:       {Permission: access.PermAdminSuper, SecondFactor: true},
	QueueMaintenance:        {Permission: access.PermAdminSuper, SecondFactor: true},
	SendBroadcast:           {Permission: access.PermAdminWrite, SecondFactor: true},

	DownloadBackup: {Permission: access.PermAdminSuper, SecondFactor: true, Confirm: ConfirmAlways},
	DeleteBackup:   {Permission: access.PermAdminSuper, SecondFactor: true, Confirm: ConfirmAlways},
	Restore:        {Permission: access.PermAdminSuper, SecondFactor: true, Confirm: ConfirmAlways, SessionOnly: true},
	ExportAudit:    {Permission: access.PermAdminSuper, SecondFactor: true, Confirm: ConfirmAlways},

	CreatePost:  {Owner: true, Scope: access.ScopeAccountWrite},
	ReportPost:  {Owner: true, Scope: access.ScopeAccountWrite},
	ManageInbox: {Owner: true, Scope: access.ScopeAccountWrite},

	SeeUnpublishedPosts: {Permission: access.PermPostsModerate, SecondFactor: true},
	SeePrivateProfiles:  {Permission: access.PermUsersManage, SecondFactor: true},
	SeeOwnAccount:       {Owner: true, Scope: access.ScopeAccountRead},
	SeeAnalytics:        {Permission: access.PermAdminRead, SecondFactor: true},
	WatchModeration:     {Permission: access.PermPostsModerate, SecondFactor: true, SessionOnly: true},
}

// ConfirmWindow is how long a confirmation (the sign-in itself, or
// re-entering the password or a code) lets a session take dangerous
// actions.
const ConfirmWindow = 10 * time.Minute

// Target is what an action acts on: whose it is, and, for actions on a
// person, the roles that person holds (for the rank rule). The zero Target
// is a platform resource that belongs to no one.
type Target struct {
	Owner int64
	Roles []string
}

// Person is the target of an action on the user id with roles.
func Person(id int64, roles []string) Target { return Target{Owner: id, Roles: roles} }

// Owned is the target of an action on a resource that belongs to owner.
func Owned(owner int64) Target { return Target{Owner: owner} }

// Platform is the target of an action on the platform itself.
var Platform = Target{}

// AsSelf is the target of who acting as itself: on its own account, its
// inbox, or a post or report it files.
func AsSelf(who *access.Principal) Target {
	if who == nil {
		return Platform
	}
	return Owned(who.UserID)
}

// Policy answers Check for one instance's settings.
type Policy struct {
	// RequireStaff2FA is REQUIRE_STAFF_2FA.
	RequireStaff2FA bool
	Now             func() time.Time
}

// Check decides whether who may take action a on t: nil, or the reason it
// may not. The order is fixed so that every door gives the same answer:
// sign-in, token kind, ownership (and a token's account scope),
// permission, second factor, self, rank, confirmation. The second factor
// comes before what depends on the target: the staff families ask it of an
// unenrolled staff session before any handler runs, whatever the request
// acts on.
func (p Policy) Check(who *access.Principal, a Action, t Target) error {
	r, ok := Table[a]
	if !ok {
		return &UnknownActionError{Action: a}
	}
	if who == nil {
		if r.Anonymous {
			return nil
		}
		return ErrSignInRequired
	}
	if r.SessionOnly && who.Via == access.ViaToken {
		return ErrSessionOnly
	}
	if r.Anonymous {
		return nil
	}
	own := r.Owner && t.Owner != 0 && t.Owner == who.UserID
	if own && (r.Scope == "" || who.Acts(r.Scope)) {
		return p.checkOwn(who, r)
	}
	if own && r.Permission == "" {
		return &ForbiddenError{Action: a, Need: r.Scope}
	}
	if r.Owner && r.Permission == "" {
		return ErrNotOwner
	}
	if r.Permission != "" && !holds(who, r.Permission) {
		if own {
			return &ForbiddenError{Action: a, Need: r.Scope} // what acting as the owner lacks
		}
		return &ForbiddenError{Action: a, Need: r.Permission}
	}
	if err := p.checkSecondFactor(who, r); err != nil {
		return err
	}
	if r.NotSelf && t.Owner == who.UserID {
		return ErrSelf
	}
	if r.NotOwn && t.Owner != 0 && t.Owner == who.UserID {
		return ErrOwn
	}
	if r.Rank && t.Owner != 0 && t.Owner != who.UserID && !outranks(who, t.Roles) {
		return ErrOutranked
	}
	if r.MembersOnly && t.Owner != 0 && access.RoleRank(access.HighestRole(t.Roles)) > access.RoleRank(access.RoleUser) {
		return ErrStaffTarget
	}
	if r.Outrank && t.Owner != who.UserID && !outranks(who, t.Roles) {
		return ErrNeedsHigherRole
	}
	return p.checkSession(who, r, t)
}

// outranks reports whether who holds a role strictly above the highest
// of roles. admin:super in the effective permissions acts over anyone;
// without it (a super admin's token scoped below it) the caller counts as
// an admin, as the rank rule reads it.
func outranks(who *access.Principal, roles []string) bool {
	if who.Can(access.PermAdminSuper) {
		return true
	}
	mine := access.HighestRole(who.Roles)
	if mine == access.RoleSuperAdmin {
		mine = access.RoleAdmin
	}
	return access.RoleRank(mine) > access.RoleRank(access.HighestRole(roles))
}

// checkSecondFactor asks a staff session for two-factor sign-in where the
// instance requires it. The CLI's operator and bearer tokens are past it.
func (p Policy) checkSecondFactor(who *access.Principal, r Rule) error {
	// Check returned already when the caller acted on its own resource,
	// so a rule with a permission got here on staff power.
	if who.Via == access.ViaSession && r.SecondFactor && r.Permission != "" && p.RequireStaff2FA && who.Staff() && !who.TwoFactor {
		return ErrNeedsSecondFactor
	}
	return nil
}

// checkSession asks a session for a fresh confirmation where the rule
// wants one. The CLI's operator and bearer tokens are past it.
func (p Policy) checkSession(who *access.Principal, r Rule, t Target) error {
	if who.Via != access.ViaSession {
		return nil
	}
	needs := r.Confirm == ConfirmAlways || r.Confirm == ConfirmOthers && t.Owner != who.UserID
	if needs && !p.Confirmed(who) {
		return ErrNeedsConfirmation
	}
	return nil
}

// checkOwn applies to the owner acting on its own resource what its rule
// asks of every session: a fresh confirmation when the rule always wants
// one. Staff power is not in play, so the second factor is not asked.
func (p Policy) checkOwn(who *access.Principal, r Rule) error {
	if r.Confirm == ConfirmAlways && who.Via == access.ViaSession && !p.Confirmed(who) {
		return ErrNeedsConfirmation
	}
	return nil
}

// Confirmed reports whether who confirmed its password or code within
// ConfirmWindow.
func (p Policy) Confirmed(who *access.Principal) bool {
	return who != nil && !who.ConfirmedAt.IsZero() && p.Now().Sub(who.ConfirmedAt) < ConfirmWindow
}

// ConfirmedRecently asks a session for a fresh confirmation, whatever the
// rule says, for an action that needs one past a size (a large purge). The
// CLI's operator and bearer tokens are past it, as in checkSession.
func (p Policy) ConfirmedRecently(who *access.Principal) error {
	if who != nil && who.Via == access.ViaSession && !p.Confirmed(who) {
		return ErrNeedsConfirmation
	}
	return nil
}

// May reports whether who may take action a on t; for what a page shows,
// never in place of Check before a write.
func (p Policy) May(who *access.Principal, a Action, t Target) bool {
	return p.Check(who, a, t) == nil
}

// MayOnceConfirmed reports whether who may take action a on t, perhaps
// only after confirming its password or code: whether a page offers the
// control, the console asking for the confirmation when it is used.
func (p Policy) MayOnceConfirmed(who *access.Principal, a Action, t Target) bool {
	err := p.Check(who, a, t)
	return err == nil || errors.Is(err, ErrNeedsConfirmation)
}

// The refusals Check answers.
var (
	ErrSignInRequired    = errors.New("sign-in required")
	ErrSessionOnly       = errors.New("a bearer token cannot do this; sign in")
	ErrNotOwner          = errors.New("only its owner may do this")
	ErrSelf              = errors.New("not on one's own account")
	ErrOutranked         = errors.New("acts only on people of a lower role")
	ErrOwn               = errors.New("not on one's own account or content")
	ErrNeedsHigherRole   = errors.New("needs a role above that of the person concerned")
	ErrStaffTarget       = errors.New("acts on members only, never on a staff account")
	ErrNeedsSecondFactor = errors.New("staff must turn on two-factor sign-in first")
	ErrNeedsConfirmation = errors.New("confirm your password or code first")
)

// ForbiddenError is a refusal for want of a permission.
type ForbiddenError struct {
	Action Action
	Need   string
}

func (e *ForbiddenError) Error() string { return string(e.Action) + " needs " + e.Need }

// UnknownActionError is a programming error: an action with no rule.
type UnknownActionError struct{ Action Action }

func (e *UnknownActionError) Error() string { return "no policy rule for " + string(e.Action) }

// HoldsPower reports whether who holds the staff permission action a asks
// for acting on someone else's resource: its attempts at that are admin
// actions, audited whether allowed or not.
func HoldsPower(who *access.Principal, a Action) bool {
	r := Table[a]
	return r.Permission != "" && holds(who, r.Permission)
}

// holds reports whether who holds the staff power perm. A rule names it
// in the terms of the unversioned family and the console (users:manage,
// posts:moderate); the versioned family's gate grants its own instead
// (the admin role with admin:read, admin:write, admin:delete or
// admin:super by method), and behind that gate the policy does not ask for
// the power again under its other name: an admin's token scoped
// admin:write bans and moderates through /api/v1/admin. A rule naming an
// admin:* permission asks it at every door, the gate's included.
func holds(who *access.Principal, perm string) bool {
	if who.Can(perm) {
		return true
	}
	unversioned := perm == access.PermUsersManage || perm == access.PermPostsModerate
	return unversioned && who.Gate != "" && who.Can(who.Gate)
}

// MustEnrol reports whether who has to turn on two-factor sign-in before
// using staff power: staff, on an instance that requires it of them.
func (p Policy) MustEnrol(who *access.Principal) bool {
	return p.RequireStaff2FA && who.Staff()
}
