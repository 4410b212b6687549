package handlers

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/views"
)

// V1UserStore is what the versioned admin users handlers need.
type V1UserStore interface {
	ListUsers(ctx context.Context, f models.UserListFilter) ([]models.ListedUser, int, error)
	UserDetail(ctx context.Context, id int64) (*models.UserDetail, error)
	ListedUserByID(ctx context.Context, id int64) (*models.ListedUser, error)
	CheckLock(ctx context.Context, typ, id string, userID int64) error
	UserNotes(ctx context.Context, id int64) ([]models.ListedNote, error)
}

// V1Users answers the versioned admin family's users routes
// (/api/v1/admin/users), and the console's users pages from the
// same results.
type V1Users struct {
	Store   V1UserStore
	People  People
	Reasons ModerationReasons
	Actions *actions.Actions
	Now     func() time.Time
}

func (h V1Users) now() time.Time { return h.Now() }

// List answers GET /api/v1/admin/users: a page of users filtered by
// status, role, search, address or range and sign-up window, sorted as
// asked. Statuses: 200, 401, 403, 422.
func (h V1Users) List(c echo.Context) error {
	p, err := api.ParseV1Users(c.QueryParams())
	if err != nil {
		return err
	}
	rows, total, err := h.Store.ListUsers(c.Request().Context(), models.UserListFilter{
		Status: p.Status, Role: p.Role, Search: p.Search, Sort: p.Sort, Desc: p.Desc,
		Address: p.Address, Range: p.Range, SignedUpFrom: p.SignedUpFrom, SignedUpTo: p.SignedUpTo,
		Limit: p.Page.Limit, Offset: p.Page.Offset,
	})
	if err != nil {
		return err
	}
	out := make([]api.V1User, len(rows))
	for i := range rows {
		out[i] = v1User(&rows[i])
	}
	page := api.Page(out, total, p.Page)
	list := views.UserList{Users: out, Pagination: page.Meta.Pagination,
		Query:     consoleQuery(c, "created_at", true),
		MayCreate: h.Actions.Policy.May(access.PrincipalFrom(c.Request().Context()), policy.Register, policy.Platform)}
	return respond(c, http.StatusOK, page, View{Partial: views.UserTable(list), Page: views.UsersPage(list)})
}

// v1User is the V1User record of a listed user: the highest role, with
// super_admin shown as admin.
func v1User(u *models.ListedUser) api.V1User {
	role := models.RoleUser
	if u.TopRole != nil {
		role = *u.TopRole
	}
	if role == models.RoleSuperAdmin {
		role = models.RoleAdmin
	}
	return api.V1User{ID: itoa(u.ID), Username: u.Username, Email: u.Email, Status: u.Status, Role: role,
		CreatedAt: api.Timestamp(u.CreatedAt), LastLoginAt: api.OptionalTimestamp(u.LastLoginAt),
		PostCount: u.PostCount, IsVerified: u.IsVerified}
}

// Get answers GET /api/v1/admin/users/{id}: the user in full. Statuses:
// 200, 401, 403, 404.
func (h V1Users) Get(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	u, err := h.Store.UserDetail(ctx, id)
	if err != nil {
		return err
	}
	detail := v1UserDetail(u, h.now())
	if wantsJSON(c) {
		return c.JSON(http.StatusOK, api.OK(detail))
	}
	page, err := h.consolePage(ctx, detail)
	if err != nil {
		return err
	}
	return respond(c, http.StatusOK, api.OK(detail), View{Partial: views.UserLive(page), Page: views.UserDetailPage(page)})
}

