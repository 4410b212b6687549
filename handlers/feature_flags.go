package handlers

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/flags"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/views"
)

// FlagStore is what the feature flag handlers read; their writes are
// actions.
type FlagStore interface {
	FeatureFlags(ctx context.Context) ([]models.FeatureFlag, error)
	FeatureFlagPage(ctx context.Context, limit, offset int) ([]models.FeatureFlag, int, error)
}

// FeatureFlags answers the feature flag routes: the admin's list, put and
// delete, and each flag's answer for the
// signed-in user.
type FeatureFlags struct {
	Store   FlagStore
	Actions *actions.Actions
	// Cache holds the flags the users' answers come from.
	Cache *flags.Cache
}

// List answers GET /api/v1/admin/feature-flags?limit&offset: a page of the
// flags, by name, with its pagination; and the console's feature flags
// page from the same result. Statuses: 200, 401, 403, 422.
func (h FeatureFlags) List(c echo.Context) error {
	page, issues := api.ParsePage(c.QueryParams())
	if len(issues) > 0 {
		return api.Invalid(issues...)
	}
	rows, total, err := h.Store.FeatureFlagPage(c.Request().Context(), page.Limit, page.Offset)
	if err != nil {
		return err
	}
	out := make([]api.V1FeatureFlag, len(rows))
	for i := range rows {
		out[i] = v1Flag(&rows[i])
	}
	res := api.Page(out, total, page)
	query := consoleQuery(c, "", true)
	query.Path = api.PathConsoleFlags
	l := views.FlagList{Flags: out, Pagination: res.Meta.Pagination, Query: query, DescriptionLimit: actions.MaxFlagDescription}
	return respond(c, http.StatusOK, res, View{Partial: views.FlagTable(l), Page: views.FlagsPage(l)})
}

// Put answers PUT /api/v1/admin/feature-flags/{name} {enabled?,
// rolloutPercentage?, description?}: 201 with a new flag, 200 with a
// changed one; 423 while another admin holds the flag's edit lock.
func (h FeatureFlags) Put(c echo.Context) error {
	name := c.Param("name")
	var req api.V1FlagUpdate
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	ctx := c.Request().Context()
	res, err := h.Actions.PutFeatureFlag(ctx, access.PrincipalFrom(ctx), name,
		actions.FlagChange{Enabled: req.Enabled, RolloutPercentage: req.RolloutPercentage, Description: req.Description})
	if err != nil {
		return err
	}
	status, toast := http.StatusOK, "Saved "+name
	if req.Enabled != nil && req.RolloutPercentage == nil && req.Description == nil {
		toast = "Turned off " + name
		if *req.Enabled {
			toast = "Turned on " + name
		}
	}
	if res.Before == nil {
		status, toast = http.StatusCreated, "Created "+name
	}
	return respondAction(c, status, api.OK(v1Flag(res.After)), Done{Toast: toast, Events: []string{"plaza:flags"}})
}

// Delete answers DELETE /api/v1/admin/feature-flags/{name}: {deleted, name};
// an unknown flag is 404.
func (h FeatureFlags) Delete(c echo.Context) error {
	name := c.Param("name")
	ctx := c.Request().Context()
	if err := h.Actions.DeleteFeatureFlag(ctx, access.PrincipalFrom(ctx), name); err != nil {
		return err
	}
	return respondAction(c, http.StatusOK, api.OK(api.DeletedFlag{Deleted: true, Name: name}),
		Done{Toast: "Deleted " + name, Events: []string{"plaza:flags"}})
}

// ForUser answers GET /api/feature-flags: {name: on} for the signed-in
// user, each flag's rollout decided by a stable hash of its name and the
// user's id, from the instance's cache of flags.
func (h FeatureFlags) ForUser(c echo.Context) error {
	ctx := c.Request().Context()
	all, err := h.Cache.Get(func() ([]flags.Flag, error) {
		rows, err := h.Store.FeatureFlags(ctx)
		out := make([]flags.Flag, len(rows))
		for i, f := range rows {
			out[i] = flags.Flag{Name: f.Name, Enabled: f.Enabled, Percent: f.RolloutPercentage}
		}
		return out, err
	})
	if err != nil {
		return err
	}
	user := access.PrincipalFrom(ctx).UserID
	out := make(api.FlagsForUser, len(all))
	for _, f := range all {
		out[f.Name] = flags.On(f.Name, f.Enabled, f.Percent, user)
	}
	return c.JSON(http.StatusOK, out)
}

func v1Flag(f *models.FeatureFlag) api.V1FeatureFlag {
	return api.V1FeatureFlag{Name: f.Name, Description: f.Description, Enabled: f.Enabled, RolloutPercentage: f.RolloutPercentage,
		CreatedAt: api.Timestamp(f.CreatedAt), UpdatedAt: api.Timestamp(f.UpdatedAt), UpdatedBy: optionalID(f.UpdatedBy)}
}
