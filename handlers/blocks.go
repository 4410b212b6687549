package handlers

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/blocks"
	"github.com/plazahq/plaza/internal/clientnet"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/views"
)

// BlockStore is what the block list needs.
type BlockStore interface {
	Blocks(ctx context.Context, kind string, limit, offset int) ([]models.Block, int, error)
}

// Blocks answers the admin's block routes (docs/api.md, "Blocks"): the
// list, a new block and a block's deletion; the changes are the actions'
// CreateBlock and DeleteBlock.
type Blocks struct {
	Store   BlockStore
	People  People
	Actions *actions.Actions
	Now     func() time.Time
	// IPv6Prefix is BlockCheck's: the caller's own network, which a block
	// may not cover, is counted by it.
	IPv6Prefix int
}

// List answers GET /api/v1/admin/blocks?kind=: newest first; and the
// console's blocks page from the same result. An unknown kind is 422.
func (h Blocks) List(c echo.Context) error {
	q := c.QueryParams()
	page, issues := api.ParsePage(q)
	kind, given := api.QueryParam(q, "kind")
	if given && kind != blocks.KindIP && kind != blocks.KindEmailDomain {
		issues = append(issues, api.FieldIssue("kind", "invalid_enum_value", "kind must be ip or email_domain"))
	}
	if len(issues) > 0 {
		return api.Invalid(issues...)
	}
	rows, total, err := h.Store.Blocks(c.Request().Context(), kind, page.Limit, page.Offset)
	if err != nil {
		return err
	}
	now := h.Now()
	out := make([]api.V1Block, len(rows))
	for i := range rows {
		out[i] = v1Block(&rows[i], now)
	}
	res := api.Page(out, total, page)
	query := consoleQuery(c, "", true)
	query.Path = api.PathConsoleBlocks
	if wantsJSON(c) {
		return c.JSON(http.StatusOK, res)
	}
	ids := make([]string, 0, len(out))
	for _, b := range out {
		if b.CreatedBy != nil {
			ids = append(ids, *b.CreatedBy)
		}
	}
	people, err := lookUpPeople(c.Request().Context(), h.People, ids)
	if err != nil {
		return err
	}
	l := views.BlockList{Blocks: out, Pagination: res.Meta.Pagination, Query: query, People: people}
	return respond(c, http.StatusOK, res, View{Partial: views.BlockTable(l), Page: views.BlocksPage(l)})
}

// Create answers POST /api/v1/admin/blocks {kind, value, reason?,
// severity?, expiresAt?}: 201 with the block, its value normalised; 422 on a bad
// kind, value or expiry; 409 when the value is blocked already.
func (h Blocks) Create(c echo.Context) error {
	var req api.V1BlockRequest
	if err := decodeJSON(c, &req); err != nil {
		return err
	}
	value, expires, err := req.Check(h.Now(), blocks.Normalize)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	b, err := h.Actions.CreateBlock(ctx, access.PrincipalFrom(ctx),
		actions.BlockInput{Kind: req.Kind, Value: value, Reason: req.Reason, Severity: req.Severity, ExpiresAt: expires,
			CallerIP: c.RealIP(), CallerNetwork: clientnet.Parse(c.RealIP(), h.IPv6Prefix)})
	var dup *models.DuplicateBlockError
	if errors.As(err, &dup) || errors.Is(err, models.ErrConflict) {
		msg := value + " is blocked already"
		if dup != nil {
			msg += " (block " + itoa(dup.ID) + ")"
		}
		return &api.Error{Status: http.StatusConflict, Code: api.CodeConflict, Message: msg, Cause: err}
	}
	if err != nil {
		return err
	}
	return respondAction(c, http.StatusCreated, api.OK(v1Block(b, h.Now())),
		Done{Toast: "Blocked " + value, Events: []string{"plaza:blocks"}})
}

// Delete answers DELETE /api/v1/admin/blocks/{id}: {deleted, id}; an
// unknown id is 404.
func (h Blocks) Delete(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	gone, err := h.Actions.DeleteBlock(ctx, access.PrincipalFrom(ctx), id)
	if err != nil {
		return err
	}
	return respondAction(c, http.StatusOK, api.OK(api.DeletedBlock{Deleted: true, ID: itoa(id)}),
		Done{Toast: "Unblocked " + gone.Value, Events: []string{"plaza:blocks"}})
}

func v1Block(b *models.Block, now time.Time) api.V1Block {
	return api.V1Block{ID: itoa(b.ID), Kind: b.Kind, Value: b.Value, Reason: b.Reason, Severity: b.Severity,
		CreatedAt: api.Timestamp(b.CreatedAt), CreatedBy: optionalID(b.CreatedBy),
		ExpiresAt: api.OptionalTimestamp(b.ExpiresAt), Expired: b.ExpiresAt != nil && !now.Before(*b.ExpiresAt)}
}
