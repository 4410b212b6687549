package handlers

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/views"
)

// V1UserStore is what the versioned admin users handlers need.
type V1UserStore interface {
	ChangeLocked(ctx context.Context, typ, id string, userID int64, fn func(ctx context.Context) error) error
	ListUsers(ctx context.Context, f models.UserListFilter) ([]models.ListedUser, int, bool, error)
	ListedUserByID(ctx context.Context, id int64) (*models.ListedUser, error)
	UserDetail(ctx context.Context, id int64) (*models.UserDetail, error)
	UpdateUserAsAdmin(ctx context.Context, id, adminID int64, ch models.UserAdminChange) error
	BanUser(ctx context.Context, in models.BanInput) (*models.Ban, error)
	UnbanUser(ctx context.Context, userID, adminID int64) error
	ActiveBan(ctx context.Context, userID int64) (*models.Ban, error)
	HideUserPosts(ctx context.Context, id, adminID int64, reason string) (int, error)
	Change(ctx context.Context, fn func(ctx context.Context) error) error
	ListedUsersByID(ctx context.Context, ids []int64) ([]models.ListedUser, error)
	BulkUpdateUsers(ctx context.Context, ids []int64, adminID int64, ch models.UserAdminChange) (int, error)
	CheckLocks(ctx context.Context, typ string, ids []string, userID int64) error
	CheckLock(ctx context.Context, typ, id string, userID int64) error
	UserNotes(ctx context.Context, id int64) ([]models.ListedNote, error)
	AddUserNote(ctx context.Context, id, author int64, kind, body string) (*models.UserNote, error)
}

// V1Users answers the versioned admin family's users routes
// (/api/v1/admin/users), and the console's users pages from the
// same results.
type V1Users struct {
	Store   V1UserStore
	Reasons ModerationReasons
	Now     func() time.Time
}

func (h V1Users) now() time.Time { return h.Now() }

