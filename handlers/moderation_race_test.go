package handlers_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestDecisionsBesideReportsNeverConflict: over real HTTP, reporters file
// their reports on a post while a moderator decides it, round after round,
// each round's post deleted at its end as a spam post is. No two people
// want the same thing here, so every decision and every report is
// served: never a 409. Before, on SQLite a new report took the id of a
// report gone with a deleted post, and settling it broke the key of the
// settled reports kept from the first: the moderator's next decision
// answered 409.
func TestDecisionsBesideReportsNeverConflict(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		srv := httptest.NewServer(app)
		defer srv.Close()
		root, _ := app.Admin(t)
		author := app.User(t, "author@example.com")
		reporters := make([]http.Header, 6)
		for i := range reporters {
			reporters[i] = app.SessionFor(t, app.User(t, fmt.Sprintf("reporter%d@example.com", i)).ID)
		}
		post := func(h http.Header, path, body string) (int, string) {
			req, _ := http.NewRequest("POST", srv.URL+path, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			for k, v := range h {
				req.Header[k] = v
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Error(err)
				return 0, ""
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			return res.StatusCode, string(b)
		}
		for round := range 3 {
			title := fmt.Sprintf("Round %d", round)
			newPostAs(t, app, author.ID, title)
			id := postByTitle(t, db, title)
			var wg sync.WaitGroup
			for i, h := range reporters {
				wg.Go(func() {
					if code, body := post(h, fmt.Sprintf("/api/posts/%d/report", id), `{"reason":"spam"}`); code != http.StatusCreated {
						t.Errorf("round %d, report %d: %d %s", round, i, code, body)
					}
				})
			}
			for _, action := range []string{"dismiss", "approve", "dismiss", "approve"} {
				if code, body := post(root, fmt.Sprintf("/api/v1/admin/posts/%d/moderate", id), `{"action":"`+action+`","reason":"r"}`); code != http.StatusOK {
					t.Errorf("round %d, %s beside the reports: %d %s", round, action, code, body)
				}
			}
			wg.Wait()
			for _, action := range []string{"hide", "delete"} {
				if code, body := post(root, fmt.Sprintf("/api/v1/admin/posts/%d/moderate", id), `{"action":"`+action+`","reason":"spam"}`); code != http.StatusOK {
					t.Errorf("round %d, %s after the reports: %d %s", round, action, code, body)
				}
			}
		}
	})
}
