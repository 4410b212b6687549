package handlers

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
)

// AdminUserStore is what the unversioned admin handlers need.
type AdminUserStore interface {
	AdminUsers(ctx context.Context, q models.AdminUsersQuery) (*models.AdminUserPage, error)
	AdminUserByID(ctx context.Context, id int64) (*models.AdminUserRow, error)
	Stats(ctx context.Context) (*models.Stats, error)
}

// AdminUsers answers the unversioned admin family (docs/api.md,
// "Unversioned admin"): the users list older clients call, ban, unban
// and the platform's totals. Errors are {error, details?} with zod issues.
type AdminUsers struct {
	Store    AdminUserStore
	Actions  *actions.Actions
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
	return c.JSON(http.StatusOK, api.NewAdminUserList(users, q.Page, q.Limit, res.Total))
}

// readFailure is the list's 500: error and details, both strings;
// the cause goes to the log only.
func readFailure(err error) error {
	return &api.Error{Status: http.StatusInternalServerError, Code: api.CodeServerError,
		Message: "Failed to fetch users", Details: "The users could not be read; the server log has the cause", Cause: err}
}

// Ban answers POST /api/admin/users/{id}/ban {reason, duration?, notes?}
// through the one ban action the versioned family uses: the user is
// banned, signed out on its next request, and its tokens stop working.
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
	return h.ban(c, actions.BanInput{UserID: id, Reason: req.Reason, Notes: req.Notes, Duration: d, DurationText: req.Duration})
}

// Unban answers POST /api/admin/users/{id}/unban: the ban in force ends and
// the user is active. A user who is not banned is 409.
func (h AdminUsers) Unban(c echo.Context) error {
	id, err := userIDParam(c)
	if err != nil {
		return err
	}
	return h.ban(c, actions.BanInput{UserID: id, Unban: true})
}

// ban runs the ban action, then answers {success, user} with the user as
// it now is.
func (h AdminUsers) ban(c echo.Context, in actions.BanInput) error {
	ctx := c.Request().Context()
	res, err := h.Actions.Ban(ctx, access.PrincipalFrom(ctx), in)
	if err != nil {
		return err
	}
	if res.NotBanned {
		return &api.Error{Status: http.StatusConflict, Code: api.CodeConflict, Message: "User is not banned", Cause: models.ErrNotBanned}
	}
	row, err := h.Store.AdminUserByID(ctx, in.UserID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, api.AdminBanResult{Success: true, User: adminUser(row)})
}

// checkBanRequest reads the ban's duration; the reason and notes are the
// ban action's to check, the same at every door.
func checkBanRequest(req *api.AdminBanRequest) (time.Duration, error) {
	if req.Duration == "" {
		return 0, nil
	}
	d, err := api.ParseDuration(req.Duration)
	if err != nil {
		return 0, api.Invalid(api.Issue{Path: []string{"duration"}, Code: "invalid_string", Message: "duration: " + err.Error()})
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
	for _, s := range []string{models.PostPublished, models.PostDraft, models.PostHidden, models.PostFlagged, models.PostPending} {
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
		HasAdmin: has(access.RoleAdmin, access.RoleSuperAdmin), HasModerator: has(access.RoleModerator),
		SubscriptionCount: r.SubscriptionCount, ActiveSubscriptions: r.ActiveSubscriptions,
		SubscriptionNames: r.SubscriptionNames, HasActiveSubscription: r.ActiveSubscriptions > 0,
		IsTimedOut: r.ActiveTimeoutID != nil, TimeoutCount: r.TimeoutCount, ActiveTimeoutReason: r.ActiveTimeoutReason,
		TimeoutExpires: api.OptionalTimestamp(r.TimeoutExpires), ActiveTimeoutID: r.ActiveTimeoutID,
		Status: r.Status, Username: r.Username,
	}
}
