package handlers

import (
	"context"
	"errors"
	"net/http"

	"github.com/alexedwards/scs/v2"
	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/views"
)

// SystemStore is what the maintenance handlers read; queueing a job is
// an action.
type SystemStore interface {
	MaintenanceJobByID(ctx context.Context, id string) (*models.MaintenanceJob, error)
	MaintenanceJobs(ctx context.Context, limit, offset int) ([]models.MaintenanceJob, int, error)
}

// System answers the maintenance routes.
type System struct {
	Store    SystemStore
	People   People
	Actions  *actions.Actions
	Sessions *scs.SessionManager
}

// Maintenance answers POST /api/v1/admin/system/maintenance {action, scope,
// notify}: 202 with the queued job; 409 while a job of the action is
// queued or running. A job that signs everyone else out asks first: the
// console gets a confirmation step naming how many sessions end (200,
// nothing queued) until it sends that count back; an API client that
// sends a count no longer right gets 409.
func (h System) Maintenance(c echo.Context) error {
	var req api.V1MaintenanceRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	ctx := c.Request().Context()
	console := api.FormatOf(c.Request()) == api.FormatPartial
	j, err := h.Actions.QueueMaintenance(ctx, access.PrincipalFrom(ctx), actions.MaintenanceInput{
		Action: req.Action, Scope: req.Scope, Notify: req.Notify,
		KeepSession: h.Sessions.Token(ctx), Confirm: req.Confirm, AlwaysConfirm: console})
	var (
		busy  *models.BusyError
		count *actions.SignOutsError
	)
	switch {
	case errors.As(err, &count) && console:
		noStore(c)
		return render(c, http.StatusOK, views.MaintenanceConfirm(req.Action, count.Sessions, count.People, count.Given != nil))
	case errors.As(err, &count):
		return &api.Error{Status: http.StatusConflict, Code: api.CodeConflict, Message: count.Error(), Cause: err}
	case errors.As(err, &busy):
		return &api.Error{Status: http.StatusConflict, Code: api.CodeConflict, Message: busy.Error()}
	case err != nil:
		return err
	}
	return respondAction(c, http.StatusAccepted, api.OK(api.V1QueuedJob{JobID: j.ID, Action: j.Action, Scope: j.Scope,
		Status: j.Status, QueuedAt: api.Timestamp(j.QueuedAt)}), Done{Toast: views.MaintenanceQueued(j.Action), Events: []string{"plaza:jobs"}})
}

// Job answers GET /api/v1/admin/system/jobs/{jobId}; an unknown id is 404.
func (h System) Job(c echo.Context) error {
	id := c.Param("jobId")
	setAuditTarget(c.Request().Context(), "job", id, nil)
	j, err := h.Store.MaintenanceJobByID(c.Request().Context(), id)
	if err != nil {
		return err
	}
	job := v1Job(j)
	if j.Status == models.JobCompleted || j.Status == models.JobFailed {
		// The console's row stops asking; what the job made (a backup) can show.
		c.Response().Header().Set("HX-Trigger", `{"plaza:job-finished":true}`)
	}
	if wantsJSON(c) {
		return c.JSON(http.StatusOK, api.OK(job))
	}
	people, err := lookUpPeople(c.Request().Context(), h.People, jobPeople([]api.V1Job{job}))
	if err != nil {
		return err
	}
	return respond(c, http.StatusOK, api.OK(job), View{Partial: views.JobRow(job, people)})
}

// Jobs answers GET /api/v1/admin/system/jobs: the latest first.
func (h System) Jobs(c echo.Context) error {
	page, issues := api.ParsePage(c.QueryParams())
	if len(issues) > 0 {
		return api.Invalid(issues...)
	}
	rows, total, err := h.Store.MaintenanceJobs(c.Request().Context(), page.Limit, page.Offset)
	if err != nil {
		return err
	}
	out := make([]api.V1Job, len(rows))
	for i := range rows {
		out[i] = v1Job(&rows[i])
	}
	res := api.Page(out, total, page)
	if wantsJSON(c) {
		return c.JSON(http.StatusOK, res)
	}
	people, err := lookUpPeople(c.Request().Context(), h.People, jobPeople(out))
	if err != nil {
		return err
	}
	list := views.JobList{Jobs: out, Pagination: res.Meta.Pagination, Query: consoleQuery(c, "", true), People: people,
		Scopes: actions.MaintenanceScopes}
	return respond(c, http.StatusOK, res, View{Partial: views.JobTable(list), Page: views.SystemPage(list)})
}

// jobPeople is the ids of the admins who queued jobs.
func jobPeople(jobs []api.V1Job) []string {
	ids := make([]string, 0, len(jobs))
	for _, j := range jobs {
		if j.QueuedBy != nil {
			ids = append(ids, *j.QueuedBy)
		}
	}
	return ids
}

func v1Job(j *models.MaintenanceJob) api.V1Job {
	return api.V1Job{JobID: j.ID, Action: j.Action, Scope: j.Scope, Status: j.Status, Progress: j.Progress, Notify: j.Notify,
		QueuedAt: api.Timestamp(j.QueuedAt), QueuedBy: optionalID(j.QueuedBy), StartedAt: api.OptionalTimestamp(j.StartedAt),
		FinishedAt: api.OptionalTimestamp(j.FinishedAt), Attempts: j.Attempts, Result: j.Result, Error: j.Error}
}
