package handlers_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestConfirmDialogOffersACodeOnlyWithTwoFactor: "Confirm it's you" asks
// an account without two-factor sign-in for its password alone, and
// offers the code field only to an account that has codes to give.
func TestConfirmDialogOffersACodeOnlyWithTwoFactor(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	plain, _ := app.Admin(t)
	withCodes := app.User(t, "codes@example.com", "admin")
	ctx := context.Background()
	if err := app.Store.Auth.StartTwoFactor(ctx, withCodes.ID, "sealed"); err != nil {
		t.Fatal(err)
	}
	if err := app.Store.Auth.EnableTwoFactor(ctx, withCodes.ID, 1, []string{"hash"}); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		who  http.Header
		code bool
	}{"without two-factor": {plain, false}, "with two-factor": {app.SessionFor(t, withCodes.ID), true}} {
		c.who.Set("Accept", "text/html")
		res := apptest.Do(t, app, http.MethodGet, "/admin", c.who)
		doc, err := goquery.NewDocumentFromReader(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		dialog := doc.Find("#sudo-confirm")
		if res.Code != http.StatusOK || dialog.Find(`[data-testid="sudo-password"]`).Length() != 1 {
			t.Fatalf("%s: %d, a confirmation dialog without a password field", name, res.Code)
		}
		if got := dialog.Find(`[data-testid="sudo-totp"]`).Length() == 1; got != c.code {
			t.Errorf("%s: the dialog offers a code field: %v, want %v (%q)", name, got, c.code, dialog.Find("p").First().Text())
		}
	}
}
