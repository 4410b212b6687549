package handlers

import (
	"context"
	"errors"
	"net/http"
	"slices"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/views"
)

// MailStore is what the mail page reads: a page of the outbox.
type MailStore interface {
	MailMessages(ctx context.Context, status string, limit, offset int) ([]models.MailMessage, int, error)
}

// Mail answers the mail page's routes (docs/api.md, "Mail"): the outbox's
// messages, a failed or held one sent again (the action ResendMail) and
// a test message to oneself (SendTestMail).
type Mail struct {
	Store   MailStore
	Actions *actions.Actions
	// Sending says a mail server is set (SMTP_URL): without one messages
	// are held, and the page says so.
	Sending bool
}

// List answers GET /api/v1/admin/mail?status=: newest first, never a
// body; and the console's mail page from the same result, which shows
// the bodies the viewer may read (actions.MailBodyShown). An unknown
// status is 422.
func (h Mail) List(c echo.Context) error {
	q := c.QueryParams()
	page, issues := api.ParsePage(q)
	status, given := api.QueryParam(q, "status")
	if given && !slices.Contains(api.MailStatuses, status) {
		issues = append(issues, api.FieldIssue("status", "invalid_enum_value", "status must be queued, sent, failed or held"))
	}
	if len(issues) > 0 {
		return api.Invalid(issues...)
	}
	ctx := c.Request().Context()
	rows, total, err := h.Store.MailMessages(ctx, status, page.Limit, page.Offset)
	if err != nil {
		return err
	}
	out := make([]api.V1MailMessage, len(rows))
	for i := range rows {
		out[i] = apiMail(&rows[i])
	}
	res := api.Page(out, total, page)
	if wantsJSON(c) {
		return c.JSON(http.StatusOK, res)
	}
	query := consoleQuery(c, "", true)
	query.Path = api.PathConsoleMail
	l := views.MailList{Messages: out, Pagination: res.Meta.Pagination, Query: query, Sending: h.Sending,
		Bodies: map[string]string{}}
	who := access.PrincipalFrom(ctx)
	for i := range rows {
		if actions.MailBodyShown(who, &rows[i]) {
			l.Bodies[out[i].ID] = rows[i].TextBody
		}
	}
	return respond(c, http.StatusOK, res, View{Partial: views.MailTable(l), Page: views.MailPage(l)})
}

// Resend answers POST /api/v1/admin/mail/{id}/resend: 202 with the
// message, queued again; 404 for an unknown id; 409 when it is not
// failed or held, or no mail server is set.
func (h Mail) Resend(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	m, err := h.Actions.ResendMail(ctx, access.PrincipalFrom(ctx), id)
	if errors.Is(err, models.ErrNotResendable) {
		msg := "Only a failed or held message can be sent again"
		if !h.Sending {
			msg = "No mail server is set (SMTP_URL): messages are kept on the mail page, not sent"
		}
		return &api.Error{Status: http.StatusConflict, Code: api.CodeConflict, Message: msg, Cause: err}
	}
	if err != nil {
		return err
	}
	return respondAction(c, http.StatusAccepted, api.OK(apiMail(m)),
		Done{Toast: "Sending again to " + m.Recipient, Events: []string{"plaza:mail"}})
}

// Test answers POST /api/v1/admin/mail/test: 202 with the test message
// to the caller's own address, queued, or held when no mail server is
// set.
func (h Mail) Test(c echo.Context) error {
	ctx := c.Request().Context()
	m, err := h.Actions.SendTestMail(ctx, access.PrincipalFrom(ctx))
	if err != nil {
		return err
	}
	toast := "Test message sent to " + m.Recipient
	if m.Status == models.MailHeld {
		toast = "Test message kept on this page: no mail server is set"
	}
	return respondAction(c, http.StatusAccepted, api.OK(apiMail(m)), Done{Toast: toast, Events: []string{"plaza:mail"}})
}

// apiMail is m as the API answers it: never its body.
func apiMail(m *models.MailMessage) api.V1MailMessage {
	return api.V1MailMessage{ID: itoa(m.ID), Kind: m.Kind, Recipient: m.Recipient, Subject: m.Subject, Status: m.Status,
		Attempts: m.Attempts, LastError: m.LastError, Secret: m.Secret, CreatedAt: api.Timestamp(m.CreatedAt),
		SentAt: api.OptionalTimestamp(m.SentAt)}
}
