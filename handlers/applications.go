package handlers

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/views"
)

// ApplicationStore is what the applications' reads need; decisions and
// claims are actions.
type ApplicationStore interface {
	ListApplications(ctx context.Context, f models.ApplicationFilter) ([]models.ListedApplication, int, error)
	ApplicationClaims(ctx context.Context, ids []int64) (map[int64]models.Claim, error)
	ListedUsersByID(ctx context.Context, ids []int64) ([]models.ListedUser, error)
}

// Applications answers the applications of sign-ups that need the
// staff's approval (docs/api.md, "Applications"): the list with its
// signals, approval and rejection one by one or in bulk, and the desk's
// claims; the console's Applications tab of the moderation desk from the
// same results.
type Applications struct {
	Store   ApplicationStore
	Actions *actions.Actions
	Reasons ModerationReasons
}

// List answers GET /api/v1/admin/applications?status=&limit=&offset=:
// pending applications oldest first (decided ones newest first), each
// with its signals. The desk's tab (GET /admin/moderation/applications)
// runs it too, with the claims that hold. Statuses: 200, 401, 403, 422.
func (h Applications) List(c echo.Context) error {
	p, err := api.ParseApplications(c.QueryParams())
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	rows, total, err := h.Store.ListApplications(ctx, models.ApplicationFilter{Status: p.Status, Limit: p.Page.Limit, Offset: p.Page.Offset})
	if err != nil {
		return err
	}
	out := make([]api.V1Application, len(rows))
	for i := range rows {
		out[i] = v1Application(&rows[i])
	}
	desk := c.Path() == api.PathConsoleApplications
	if desk {
		if err := h.withClaims(ctx, rows, out); err != nil {
			return err
		}
	}
	page := api.Page(out, total, p.Page)
	if !desk || wantsJSON(c) {
		return c.JSON(http.StatusOK, page)
	}
	l := views.ApplicationQueue{Applications: out, Pagination: page.Meta.Pagination, Query: consoleQuery(c, "", false), Status: p.Status}
	if l.Reasons, err = h.Reasons.read(ctx); err != nil {
		return err
	}
	if l.May, err = h.decisions(ctx, rows); err != nil {
		return err
	}
	return respond(c, http.StatusOK, page, View{Partial: views.ApplicationList(l), Page: views.ApplicationsPage(l)})
}

// withClaims adds to the desk's applications the claims that hold on them.
func (h Applications) withClaims(ctx context.Context, rows []models.ListedApplication, out []api.V1Application) error {
	ids := make([]int64, len(rows))
	for i := range rows {
		ids[i] = rows[i].UserID
	}
	claims, err := h.Store.ApplicationClaims(ctx, ids)
	if err != nil {
		return err
	}
	for i := range rows {
		if c, ok := claims[rows[i].UserID]; ok {
			out[i].Claim = v1ApplicationClaim(&c)
		}
	}
	return nil
}

// decisions asks the policy, for each application of the page, whether
// the viewer may decide it, as the action will; the applicants are read
// in one query.
func (h Applications) decisions(ctx context.Context, rows []models.ListedApplication) (map[string]bool, error) {
	ids := make([]int64, len(rows))
	for i := range rows {
		ids[i] = rows[i].UserID
	}
	people, err := h.Store.ListedUsersByID(ctx, ids)
	if err != nil {
		return nil, err
	}
	who := access.PrincipalFrom(ctx)
	out := make(map[string]bool, len(people))
	for _, u := range people {
		target := policy.Person(u.ID, nil)
		if u.TopRole != nil {
			target = policy.Person(u.ID, []string{*u.TopRole})
		}
		out[itoa(u.ID)] = h.Actions.Policy.May(who, policy.ApproveApplication, target)
	}
	return out, nil
}

// Approve answers POST /api/v1/admin/applications/{id}/approve
// {reason?}: the account opens and the applicant is mailed. Statuses:
// 200 with the application, 401, 403, 404, 409 (decided already), 422.
func (h Applications) Approve(c echo.Context) error {
	var req api.V1ApproveApplication
	id, err := pathID(c)
	if err != nil {
		return err
	}
	if err := decodeOptionalJSON(c, &req); err != nil {
		return err
	}
	return h.decide(c, id, actions.ApplicationDecision{Decision: actions.DecisionApprove, Reason: req.Reason})
}

// Reject answers POST /api/v1/admin/applications/{id}/reject {reason}:
// the account stays closed and the applicant is mailed the reason.
// Statuses: 200 with the application, 401, 403, 404, 409, 422.
func (h Applications) Reject(c echo.Context) error {
	var req api.V1RejectApplication
	id, err := pathID(c)
	if err != nil {
		return err
	}
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	return h.decide(c, id, actions.ApplicationDecision{Decision: actions.DecisionReject, Reason: req.Reason})
}

