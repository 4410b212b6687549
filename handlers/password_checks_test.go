package handlers_test

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestOwnAccountDeletionSharesTheThrottle: deleting one's own account
// checks the password like every other route that does: a wrong one
// counts against sign-in's failure throttle for the email, together with
// failed sign-ins, and a spent window answers 429 before any check. Before,
// DELETE /api/users/{own id} compared passwords without limit.
func TestOwnAccountDeletionSharesTheThrottle(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		ada := app.UserWithPassword(t, "ada@example.com", "correct horse")
		session := app.SessionFor(t, ada.ID)
		path := "/api/users/" + strconv.FormatInt(ada.ID, 10)
		for i := range 5 {
			if res := apptest.DoBody(t, app, "POST", "/api/auth/signin", nil, `{"email":"ada@example.com","password":"bad"}`); res.Code != 401 {
				t.Fatalf("failed sign-in %d: got %d %s", i+1, res.Code, res.Body)
			}
		}
		for i := range 5 {
			if res := apptest.DoBody(t, app, "DELETE", path, session, `{"password":"bad guess `+strconv.Itoa(i)+`"}`); res.Code != 403 {
				t.Fatalf("wrong password %d: got %d %s, want 403", i+1, res.Code, res.Body)
			}
		}
		res := apptest.DoBody(t, app, "DELETE", path, session, `{"password":"correct horse"}`)
		if res.Code != 429 || res.Header().Get("Retry-After") == "" || !strings.Contains(res.Body.String(), `"RATE_LIMITED"`) {
			t.Errorf("after 10 failures: got %d %s, want 429 with Retry-After", res.Code, res.Body)
		}
		if _, err := app.Store.UserByID(context.Background(), ada.ID); err != nil {
			t.Errorf("the account is gone: %v", err)
		}
		if res := apptest.DoBody(t, app, "POST", "/api/auth/signin", nil, `{"email":"ada@example.com","password":"correct horse"}`); res.Code != 429 {
			t.Errorf("sign-in after the deletion's failures: got %d, want 429", res.Code)
		}
	})
}
