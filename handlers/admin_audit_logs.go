package handlers

import (
	"context"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/models"
)

// AuditStore is what the audit-log handlers need.
type AuditStore interface {
	ListAudit(ctx context.Context, f models.AuditFilter) ([]models.AuditEntry, int, error)
	VerifyAudit(ctx context.Context) (models.AuditVerification, error)
}

// AuditLogs lists and verifies the audit log (interface.md 4.1,
// DECISIONS.md section 4). Statuses: 200, 401, 403, 422.
type AuditLogs struct {
	Store AuditStore
}

// List answers GET /api/v1/admin/audit-logs with filters adminId, action,
// startDate, endDate, limit, offset; newest first.
func (h AuditLogs) List(c echo.Context) error {
	f, page, err := parseAuditQuery(c)
	if err != nil {
		return err
	}
	rows, total, err := h.Store.ListAudit(c.Request().Context(), f)
	if err != nil {
		return err
	}
	out := make([]api.AuditEntry, len(rows))
	for i := range rows {
		out[i] = auditEntry(&rows[i])
	}
	return c.JSON(http.StatusOK, api.Page(out, total, page))
}

func parseAuditQuery(c echo.Context) (models.AuditFilter, api.PageParams, error) {
	q := c.QueryParams()
	page, issues := api.ParsePage(q)
	admin, is := api.ParseID(q, "adminId")
	issues = append(issues, is...)
	from, is := api.ParseTime(q, "startDate", false)
	issues = append(issues, is...)
	to, is := api.ParseTime(q, "endDate", true)
	issues = append(issues, is...)
	if len(issues) > 0 {
		return models.AuditFilter{}, page, api.Invalid(issues...)
	}
	f := models.AuditFilter{AdminID: admin, From: from, To: to, Limit: page.Limit, Offset: page.Offset}
	if a := q.Get("action"); a != "" {
		f.Action = &a
	}
	return f, page, nil
}

func auditEntry(e *models.AuditEntry) api.AuditEntry {
	out := api.AuditEntry{ID: itoa(e.ID), Timestamp: api.Timestamp(e.CreatedAt), AdminUsername: e.AdminUsername,
		Action: e.Action, TargetType: e.TargetType, TargetID: e.TargetID, IPAddress: e.IPAddress,
		UserAgent: e.UserAgent, Status: e.Status, Details: e.Details, PrevHash: e.PrevHash, Hash: e.Hash}
	if e.AdminID != nil {
		id := itoa(*e.AdminID)
		out.AdminID = &id
	}
	return out
}

// Verify answers GET /api/v1/admin/audit-logs/verify: {valid, checked, firstBrokenId}.
func (h AuditLogs) Verify(c echo.Context) error {
	v, err := h.Store.VerifyAudit(c.Request().Context())
	if err != nil {
		return err
	}
	res := api.AuditVerification{Valid: v.Valid, Checked: v.Checked}
	if v.FirstBrokenID != nil {
		id := itoa(*v.FirstBrokenID)
		res.FirstBrokenID = &id
	}
	return c.JSON(http.StatusOK, api.OK(res))
}
