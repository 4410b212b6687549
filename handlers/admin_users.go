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
)

// AdminUserStore is what the unversioned admin handlers need.
type AdminUserStore interface {
	Change(ctx context.Context, fn func(ctx context.Context) error) error
	AdminUsers(ctx context.Context, q models.AdminUsersQuery) (*models.AdminUserPage, error)
	AdminUserByID(ctx context.Context, id int64) (*models.AdminUserRow, error)
	UserRoles(ctx context.Context, userID int64) ([]string, error)
	BanUser(ctx context.Context, in models.BanInput) (*models.Ban, error)
	UnbanUser(ctx context.Context, userID, adminID int64) error
	Stats(ctx context.Context) (*models.Stats, error)
}

// AdminUsers answers the unversioned admin family (docs/api.md,
// "Unversioned admin"): the users list older clients call, ban, unban
// and the platform's totals. Errors are {error, details?} with zod issues.
type AdminUsers struct {
	Store    AdminUserStore
	Started  time.Time
	Now      func() time.Time
	Database string
}

// List answers GET /api/admin/users?page&limit&search.
func (h AdminUsers) List(c echo.Context) error {
	q, err := api.ParseAdminUsersQuery(c.QueryParams())
	if err != nil {
		return err
	}
	res, err := h.Store.AdminUsers(c.Request().Context(), models.AdminUsersQuery{Page: q.Page, Limit: q.Limit, Search: q.Search})
	if err != nil {
		return readFailure(err)
	}
	users := make([]api.AdminUser, len(res.Rows))
	for i := range res.Rows {
		users[i] = adminUser(&res.Rows[i])
	}
	return c.JSON(http.StatusOK, api.NewAdminUserList(users, q.Page, q.Limit, res.Total, res.Capped))
}

// readFailure is the list's 500: error and details, both strings;
// the cause goes to the log only.
func readFailure(err error) error {
	return &api.Error{Status: http.StatusInternalServerError, Code: api.CodeServerError,
		Message: "Failed to fetch users", Details: "The users could not be read; the server log has the cause", Cause: err}
}

// Ban answers POST /api/admin/users/{id}/ban {reason, duration?, notes?}
// with the effect of the versioned ban: the user is banned, signed out on
// its next request, and its tokens stop working.
func (h AdminUsers) Ban(c echo.Context) error {
	id, err := userIDParam(c)
	if err != nil {
		return err
	}
	var req api.AdminBanRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	d, err := checkBanRequest(&req)
	if err != nil {
		return err
	}
	caller := auth.PrincipalFrom(c.Request().Context())
	return h.change(c, id, "ban", func(ctx context.Context) error {
		if err := h.mayBan(ctx, caller, id); err != nil {
			return err
		}
		ban, err := h.Store.BanUser(ctx, models.BanInput{UserID: id, AdminID: caller.UserID, Reason: req.Reason, Notes: req.Notes, Duration: d})
		if err == nil {
			setAuditTarget(ctx, "user", itoa(id), map[string]any{"reason": req.Reason, "duration": req.Duration,
				"expiresAt": api.OptionalTimestamp(ban.ExpiresAt), "banId": ban.ID})
		}
		return err
	})
}

// Unban answers POST /api/admin/users/{id}/unban: the ban in force ends and
// the user is active. A user who is not banned is 409.
func (h AdminUsers) Unban(c echo.Context) error {
	id, err := userIDParam(c)
	if err != nil {
		return err
	}
	caller := auth.PrincipalFrom(c.Request().Context())
	return h.change(c, id, "unban", func(ctx context.Context) error {
		err := h.Store.UnbanUser(ctx, id, caller.UserID)
		if errors.Is(err, models.ErrNotBanned) {
			return &api.Error{Status: http.StatusConflict, Code: api.CodeConflict, Message: "User is not banned", Cause: err}
		}
		return err
	})
}

// change runs fn in one transaction with the audit entry, then answers
// {success, user} with the user as it now is.
func (h AdminUsers) change(c echo.Context, id int64, verb string, fn func(ctx context.Context) error) error {
	ctx := c.Request().Context()
	var row *models.AdminUserRow
	err := h.Store.Change(ctx, func(ctx context.Context) error {
		before, err := h.Store.AdminUserByID(ctx, id)
		if err != nil {
			return err
		}
		if err := fn(ctx); err != nil {
			return err
		}
		if row, err = h.Store.AdminUserByID(ctx, id); err != nil {
			return err
		}
		setAuditTarget(ctx, "user", itoa(id), map[string]any{"before": map[string]any{"status": before.Status},
			"after": map[string]any{"status": row.Status}, "via": "unversioned " + verb})
		return nil
	})
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, api.AdminBanResult{Success: true, User: adminUser(row)})
}

