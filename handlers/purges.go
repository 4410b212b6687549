package handlers

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/clientnet"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/views"
)

// PurgeStore reads purges.
type PurgeStore interface {
	PurgeByID(ctx context.Context, id int64) (*models.PurgeRecord, error)
}

// Purges serves a spam wave's purge (docs/api.md, "Purges"): its preview,
// the purge, its page and its undo.
type Purges struct {
	Store   PurgeStore
	Actions *actions.Actions
	Now     func() time.Time
	// IPv6Prefix is the client network's, which a block may not cover.
	IPv6Prefix int
}

// input decodes a purge's body (or its preview's).
func (h Purges) input(c echo.Context) (actions.PurgeInput, error) {
	var req api.V1PurgeRequest
	if err := decodeJSON(c, &req); err != nil {
		return actions.PurgeInput{}, err
	}
	ids, expires, err := req.Check(h.Now())
	if err != nil {
		return actions.PurgeInput{}, err
	}
	return actions.PurgeInput{UserIDs: ids, Reason: req.Reason, Ranges: req.BlockRanges, Domains: req.BlockDomains,
		BlockExpiresAt: expires, CallerIP: c.RealIP(), CallerNetwork: clientnet.Parse(c.RealIP(), h.IPv6Prefix)}, nil
}

