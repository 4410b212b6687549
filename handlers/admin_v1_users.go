package handlers

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/models"
)

// V1UserStore is what the versioned admin users handlers need.
type V1UserStore interface {
	ListUsers(ctx context.Context, f models.UserListFilter) ([]models.ListedUser, int, error)
}

// V1Users answers the versioned admin family's users routes (interface.md
// 4.1, DECISIONS.md section 4).
type V1Users struct {
	Store V1UserStore
}

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