// consolePage adds to a user's record what the console's page shows
// besides: the staff notes, the ban reason presets, and another admin's
// hold on the user's edit lock.
func (h V1Users) consolePage(ctx context.Context, u api.V1UserDetail) (views.UserPage, error) {
	id, _ := strconv.ParseInt(u.ID, 10, 64)
	who, target, pol := access.PrincipalFrom(ctx), policy.Person(id, u.Roles), h.Actions.Policy
	page := views.UserPage{User: u, SeesSessions: pol.May(who, policy.ViewUserSessions, target),
		SeesRelated: pol.May(who, policy.ViewRelatedAccounts, target),
		MayEdit:     pol.May(who, policy.UpdateUser, target), MayBan: pol.May(who, policy.BanUser, target),
		MaySilence: pol.May(who, policy.SilenceUser, target), MayNote: pol.May(who, policy.AddUserNote, target),
		MayDelete: who != nil && who.UserID != id && pol.MayOnceConfirmed(who, policy.DeleteAccount, target),
		BanLimits: views.BanLimits{Reason: actions.MaxBanReason, Notes: actions.MaxBanNotes, SilenceReason: actions.MaxSilenceReason}}
	page.MayResetPassword = pol.MayOnceConfirmed(who, policy.StartPasswordReset, target)
	page.MailsResets = h.Actions.SendMail
	notes, err := h.Store.UserNotes(ctx, id)
	if err != nil {
		return page, err
	}
	page.Notes = make([]api.V1Note, len(notes))
	for i := range notes {
		page.Notes[i] = v1Note(&notes[i].UserNote, notes[i].AuthorUsername)
	}
	ids := auditPeople(u.RecentAuditEntries)
	for _, b := range u.Bans {
		if b.CreatedBy != nil {
			ids = append(ids, *b.CreatedBy)
		}
	}
	if page.People, err = lookUpPeople(ctx, h.People, ids); err != nil {
		return page, err
	}
	if page.Reasons, err = h.Reasons.read(ctx); err != nil {
		return page, err
	}
	var locked *models.LockedError
	if err := h.Store.CheckLock(ctx, "user", u.ID, access.PrincipalFrom(ctx).UserID); errors.As(err, &locked) {
		page.LockedBy, page.LockedAt = locked.By, api.Timestamp(locked.At)
	} else if err != nil {
		return page, err
	}
	return page, nil
}

func v1UserDetail(u *models.UserDetail, now time.Time) api.V1UserDetail {
	out := api.V1UserDetail{V1User: v1User(&u.ListedUser), Roles: u.Roles, Notes: u.AdminNotes,
		Profile:            api.V1Profile{Name: u.Name, Bio: u.Bio, Location: u.Location, Image: u.Image},
		Bans:               make([]api.V1BanRecord, len(u.Bans)),
		Strikes:            make([]api.V1Strike, len(u.Strikes)),
		RecentPosts:        make([]api.V1PostBrief, len(u.RecentPosts)),
		RecentAuditEntries: make([]api.AuditEntry, len(u.RecentAudit)),
	}
	out.SilencedUntil, out.SilenceReason = silenceOf(&u.User, now)
	for i, b := range u.Bans {
		out.Bans[i] = api.V1BanRecord{ID: itoa(b.ID), Reason: b.Reason, Notes: b.Notes, CreatedAt: api.Timestamp(b.CreatedAt),
			CreatedBy: optionalID(b.CreatedBy), ExpiresAt: api.OptionalTimestamp(b.ExpiresAt), EndedAt: api.OptionalTimestamp(b.EndedAt),
			Active: b.EndedAt == nil && (b.ExpiresAt == nil || b.ExpiresAt.After(now))}
	}
	for i, st := range u.Strikes {
		out.Strikes[i] = api.V1Strike{Kind: st.Kind, Reason: st.Reason, At: api.Timestamp(st.At), By: st.Staff}
	}
	for i, p := range u.RecentPosts {
		out.RecentPosts[i] = api.V1PostBrief{ID: itoa(p.ID), Title: p.Title, Status: p.Status, ReportCount: p.ReportCount,
			CreatedAt: api.Timestamp(p.CreatedAt)}
	}
	for i := range u.RecentAudit {
		out.RecentAuditEntries[i] = auditEntry(&u.RecentAudit[i])
	}
	return out
}

func optionalID(id *int64) *string {
	if id == nil {
		return nil
	}
	s := itoa(*id)
	return &s
}

// Update answers PUT /api/v1/admin/users/{id} {status?, role?,
// isVerified?, notes?, reason?}: the updated record, with the fields before
// and after in the audit entry. Status banned bans the user, and active or
// inactive lifts a ban in force, through the ban action and its policy
// (users:manage). Statuses: 200, 401, 403, 404, 422, 423 while another
// admin holds the user's edit lock.
func (h V1Users) Update(c echo.Context) error {
	var req api.V1UserUpdate
	id, err := idAndBody(c, &req)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	ch := actions.UserChange{Status: req.Status, Role: req.Role, IsVerified: req.IsVerified, Notes: req.Notes, BanReason: req.BanReason()}
	after, err := h.Actions.UpdateUser(ctx, access.PrincipalFrom(ctx), id, ch)
	if err != nil {
		return err
	}
	return respondAction(c, http.StatusOK, api.OK(v1User(after)), Done{Toast: "Saved " + after.Username, Events: []string{"plaza:user", "plaza:users"}})
}

