package handlers_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

func TestTokenLifecycle(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		cookie, _ := app.Admin(t)
		res := apptest.DoBody(t, app, "POST", "/api/v1/admin/tokens", cookie, `{"permissions":["admin:read","admin:write"],"ttl":"2d","name":"ci"}`)
		var got struct {
			Data struct{ ID, Token, ExpiresAt string }
		}
		json.Unmarshal(res.Body.Bytes(), &got)
		if res.Code != 201 || got.Data.Token == "" || got.Data.ID == "" {
			t.Fatalf("create: %d %s", res.Code, res.Body)
		}
		bearer := http.Header{"Authorization": {"Bearer " + got.Data.Token}}
		if res := apptest.Do(t, app, "GET", "/api/v1/admin/audit-logs", bearer); res.Code != 200 {
			t.Errorf("the new token: %d %s", res.Code, res.Body)
		}
		if res := apptest.Do(t, app, "DELETE", "/api/v1/admin/locks/user/1", bearer); res.Code != 403 {
			t.Errorf("beyond the token's permissions: %d, want 403", res.Code)
		}
		list := apptest.Do(t, app, "GET", "/api/v1/admin/tokens", cookie)
		if list.Code != 200 || !json.Valid(list.Body.Bytes()) || !contains(list.Body.String(), got.Data.ID) || contains(list.Body.String(), got.Data.Token) {
			t.Errorf("list must name the token and never show it: %s", list.Body)
		}
		if res := apptest.Do(t, app, "DELETE", "/api/v1/admin/tokens/"+got.Data.ID, cookie); res.Code != 200 {
			t.Fatalf("revoke: %d %s", res.Code, res.Body)
		}
		if res := apptest.Do(t, app, "GET", "/api/v1/admin/audit-logs", bearer); res.Code != 401 {
			t.Errorf("revoked token: %d, want 401", res.Code)
		}
		if res := apptest.Do(t, app, "DELETE", "/api/v1/admin/tokens/nope", cookie); res.Code != 404 {
			t.Errorf("unknown jti: %d, want 404", res.Code)
		}
	})
}

// TestTokenCannotMintToken: a bearer token mints no token, not even one
// holding admin:super (a one-hour token once minted a year-long one that
// kept working after its maker was revoked); only a signed-in session
// does, and what it minted stops working once revoked.
func TestTokenCannotMintToken(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		cookie, root := app.Admin(t)
		parent, _ := app.TokenFor(t, root.ID, access.PermAdminRead, access.PermAdminWrite, access.PermAdminSuper)
		res := apptest.DoBody(t, app, "POST", "/api/v1/admin/tokens", parent, `{"permissions":["admin:read","admin:super"],"ttl":"365d"}`)
		if res.Code != 403 || !contains(res.Body.String(), `"FORBIDDEN"`) {
			t.Errorf("a bearer token minting a token: %d %s, want 403", res.Code, res.Body)
		}
		if n, err := db.NewSelect().Model((*models.APIToken)(nil)).Count(context.Background()); err != nil || n != 1 {
			t.Errorf("%d tokens recorded (%v), want only the parent", n, err)
		}

		res = apptest.DoBody(t, app, "POST", "/api/v1/admin/tokens", cookie, `{"permissions":["admin:read","admin:super"],"ttl":"1h"}`)
		var got struct{ Data struct{ ID, Token string } }
		json.Unmarshal(res.Body.Bytes(), &got)
		if res.Code != 201 || got.Data.Token == "" {
			t.Fatalf("a session minting a token: %d %s", res.Code, res.Body)
		}
		minted := http.Header{"Authorization": {"Bearer " + got.Data.Token}}
		if res := apptest.DoBody(t, app, "POST", "/api/v1/admin/tokens", minted, `{"permissions":["admin:read"]}`); res.Code != 403 {
			t.Errorf("the session's token minting another: %d %s, want 403", res.Code, res.Body)
		}
		if res := apptest.Do(t, app, "DELETE", "/api/v1/admin/tokens/"+got.Data.ID, cookie); res.Code != 200 {
			t.Fatalf("revoke: %d %s", res.Code, res.Body)
		}
		if res := apptest.Do(t, app, "GET", "/api/v1/admin/audit-logs", minted); res.Code != 401 {
			t.Errorf("the revoked token: %d, want 401", res.Code)
		}
	})
}

func TestTokenRequestValidation(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	cookie, _ := app.Admin(t)
	for _, body := range []string{
		`{"permissions":[]}`, `{"permissions":["root"]}`, `{"permissions":["admin:read"],"ttl":"forever"}`,
		`{"permissions":["admin:read"],"ttl":"30s"}`, `{"permissions":["admin:read"],"extra":1}`, `{"permissions":"admin:read"}`, `[`,
	} {
		if res := apptest.DoBody(t, app, "POST", "/api/v1/admin/tokens", cookie, body); res.Code != 422 || !contains(res.Body.String(), "VALIDATION_ERROR") {
			t.Errorf("%s: got %d %s, want 422", body, res.Code, res.Body)
		}
	}
}

// TestDemotionDisablesToken: a token keeps only what its user's roles grant now.
func TestDemotionDisablesToken(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	u := app.User(t, "ada@example.com", access.RoleAdmin)
	bearer, _ := app.TokenFor(t, u.ID, access.PermAdminRead)
	if res := apptest.Do(t, app, "GET", "/api/v1/admin/audit-logs", bearer); res.Code != 200 {
		t.Fatalf("as admin: %d", res.Code)
	}
	app.Store.DB.NewDelete().Model((*models.UserRole)(nil)).Where("user_id = ? AND role_id = (SELECT id FROM roles WHERE name = 'admin')", u.ID).Exec(context.Background())
	if res := apptest.Do(t, app, "GET", "/api/v1/admin/audit-logs", bearer); res.Code != 403 {
		t.Errorf("after demotion: %d, want 403", res.Code)
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
