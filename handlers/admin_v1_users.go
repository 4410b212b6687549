package handlers

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/models"
)

// V1UserStore is what the versioned admin users handlers need.
type V1UserStore interface {
	ListUsers(ctx context.Context, f models.UserListFilter) ([]models.ListedUser, int, error)
	UserDetail(ctx context.Context, id int64) (*models.UserDetail, error)
}

// V1Users answers the versioned admin family's users routes (interface.md
// 4.1, DECISIONS.md section 4).
type V1Users struct {
	Store V1UserStore
	Now   func() time.Time
}

func (h V1Users) now() time.Time { return h.Now() }

// List answers GET /api/v1/admin/users: a page of users filtered by
// status, role and search, sorted as asked. Statuses: 200, 401, 403, 422.
func (h V1Users) List(c echo.Context) error {
	p, err := api.ParseV1Users(c.QueryParams())
	if err != nil {
		return err
	}
	rows, total, err := h.Store.ListUsers(c.Request().Context(), models.UserListFilter{
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
	return c.JSON(http.StatusOK, api.Page(out, total, p.Page))
}

// v1User is the 2.2 record of a listed user: the highest role, with
// super_admin shown as admin (DECISIONS.md section 2).
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
	u, err := h.Store.UserDetail(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, api.OK(v1UserDetail(u, h.now())))
}

func v1UserDetail(u *models.UserDetail, now time.Time) api.V1UserDetail {
	out := api.V1UserDetail{V1User: v1User(&u.ListedUser), Roles: u.Roles,
		Profile:            api.V1Profile{Name: u.Name, Bio: u.Bio, Location: u.Location, Image: u.Image},
		Bans:               make([]api.V1BanRecord, len(u.Bans)),
		RecentPosts:        make([]api.V1PostBrief, len(u.RecentPosts)),
		RecentAuditEntries: make([]api.AuditEntry, len(u.RecentAudit)),
	}
	for i, b := range u.Bans {
		out.Bans[i] = api.V1BanRecord{ID: itoa(b.ID), Reason: b.Reason, Notes: b.Notes, CreatedAt: api.Timestamp(b.CreatedAt),
			CreatedBy: optionalID(b.CreatedBy), ExpiresAt: api.OptionalTimestamp(b.ExpiresAt), EndedAt: api.OptionalTimestamp(b.EndedAt),
			Active: b.EndedAt == nil && (b.ExpiresAt == nil || b.ExpiresAt.After(now))}
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
