package handlers

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/views"
)

// AuditStore is what the audit-log handlers need.
type AuditStore interface {
	ListAudit(ctx context.Context, f models.AuditFilter) ([]models.AuditEntry, int, error)
	VerifyAudit(ctx context.Context) (models.AuditVerification, error)
}

// AuditLogs lists, exports and verifies the audit log (docs/api.md,
// "Audit log"). Statuses: 200, 401, 403, 422.
type AuditLogs struct {
	Store   AuditStore
	People  People
	Actions *actions.Actions
	Log     *slog.Logger
	Now     func() time.Time
	// Reads are the audit actions of reads (the audited GET routes'),
	// which the kind filter keeps or leaves out.
	Reads []string
}

// List answers GET /api/v1/admin/audit-logs with filters adminId, action,
// startDate, endDate, limit, offset; newest first.
func (h AuditLogs) List(c echo.Context) error {
	f, page, err := h.parseQuery(c)
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
	res := api.Page(out, total, page)
	if wantsJSON(c) {
		return c.JSON(http.StatusOK, res)
	}
	people, err := lookUpPeople(c.Request().Context(), h.People, auditPeople(out))
	if err != nil {
		return err
	}
	list := views.AuditList{Entries: out, Pagination: res.Meta.Pagination, Query: consoleQuery(c, "", true), AdminID: idText(f.AdminID), People: people}
	return respond(c, http.StatusOK, res, View{Partial: views.AuditTable(list), Page: views.AuditPage(list)})
}

// parseQuery reads the list's and the export's filters; on the console
// adminId may be a username or an email (personFilter).
func (h AuditLogs) parseQuery(c echo.Context) (models.AuditFilter, api.PageParams, error) {
	q := c.QueryParams()
	page, issues := api.ParsePage(q)
	admin, is, err := personFilter(c, q, "adminId", h.People)
	if err != nil {
		return models.AuditFilter{}, page, err
	}
	issues = append(issues, is...)
	from, is := api.ParseTime(q, "startDate", false)
	issues = append(issues, is...)
	to, is := api.ParseTime(q, "endDate", true)
	issues = append(issues, is...)
	if len(issues) > 0 {
		return models.AuditFilter{}, page, api.Invalid(issues...)
	}
	f := models.AuditFilter{AdminID: admin, From: from, To: to, Limit: page.Limit, Offset: page.Offset, TargetType: q.Get("targetType")}
	if a := q.Get("action"); a != "" {
		f.Action = &a
	}
	if id := q.Get("targetId"); id != "" {
		f.TargetID = &id
	}
	return f, page, h.filterKind(c, &f)
}

// filterKind applies the kind filter: changes (the console page's
// default unless it filters by action, as reads would bury them), reads
// or all (the API's default, as its contract lists every entry).
func (h AuditLogs) filterKind(c echo.Context, f *models.AuditFilter) error {
	kind := c.QueryParam("kind")
	if !wantsJSON(c) {
		kind = api.ConsoleAuditKind(kind, c.QueryParam("action"))
	}
	switch kind {
	case "changes":
		f.SkipActions = h.Reads
	case "reads":
		f.OnlyActions = h.Reads
	case "", "all":
	default:
		return api.Invalid(api.FieldIssue("kind", "invalid_enum_value", "kind must be all, changes or reads"))
	}
	return nil
}

// Export answers GET /api/v1/admin/audit-logs/export?format=jsonl|csv with
// the list's filters: every entry they select (a page with limit or
// offset), newest first, streamed as an attachment. A session needs a
// fresh confirmation (403 SUDO_REQUIRED).
func (h AuditLogs) Export(c echo.Context) error {
	q := c.QueryParams()
	format, _ := api.QueryParam(q, "format")
	if format == "" {
		format = "jsonl"
	}
	f, _, err := h.parseQuery(c)
	if format != "jsonl" && format != "csv" {
		err = api.Invalid(api.FieldIssue("format", "invalid_enum_value", "format must be jsonl or csv"))
	}
	if err != nil {
		return err
	}
	if !q.Has("limit") && !q.Has("offset") {
		f.Limit, f.Offset = 0, 0
	}
	ctx := c.Request().Context()
	each, err := h.Actions.ExportAudit(ctx, access.PrincipalFrom(ctx), actions.AuditExport{Filter: f, Format: format, Query: c.Request().URL.RawQuery})
	if err != nil {
		return err
	}
	name := "audit-log-" + h.Now().UTC().Format("2006-01-02T150405Z") + "." + format
	if format == "jsonl" {
		return streamJSONL(c, h.Log, name, func(line func(any) error) error {
			return each(func(e *models.AuditEntry) error { return line(auditEntry(e)) })
		})
	}
	return streamCSV(c, h.Log, name, api.AuditCSVHeader, func(row func(...string) error) error {
		return each(func(e *models.AuditEntry) error { return row(auditCSVRow(e)...) })
	})
}

// auditPeople is the ids of the accounts entries name: who acted and
// the users acted on.
func auditPeople(entries []api.AuditEntry) []string {
	var ids []string
	for _, e := range entries {
		if e.AdminID != nil {
			ids = append(ids, *e.AdminID)
		}
		if e.TargetType == "user" {
			ids = append(ids, e.TargetID)
		}
	}
	return ids
}

func auditCSVRow(e *models.AuditEntry) []string {
	admin := ""
	if e.AdminID != nil {
		admin = itoa(*e.AdminID)
	}
	details, _ := json.Marshal(e.Details)
	return []string{itoa(e.ID), api.Timestamp(e.CreatedAt), admin, e.AdminUsername, e.Action, e.TargetType, e.TargetID,
		e.IPAddress, e.UserAgent, strconv.Itoa(e.Status), string(details), e.PrevHash, e.Hash}
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
	return respond(c, http.StatusOK, api.OK(res), View{Partial: views.AuditVerified(res)})
}