// List answers GET /api/v1/admin/users: a page of users filtered by
// status, role and search, sorted as asked. Statuses: 200, 401, 403, 422.
func (h V1Users) List(c echo.Context) error {
	p, err := api.ParseV1Users(c.QueryParams())
	if err != nil {
		return err
	}
	rows, total, capped, err := h.Store.ListUsers(c.Request().Context(), models.UserListFilter{
		Status: p.Status, Role: p.Role, Search: p.Search, Sort: p.Sort, Desc: p.Desc,
		Limit: p.Page.Limit, Offset: p.Page.Offset,
	})
	if err != nil {
		return err
	}
	out := make([]api.V1User, len(rows))
	for i := range rows {
		out[i] = v1User(&rows[i])
	}
	page := api.CappedPage(out, total, capped, p.Page)
	list := views.UserList{Users: out, Pagination: page.Meta.Pagination,
		Query: consoleQuery(c, "created_at", true)}
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
	page := views.UserPage{User: u}
	id, _ := strconv.ParseInt(u.ID, 10, 64)
	notes, err := h.Store.UserNotes(ctx, id)
	if err != nil {
		return page, err
	}
	page.Notes = make([]api.V1Note, len(notes))
	for i := range notes {
		page.Notes[i] = v1Note(&notes[i].UserNote, notes[i].AuthorUsername)
	}
	if page.Reasons, err = h.Reasons.read(ctx); err != nil {
		return page, err
	}
	var locked *models.LockedError
	if err := h.Store.CheckLock(ctx, "user", u.ID, auth.PrincipalFrom(ctx).UserID); errors.As(err, &locked) {
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
// isVerified?, notes?}: the updated V1User record, with the fields before and
// after in the audit entry. Statuses: 200, 401, 403, 404, 422, 423 while
// another admin holds the user's edit lock.
func (h V1Users) Update(c echo.Context) error {
	var req api.V1UserUpdate
	id, err := idAndBody(c, &req)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	caller := auth.PrincipalFrom(ctx)
	var after *models.ListedUser
	err = h.Store.ChangeLocked(ctx, "user", itoa(id), caller.UserID, func(ctx context.Context) error {
		before, err := h.Store.ListedUserByID(ctx, id)
		if err != nil {
			return err
		}
		if err := h.mayChange(ctx, caller, before, req); err != nil {
			return err
		}
		ch := models.UserAdminChange{Status: req.Status, IsVerified: req.IsVerified, Notes: req.Notes}
		if req.Role != nil {
			ch.Roles = auth.ImpliedRoles(*req.Role)
		}
		if err := h.Store.UpdateUserAsAdmin(ctx, id, caller.UserID, ch); err != nil {
			return err
		}
		if after, err = h.Store.ListedUserByID(ctx, id); err != nil {
			return err
		}
		setAuditTarget(ctx, "user", itoa(id), map[string]any{"before": auditFields(before), "after": auditFields(after)})
		return nil
	})
	if err != nil {
		return err
	}
	return respondAction(c, http.StatusOK, api.OK(v1User(after)), Done{Toast: "Saved " + after.Username, Events: []string{"plaza:user", "plaza:users"}})
}

// mayChange refuses an admin's changing their own status or role (an
// admin could lock themselves out), and changing a super admin's unless
// the caller is one.
func (h V1Users) mayChange(ctx context.Context, caller *auth.Principal, u *models.ListedUser, req api.V1UserUpdate) error {
	if caller.UserID == u.ID && (req.Status != nil || req.Role != nil) {
		return &api.Error{Status: http.StatusForbidden, Code: api.CodeInsufficientAdminPermissions,
			Message: "You cannot change your own status or role"}
	}
	return superOnly(caller, u, "Only a super admin can change a super admin")
}

// superOnly refuses acting on a super admin unless the caller is one.
func superOnly(caller *auth.Principal, u *models.ListedUser, msg string) error {
	if u.TopRole != nil && *u.TopRole == auth.RoleSuperAdmin && caller.Role() != auth.RoleSuperAdmin {
		return &api.Error{Status: http.StatusForbidden, Code: api.CodeInsufficientAdminPermissions,
			Message: msg, RequiredPermission: auth.PermAdminSuper}
	}
	return nil
}

// auditFields are the fields an admin's update may change, as the audit
// entry keeps them before and after.
func auditFields(u *models.ListedUser) map[string]any {
	r := v1User(u)
	return map[string]any{"status": r.Status, "role": r.Role, "isVerified": r.IsVerified, "notes": u.AdminNotes}
}

// Ban answers POST /api/v1/admin/users/{id}/ban {action, reason, duration?,
// notes?, removeContent?}. A ban replaces the one in force, sets the
// status banned and ends the user's sessions and tokens on their next
// request; a temporary one ends by itself. An unban ends the ban in force,
// and of a user no ban holds changes nothing. Statuses: 200, 401, 403 (self,
// or a super admin unless the caller is one), 404, 422, 423.
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
	caller := auth.PrincipalFrom(ctx)
	var out api.V1BanResult
	err = h.Store.ChangeLocked(ctx, "user", itoa(id), caller.UserID, func(ctx context.Context) error {
		target, err := h.Store.ListedUserByID(ctx, id)
		if err != nil {
			return err
		}
		if err := mayBan(caller, target); err != nil {
			return err
		}
		if req.Action == "ban" {
			err = h.ban(ctx, caller.UserID, id, req, d, &out)
		} else {
			err = h.unban(ctx, caller.UserID, id, &out)
		}
		if err != nil {
			return err
		}
		after, err := h.Store.ListedUserByID(ctx, id)
		if err == nil {
			out.User = v1User(after)
			setAuditTarget(ctx, "user", itoa(id), map[string]any{"action": req.Action,
				"before": map[string]any{"status": target.Status}, "after": map[string]any{"status": after.Status}})
		}
		return err
	})
	if err != nil {
		return err
	}
	toast := out.User.Username + " is banned"
	if req.Action == "unban" {
		toast = out.User.Username + " is no longer banned"
	}
	return respondAction(c, http.StatusOK, api.OK(out), Done{Toast: toast, Events: []string{"plaza:user", "plaza:users"}})
}

func (h V1Users) ban(ctx context.Context, admin, id int64, req api.V1BanRequest, d time.Duration, out *api.V1BanResult) error {
	b, err := h.Store.BanUser(ctx, models.BanInput{UserID: id, AdminID: admin, Reason: req.Reason, Notes: req.Notes, Duration: d})
	if err != nil {
		return err
	}
	out.Ban = v1Ban(b)
	details := map[string]any{"reason": req.Reason, "duration": req.Duration, "expiresAt": out.Ban.ExpiresAt, "banId": b.ID}
	if req.RemoveContent {
		if out.HiddenPosts, err = h.Store.HideUserPosts(ctx, id, admin, req.Reason); err != nil {
			return err
		}
		details["hiddenPosts"] = out.HiddenPosts
	}
	setAuditTarget(ctx, "user", itoa(id), details)
	return nil
}

func (h V1Users) unban(ctx context.Context, admin, id int64, out *api.V1BanResult) error {
	b, err := h.Store.ActiveBan(ctx, id)
	if err != nil {
		return err
	}
	err = h.Store.UnbanUser(ctx, id, admin)
	if errors.Is(err, models.ErrNotBanned) {
		return nil
	}
	if b != nil {
		out.Ban = v1Ban(b)
	}
	return err
}

// mayBan refuses banning oneself, and a super admin unless the caller is
// one.
func mayBan(caller *auth.Principal, u *models.ListedUser) error {
	if caller.UserID == u.ID {
		return &api.Error{Status: http.StatusForbidden, Code: api.CodeInsufficientAdminPermissions, Message: "You cannot ban yourself"}
	}
	return superOnly(caller, u, "Only a super admin can ban a super admin")
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
	caller := auth.PrincipalFrom(ctx)
	ch := models.UserAdminChange{Status: req.Changes.Status, IsVerified: req.Changes.IsVerified}
	if req.Changes.Role != nil {
		ch.Roles = auth.ImpliedRoles(*req.Changes.Role)
	}
	var out api.V1BulkResult
	err = h.Store.Change(ctx, func(ctx context.Context) error {
		before, err := h.bulkTargets(ctx, caller, ids, ch)
		if err != nil {
			return err
		}
		if out.Updated, err = h.Store.BulkUpdateUsers(ctx, ids, caller.UserID, ch); err != nil {
			return err
		}
		after, err := h.Store.ListedUsersByID(ctx, ids)
		if err != nil {
			return err
		}
		out.Users = make([]api.V1User, len(after))
		changes := make([]map[string]any, len(after))
		for i := range after {
			out.Users[i] = v1User(&after[i])
			changes[i] = map[string]any{"id": itoa(after[i].ID), "before": auditFields(&before[i]), "after": auditFields(&after[i])}
		}
		setAuditTarget(ctx, "users", "", map[string]any{"count": len(after), "users": changes})
		return nil
	})
	if err != nil {
		return err
	}
	return respondAction(c, http.StatusOK, api.OK(out), Done{Toast: "Changed " + plural(out.Updated, "user"), Events: []string{"plaza:users"}})
}

// bulkTargets reads the users a bulk update names, in id order, after
// checking that all exist, that none is the caller when status or role
// change, and that no other admin holds any one's edit lock.
func (h V1Users) bulkTargets(ctx context.Context, caller *auth.Principal, ids []int64, ch models.UserAdminChange) ([]models.ListedUser, error) {
	users, err := h.Store.ListedUsersByID(ctx, ids)
	if err != nil {
		return nil, err
	}
	if len(users) < len(ids) {
		return nil, &api.Error{Status: http.StatusNotFound, Code: api.CodeNotFound,
			Message: "No user has id " + strings.Join(missingIDs(ids, users), ", ")}
	}
	if (ch.Status != nil || ch.Roles != nil) && slices.Contains(ids, caller.UserID) {
		return nil, &api.Error{Status: http.StatusForbidden, Code: api.CodeInsufficientAdminPermissions,
			Message: "You cannot change your own status or role"}
	}
	keys := make([]string, len(ids))
	for i, id := range ids {
		keys[i] = itoa(id)
	}
	return users, h.Store.CheckLocks(ctx, "user", keys, caller.UserID)
}

// missingIDs lists the ids no user of found has.
func missingIDs(ids []int64, found []models.ListedUser) []string {
	have := map[int64]bool{}
	for _, u := range found {
		have[u.ID] = true
	}
	var out []string
	for _, id := range ids {
		if !have[id] {
			out = append(out, itoa(id))
		}
	}
	return out
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
	caller := auth.PrincipalFrom(ctx)
	var note *models.UserNote
	err = h.Store.Change(ctx, func(ctx context.Context) error {
		if _, err := h.Store.ListedUserByID(ctx, id); err != nil {
			return err
		}
		if note, err = h.Store.AddUserNote(ctx, id, caller.UserID, req.Kind, req.Body); err != nil {
			return err
		}
		setAuditTarget(ctx, "user", itoa(id), map[string]any{"kind": req.Kind, "noteId": note.ID})
		return nil
	})
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
