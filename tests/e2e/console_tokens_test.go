package e2e

import (
	"net/http"
	"slices"
	"testing"

	"github.com/go-rod/rod"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
)

// TestConsoleTokenCreateAndRevoke: a super admin mints a token with two
// permissions, sees it once with a copy button, then revokes it after
// confirming; the API shows both.
func TestConsoleTokenCreateAndRevoke(t *testing.T) {
	pz := startPlaza(t)
	p, c := pz.as(t, pz.super, "/admin/tokens")
	accessible(t, p, "the API tokens page")
	step(t, p, "create", func(p *rod.Page) {
		p.MustElement(`[data-testid="token-new-open"]`).MustClick()
		p.MustElement(`[data-testid="token-new-name"]`).MustInput("deploy bot")
		p.MustElement(`[data-testid="token-perm-admin:read"]`).MustClick()
		p.MustElement(`[data-testid="token-perm-posts:moderate"]`).MustClick()
		p.MustElement(`[data-testid="token-new-ttl"]`).MustSelect("7 days")
		accessible(t, p, "the new token dialog")
		p.MustElement(`[data-testid="token-new-submit"]`).MustClick()
	})
	toast(t, p, "Token created")
	var shown string
	step(t, p, "the token is shown once, with a copy button", func(p *rod.Page) {
		shown = p.MustElement(`[data-testid="new-token-panel"] #new-token`).MustProperty("value").Str()
		if len(shown) < 20 {
			panic("the token shown is " + shown)
		}
		btn := p.MustElement(`[data-testid="new-token-panel"] button[data-copy="new-token"]`)
		if btn.MustText() != "Copy" {
			panic("the copy button says " + btn.MustText())
		}
	})
	accessible(t, p, "the new token panel")
	var list struct{ Data []api.Token }
	pz.api(t, pz.super, "GET", "/api/v1/admin/tokens", &list)
	i := slices.IndexFunc(list.Data, func(tk api.Token) bool { return tk.Name == "deploy bot" })
	if i < 0 {
		t.Fatalf("the API does not list the new token: %+v", list.Data)
	}
	tok := list.Data[i]
	if !slices.Equal(tok.Permissions, []string{"admin:read", "posts:moderate"}) || tok.RevokedAt != nil {
		t.Errorf("the API lists the new token as %+v", tok)
	}
	row := `[data-testid="token-row-` + tok.ID + `"]`
	waitText(t, p, row, "deploy bot")
	step(t, p, "reloading shows the token no more", func(p *rod.Page) {
		p.MustEval(`() => { window.beforeReload = true }`)
		p.MustReload()
		p.MustWait(`() => !window.beforeReload && document.readyState === 'complete'`)
		p.MustElement(row)
		if p.MustHas(`#new-token`) {
			panic("the token is shown again after a reload")
		}
	})
	step(t, p, "revoke after confirming", func(p *rod.Page) {
		p.MustElement(row + ` [data-testid="token-revoke-open"]`).MustClick()
		p.MustElement(`#revoke-` + tok.ID + ` [data-testid="token-revoke-confirm"]`).MustClick()
	})
	toast(t, p, "Token revoked")
	waitText(t, p, row+` [data-testid="token-revoked"]`, "Revoked")
	step(t, p, "no revoke button for a revoked token", func(p *rod.Page) {
		if p.MustHas(row + ` [data-testid="token-revoke-open"]`) {
			panic("a revoked token still has its revoke button")
		}
	})
	pz.api(t, pz.super, "GET", "/api/v1/admin/tokens", &list)
	for _, tk := range list.Data {
		if tk.ID == tok.ID && tk.RevokedAt == nil {
			t.Errorf("the API lists the token as live after the revoke: %+v", tk)
		}
	}
	clean(t, c)
}

// TestConsoleTokenAccountScopes: the form offers the account scopes
// beside the admin permissions, and the token it shows acts as its maker
// only within them: account:read lists the maker's sessions, and without
// account:write it writes no post.
func TestConsoleTokenAccountScopes(t *testing.T) {
	pz := startPlaza(t)
	p, c := pz.as(t, pz.super, "/admin/tokens")
	step(t, p, "create", func(p *rod.Page) {
		p.MustElement(`[data-testid="token-new-open"]`).MustClick()
		p.MustElement(`[data-testid="token-new-name"]`).MustInput("reader")
		p.MustElement(`[data-testid="token-perm-account:read"]`).MustClick()
		p.MustElement(`[data-testid="token-new-submit"]`).MustClick()
	})
	toast(t, p, "Token created")
	var shown string
	step(t, p, "the token is shown", func(p *rod.Page) {
		shown = p.MustElement(`[data-testid="new-token-panel"] #new-token`).MustProperty("value").Str()
	})
	bearer := http.Header{"Authorization": {"Bearer " + shown}}
	if res := apptest.Do(t, pz.App, "GET", api.PathSessions, bearer); res.Code != http.StatusOK {
		t.Errorf("the account:read token listing its maker's sessions: %d %s", res.Code, res.Body)
	}
	res := apptest.DoBody(t, pz.App, "POST", api.PathPosts, bearer, `{"title":"By a reader","content":"x","published":true}`)
	if res.Code != http.StatusForbidden {
		t.Errorf("the account:read token writing a post: %d %s", res.Code, res.Body)
	}
	clean(t, c)
}