// Ban answers POST /api/v1/admin/users/{id}/ban {action, reason, duration?,
// notes?, removeContent?}. A ban replaces the one in force, sets the
// status banned and ends the user's sessions and tokens on their next
// request; a temporary one ends by itself. An unban ends the ban in force,
// and of a user no ban holds changes nothing. Statuses: 200, 401, 403 (self,
// or a super admin unless the caller holds admin:super), 404, 422, 423.
func (h V1Users) Ban(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	var req api.V1BanRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	d, err := req.Check()
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	res, err := h.Actions.Ban(ctx, access.PrincipalFrom(ctx), actions.BanInput{UserID: id, Unban: req.Action == "unban",
		Reason: req.Reason, Notes: req.Notes, Duration: d, DurationText: req.Duration, RemoveContent: req.RemoveContent})
	if err != nil {
		return err
	}
	out := api.V1BanResult{User: v1User(res.User), HiddenPosts: res.HiddenPosts}
	if res.Ban != nil {
		out.Ban = v1Ban(res.Ban)
	}
	toast := out.User.Username + " is banned"
	if req.Action == "unban" {
		toast = out.User.Username + " is no longer banned"
	}
	return respondAction(c, http.StatusOK, api.OK(out), Done{Toast: toast, Events: []string{"plaza:user", "plaza:users"}})
}

func v1Ban(b *models.Ban) *api.V1Ban {
	return &api.V1Ban{ID: itoa(b.ID), Reason: b.Reason, ExpiresAt: api.OptionalTimestamp(b.ExpiresAt),
		CreatedAt: api.Timestamp(b.CreatedAt), CreatedBy: optionalID(b.CreatedBy)}
}

// BulkUpdate answers POST /api/v1/admin/users/bulk-update {userIds,
// changes}: every named user changes in one transaction with one
// users.bulk_update audit entry holding each user's before and after, or
// none does. Statuses: 200, 401, 403 (the caller's own status or role
// among them), 404 naming unknown ids, 422, 423.
func (h V1Users) BulkUpdate(c echo.Context) error {
	var req api.V1BulkUpdate
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	ids, err := req.Check()
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	ch := actions.UserChange{Status: req.Changes.Status, Role: req.Changes.Role, IsVerified: req.Changes.IsVerified}
	res, err := h.Actions.BulkUpdateUsers(ctx, access.PrincipalFrom(ctx), ids, ch)
	if err != nil {
		return err
	}
	out := api.V1BulkResult{Updated: res.Updated, Users: make([]api.V1User, len(res.Users))}
	for i := range res.Users {
		out.Users[i] = v1User(&res.Users[i])
	}
	return respondAction(c, http.StatusOK, api.OK(out), Done{Toast: "Changed " + plural(out.Updated, "user"), Events: []string{"plaza:users"}})
}

// Notes answers GET /api/v1/admin/users/{id}/notes: the staff notes on the
// user, newest first. Statuses: 200, 401, 403, 404.
func (h V1Users) Notes(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	notes, err := h.Store.UserNotes(c.Request().Context(), id)
	if err != nil {
		return err
	}
	out := make([]api.V1Note, len(notes))
	for i := range notes {
		out[i] = v1Note(&notes[i].UserNote, notes[i].AuthorUsername)
	}
	return c.JSON(http.StatusOK, api.OK(out))
}

// AddNote answers POST /api/v1/admin/users/{id}/notes {body, kind?}: 201
// with the note; notes are never edited or removed. Statuses: 201, 401,
// 403, 404, 422.
func (h V1Users) AddNote(c echo.Context) error {
	var req api.V1NewNote
	id, err := idAndBody(c, &req)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	caller := access.PrincipalFrom(ctx)
	note, err := h.Actions.AddNote(ctx, caller, id, req.Kind, req.Body)
	if err != nil {
		return err
	}
	name := caller.Username
	toast := "Note added"
	if req.Kind == "warning" {
		toast = "Warning recorded as a strike"
	}
	return respondAction(c, http.StatusCreated, api.OK(v1Note(note, &name)), Done{Toast: toast, Events: []string{"plaza:user"}})
}

func v1Note(n *models.UserNote, author *string) api.V1Note {
	out := api.V1Note{ID: itoa(n.ID), Kind: n.Kind, Body: n.Body, CreatedAt: api.Timestamp(n.CreatedAt)}
	if n.AuthorID != nil && author != nil {
		out.Author = &api.V1NoteAuthor{ID: itoa(*n.AuthorID), Username: *author}
	}
	return out
}
