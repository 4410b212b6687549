package web_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/blocks"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// TestBlockCacheCostsNoQuery: once the list is loaded, checking a request
// reads no database; a change through the instance purges it.
func TestBlockCacheCostsNoQuery(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	super, _ := app.Admin(t)
	loads := 0
	check := web.BlockGuard{Store: countingRules{app.Store, func() { loads++ }}, Cache: app.Deps.Blocks, Now: app.Deps.Now}
	ctx := context.Background()
	for range 3 {
		if err := check.RefuseIP(ctx, "203.0.113.5"); err != nil {
			t.Fatal(err)
		}
	}
	if loads != 1 {
		t.Fatalf("%d loads for 3 checks, want 1", loads)
	}
	res := apptest.DoBody(t, app, "POST", api.PathAdminV1Blocks, super, `{"kind":"ip","value":"203.0.113.0/24"}`)
	if res.Code != http.StatusCreated {
		t.Fatalf("block: %d %s", res.Code, res.Body)
	}
	if err := check.RefuseIP(ctx, "203.0.113.5"); err != api.ErrIPBlocked || loads != 2 {
		t.Fatalf("after a block: %v with %d loads, want IP_BLOCKED after 2", err, loads)
	}
}

// countingRules counts the loads of the block list.
type countingRules struct {
	store  *models.Store
	loaded func()
}

func (c countingRules) BlockRules(ctx context.Context) ([]blocks.Block, error) {
	c.loaded()
	return c.store.Blocklist.BlockRules(ctx)
}