// Preview answers POST /api/v1/admin/users/purge/preview: exactly what the
// purge of the same body would change now, and the accounts it would
// refuse; the console's purge dialog from the same result. It changes
// nothing. Statuses: 200; 401; 403; 404 for an id no user has; 422.
func (h Purges) Preview(c echo.Context) error {
	in, err := h.input(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	p, err := h.Actions.PreviewPurge(ctx, access.PrincipalFrom(ctx), in)
	if err != nil {
		return err
	}
	out := v1PurgePreview(p)
	return respond(c, http.StatusOK, api.OK(out), View{Partial: views.PurgeDialogBody(out, in.Reason)})
}

// Purge answers POST /api/v1/admin/users/purge: the purge done, with the
// console's notice of it (and its Undo) for htmx. Statuses: 200; 401;
// 403 (a staff account, one outranking the caller or the caller's own,
// each named in details.refused; a large purge's confirmation); 404; 422;
// 423.
func (h Purges) Purge(c echo.Context) error {
	in, err := h.input(c)
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	res, err := h.Actions.Purge(ctx, access.PrincipalFrom(ctx), in)
	if err != nil {
		return err
	}
	rec, err := h.Store.PurgeByID(ctx, res.Purged.Purge.ID)
	if err != nil {
		return err
	}
	p := v1Purge(rec, h.Now())
	out := api.V1PurgeResult{Purge: p, Banned: len(res.Purged.Accounts), AlreadyBanned: len(res.Preview.Plan.Skipped),
		HiddenPosts: res.Purged.Posts, EndedSessions: res.Purged.Sessions, CreatedBlocks: len(res.Purged.Blocks)}
	toast := "Purged " + plural(out.Banned, "account") + ", hid " + plural(out.HiddenPosts, "post")
	return respondShown(c, http.StatusOK, api.OK(out), views.PurgeNotice(out),
		Done{Toast: toast, Events: []string{"plaza:users", "plaza:purge"}, Undo: []string{api.AdminV1PurgeUndoPath(p.ID)}})
}

// Get answers GET /api/v1/admin/purges/{id}: the purge, its accounts and
// its blocks; the console's purge page from the same result. 404 for an
// unknown id.
func (h Purges) Get(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	rec, err := h.Store.PurgeByID(c.Request().Context(), id)
	if err != nil {
		return err
	}
	out := v1Purge(rec, h.Now())
	return respond(c, http.StatusOK, api.OK(out), View{Partial: views.PurgeAccounts(out), Page: views.PurgePage(out)})
}

// Undo answers POST /api/v1/admin/purges/{id}/undo {userIds?}: what the
// purge did to those accounts (all when none) put back, within 10
// minutes of it. Statuses: 200; 401; 403 (someone else's purge without a
// role above theirs); 404 (no such purge, or an account it did not ban);
// 422 (its time is over, or undone already).
func (h Purges) Undo(c echo.Context) error {
	id, err := pathID(c)
	if err != nil {
		return err
	}
	var req api.V1PurgeUndoRequest
	if err := decodeOptionalJSON(c, &req); err != nil {
		return err
	}
	ids, err := req.Check()
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	u, err := h.Actions.UndoPurge(ctx, access.PrincipalFrom(ctx), id, ids)
	if err != nil {
		return err
	}
	out := api.V1PurgeUndoResult{Purge: v1Purge(u.Purge, h.Now()), Undone: make([]string, len(u.Accounts)), Restored: make([]string, len(u.Restored)),
		RestoredPosts: u.Posts, PostsLeft: u.PostsLeft, RemovedBlocks: len(u.Blocks)}
	for i, a := range u.Accounts {
		out.Undone[i] = itoa(a.UserID)
	}
	for i, id := range u.Restored {
		out.Restored[i] = itoa(id)
	}
	toast := "Undid the purge of " + plural(len(out.Undone), "account")
	if left := len(out.Undone) - len(out.Restored); left > 0 {
		toast += " (" + plural(left, "account") + " left as someone changed them since)"
	}
	return respondAction(c, http.StatusOK, api.OK(out), Done{Toast: toast, Events: []string{"plaza:users", "plaza:purge"}})
}

// v1PurgePreview is the wire form of a preview.
func v1PurgePreview(p *actions.PurgePreview) api.V1PurgePreview {
	out := api.V1PurgePreview{Accounts: make([]api.V1PurgeCandidate, len(p.Plan.Users)), ToBan: len(p.Plan.Ban),
		AlreadyBanned: len(p.Plan.Skipped), PostsToHide: p.Plan.Posts, SessionsToEnd: p.Plan.Sessions,
		Blocks: make([]api.V1PurgeBlockPlan, len(p.Blocks)), Refused: make([]api.V1PurgeRefusal, len(p.Refused)),
		Ranges: v1Shares(p.Plan.Ranges), Domains: v1Shares(p.Plan.Domains),
		NeedsConfirmation: p.NeedsConfirmation, ConfirmAbove: p.ConfirmAbove}
	refused := map[int64]bool{}
	for i, r := range p.Refused {
		out.Refused[i] = api.V1PurgeRefusal{ID: itoa(r.UserID), Username: r.Username, Reason: r.Reason}
		refused[r.UserID] = true
	}
	for i, u := range p.Plan.Users {
		outcome := "ban"
		switch {
		case refused[u.ID]:
			outcome = "refused"
		case u.Status == models.UserBanned:
			outcome = "skip"
		}
		out.Accounts[i] = api.V1PurgeCandidate{ID: itoa(u.ID), Username: u.Username, Email: u.Email, Status: u.Status, Outcome: outcome}
	}
	for i, b := range p.Blocks {
		out.Blocks[i] = api.V1PurgeBlockPlan{Kind: b.Block.Kind, Value: b.Block.Value}
		if b.Held != nil {
			s := itoa(*b.Held)
			out.Blocks[i].HeldBy = &s
		} else {
			out.BlocksToCreate++
		}
	}
	return out
}

func v1Shares(in []models.PurgeShare) []api.V1PurgeShare {
	out := make([]api.V1PurgeShare, len(in))
	for i, s := range in {
		out[i] = api.V1PurgeShare{Value: s.Value, Accounts: s.Accounts}
	}
	return out
}

// v1Purge is the wire form of a purge as of now.
func v1Purge(r *models.PurgeRecord, now time.Time) api.V1Purge {
	out := api.V1Purge{ID: itoa(r.ID), CreatedAt: api.Timestamp(r.CreatedAt), UndoUntil: api.Timestamp(r.UndoUntil),
		Reason: r.Reason, Accounts: make([]api.V1PurgeAccount, len(r.Accounts)), Blocks: make([]api.V1PurgedBlock, len(r.Blocks))}
	if r.CreatedBy != nil && r.CreatedByName != "" {
		out.CreatedBy = &api.V1UserRef{ID: itoa(*r.CreatedBy), Username: r.CreatedByName}
	}
	if r.UndoneAt != nil {
		s := api.Timestamp(*r.UndoneAt)
		out.UndoneAt = &s
	}
	left := false
	for i, a := range r.Accounts {
		acc := api.V1PurgeAccount{ID: itoa(a.UserID), Username: a.Username, StatusBefore: a.StatusBefore, HiddenPosts: a.HiddenPosts,
			Restored: a.Restored, RestoredPosts: a.RestoredPosts}
		if a.BanID != nil && !a.Restored {
			s := itoa(*a.BanID)
			acc.BanID = &s
		}
		if a.UndoneAt != nil {
			s := api.Timestamp(*a.UndoneAt)
			acc.UndoneAt = &s
		} else {
			left = true
		}
		out.HiddenPosts += a.HiddenPosts
		out.Accounts[i] = acc
	}
	out.CanUndo = left && !now.After(r.UndoUntil)
	for i, b := range r.Blocks {
		out.Blocks[i] = api.V1PurgedBlock{ID: itoa(b.BlockID), Kind: b.Kind, Value: b.Value}
		if b.RemovedAt != nil {
			s := api.Timestamp(*b.RemovedAt)
			out.Blocks[i].RemovedAt = &s
		}
	}
	return out
}