// mayBan refuses banning oneself, and a super_admin unless the caller is
// one.
func (h AdminUsers) mayBan(ctx context.Context, caller *auth.Principal, id int64) error {
	if caller.UserID == id {
		return &api.Error{Status: http.StatusForbidden, Code: api.CodeForbidden, Message: "You cannot ban yourself"}
	}
	roles, err := h.Store.UserRoles(ctx, id)
	if err != nil {
		return err
	}
	if auth.HighestRole(roles) == auth.RoleSuperAdmin && caller.Role() != auth.RoleSuperAdmin {
		return &api.Error{Status: http.StatusForbidden, Code: api.CodeForbidden, Message: "Only a super admin can ban a super admin"}
	}
	return nil
}

func checkBanRequest(req *api.AdminBanRequest) (time.Duration, error) {
	var issues []api.Issue
	req.Reason = strings.TrimSpace(req.Reason)
	switch n := len([]rune(req.Reason)); {
	case n == 0:
		issues = append(issues, api.Issue{Path: []string{"reason"}, Code: "too_small", Message: "A reason is required"})
	case n > 500:
		issues = append(issues, api.Issue{Path: []string{"reason"}, Code: "too_big", Message: "String must contain at most 500 character(s)"})
	}
	if len([]rune(req.Notes)) > 2000 {
		issues = append(issues, api.Issue{Path: []string{"notes"}, Code: "too_big", Message: "String must contain at most 2000 character(s)"})
	}
	var d time.Duration
	if req.Duration != "" {
		var err error
		if d, err = api.ParseDuration(req.Duration); err != nil {
			issues = append(issues, api.Issue{Path: []string{"duration"}, Code: "invalid_string", Message: "duration: " + err.Error()})
		}
	}
	if len(issues) > 0 {
		return 0, api.Invalid(issues...)
	}
	return d, nil
}

// userIDParam reads the :id of a user route: a positive integer, else a
// validation error (the unversioned family's ids are numbers).
func userIDParam(c echo.Context) (int64, error) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id < 1 {
		return 0, api.Invalid(api.Issue{Path: []string{"id"}, Code: "invalid_type", Expected: "number",
			Received: "string", Message: "The user id must be a positive integer"})
	}
	return id, nil
}

// Stats answers GET /api/admin/stats.
func (h AdminUsers) Stats(c echo.Context) error {
	st, err := h.Store.Stats(c.Request().Context())
	if err != nil {
		return err
	}
	out := api.AdminStats{
		Users:       api.UserTotals{Total: st.Users, Active: st.ActiveUsers, Banned: st.BannedUsers, NewToday: st.NewUsersToday},
		Posts:       map[string]int{"total": 0},
		OpenReports: st.OpenReports, EventsToday: st.EventsToday, DatabaseSizeBytes: st.DatabaseBytes, Database: h.Database,
		Uptime: FormatUptime(h.Now().Sub(h.Started)), Timestamp: api.Timestamp(h.Now()),
	}
	for _, s := range []string{models.PostPublished, models.PostDraft, models.PostHidden, models.PostFlagged} {
		out.Posts[s] = st.PostsByStatus[s]
		out.Posts["total"] += st.PostsByStatus[s]
	}
	return c.JSON(http.StatusOK, out)
}

// adminUser renders a row as GET /api/admin/users lists it.
func adminUser(r *models.AdminUserRow) api.AdminUser {
	roles := []string{}
	if r.RoleNames != nil {
		roles = strings.Split(*r.RoleNames, ",")
	}
	has := func(names ...string) bool {
		for _, n := range names {
			if slices.Contains(roles, n) {
				return true
			}
		}
		return false
	}
	return api.AdminUser{
		ID: r.ID, Name: r.Name, Email: r.Email, Image: r.Image, CreatedAt: api.Timestamp(r.CreatedAt),
		ProfilePublic: r.ProfilePublic, Bio: r.Bio, Location: r.Location, LastLogin: api.OptionalTimestamp(r.LastLoginAt),
		LoginCount: r.LoginCount, IsActive: r.IsActive, AdminNotes: r.AdminNotes,
		ProviderName: r.ProviderName, ProviderEmail: r.ProviderEmail, ProviderVerified: r.ProviderVerified,
		ProviderLastUsed: api.OptionalTimestamp(r.ProviderLastUsed),
		RoleCount:        r.RoleCount, RoleNames: r.RoleNames,
		HasAdmin: has(auth.RoleAdmin, auth.RoleSuperAdmin), HasModerator: has(auth.RoleModerator),
		SubscriptionCount: r.SubscriptionCount, ActiveSubscriptions: r.ActiveSubscriptions,
		SubscriptionNames: r.SubscriptionNames, HasActiveSubscription: r.ActiveSubscriptions > 0,
		IsTimedOut: r.ActiveTimeoutID != nil, TimeoutCount: r.TimeoutCount, ActiveTimeoutReason: r.ActiveTimeoutReason,
		TimeoutExpires: api.OptionalTimestamp(r.TimeoutExpires), ActiveTimeoutID: r.ActiveTimeoutID,
		Status: r.Status, Username: r.Username,
	}
}
