package handlers_test

import (
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// TestSignInRunsArgon2ForEveryEmail: sign-in runs one argon2id comparison
// whether the email is unknown, belongs to an account without a password,
// or to one with a password, so that its answer time does not tell which
// (counted through the app's Passwords, not timed).
func TestSignInRunsArgon2ForEveryEmail(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		pw := auth.NewPasswords(auth.DefaultPasswordLimits())
		app := apptest.New(t, db, func(d *web.Deps) { d.Passwords = pw })
		app.UserWithPassword(t, "ada@example.com", "correct horse")
		app.User(t, "oauth-only@example.com")
		for _, email := range []string{"nobody@example.com", "oauth-only@example.com", "ada@example.com"} {
			before := pw.Checks()
			res := apptest.DoBody(t, app, "POST", "/api/auth/signin", nil, `{"email":"`+email+`","password":"wrong horse"}`)
			if res.Code != 401 {
				t.Fatalf("%s: %d %s", email, res.Code, res.Body)
			}
			if n := pw.Checks() - before; n != 1 {
				t.Errorf("%s: %d argon2id comparisons, want 1", email, n)
			}
		}
	})
}