func (h Applications) decide(c echo.Context, id int64, d actions.ApplicationDecision) error {
	ctx := c.Request().Context()
	ap, err := h.Actions.DecideApplication(ctx, access.PrincipalFrom(ctx), id, d)
	if err != nil {
		return err
	}
	done := Done{Toast: ap.Username + decided[d.Decision], Events: []string{"plaza:applications"}}
	return respondAction(c, http.StatusOK, api.OK(v1Application(ap)), done)
}

// decided is what a decision did, as a toast says it after a name.
var decided = map[string]string{actions.DecisionApprove: " is approved: their account is open",
	actions.DecisionReject: " is turned down"}

// Bulk answers POST /api/v1/admin/applications/bulk {ids, decision,
// reason?}: one decision for every named application, in one transaction
// with one applications.bulk_decide audit entry, or for none. Statuses:
// 200, 401, 403 (a session's stale confirmation), 404 naming unknown ids,
// 409 (one is decided already), 422.
func (h Applications) Bulk(c echo.Context) error {
	var req api.V1BulkApplications
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	ids, err := req.Check()
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	n, err := h.Actions.BulkDecideApplications(ctx, access.PrincipalFrom(ctx), ids, actions.ApplicationDecision{Decision: req.Decision, Reason: req.Reason})
	if err != nil {
		return err
	}
	out := api.V1BulkApplicationsResult{Decided: n, IDs: make([]string, len(ids))}
	for i, id := range ids {
		out.IDs[i] = itoa(id)
	}
	verb := map[string]string{actions.DecisionApprove: "approved", actions.DecisionReject: "turned down"}[req.Decision]
	done := Done{Toast: plural(n, "application") + " " + verb, Events: []string{"plaza:applications"}}
	return respondAction(c, http.StatusOK, api.OK(out), done)
}

// Claim answers POST /admin/moderation/applications/{id}/claim: the
// caller claims the application, or renews its claim, for a few minutes.
// Statuses: 200, 401, 403, 404, 409 (decided already), 423 (another
// moderator's claim holds). htmx gets the row's claim note.
func (h Applications) Claim(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	claim, err := h.Actions.ClaimApplication(ctx, access.PrincipalFrom(ctx), id)
	var held *models.LockedError
	if errors.As(err, &held) {
		return &api.Error{Status: http.StatusLocked, Code: api.CodeResourceLocked, Message: held.By + " is reviewing this application", Cause: err}
	}
	if err != nil {
		return err
	}
	out := v1ApplicationClaim(claim)
	return respondShown(c, http.StatusOK, api.OK(*out), views.ApplicationClaimNote(out.ApplicationID, out), Done{})
}

// Release answers DELETE /admin/moderation/applications/{id}/claim: the
// caller's claim ends (another moderator's stays). Statuses: 200, 401,
// 403, 404. htmx gets the row's claim note.
func (h Applications) Release(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	released, err := h.Actions.ReleaseApplication(ctx, access.PrincipalFrom(ctx), id)
	if err != nil {
		return err
	}
	return respondShown(c, http.StatusOK, api.OK(api.V1ApplicationReleased{ApplicationID: itoa(id), Released: released}),
		views.ApplicationClaimNote(itoa(id), nil), Done{})
}

func v1Application(ap *models.ListedApplication) api.V1Application {
	out := api.V1Application{ID: itoa(ap.UserID), User: api.V1ClaimedBy{ID: itoa(ap.UserID), Username: ap.Username},
		Answer: ap.Answer, Why: ap.Why, Status: ap.Status, Reason: ap.Reason, CreatedAt: api.Timestamp(ap.CreatedAt),
		Signals: api.V1ApplicationSignals{RelatedAccounts: ap.Signals.Related, EmailDomain: emailDomain(ap.Email),
			RangeSignUps: ap.Signals.RangeSignUps}}
	if ap.DecidedBy != nil && ap.DecidedByName != nil {
		out.DecidedBy = &api.V1Decider{ID: itoa(*ap.DecidedBy), Username: *ap.DecidedByName}
	}
	if ap.DecidedAt != nil {
		at := api.Timestamp(*ap.DecidedAt)
		out.DecidedAt = &at
	}
	return out
}

func v1ApplicationClaim(c *models.Claim) *api.V1ApplicationClaim {
	return &api.V1ApplicationClaim{ApplicationID: itoa(c.PostID), By: api.V1ClaimedBy{ID: itoa(c.UserID), Username: c.Username},
		ClaimedAt: api.Timestamp(c.ClaimedAt), ExpiresAt: api.Timestamp(c.ExpiresAt)}
}

// emailDomain is the part of an address after its last @.
func emailDomain(email string) string {
	if i := strings.LastIndexByte(email, '@'); i >= 0 {
		return email[i+1:]
	}
	return ""
}
