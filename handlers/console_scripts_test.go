package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestLiveQueueScriptOnlyOnTheQueue: the moderation queue's live script
// is loaded by the queue's page and by no other console page.
func TestLiveQueueScriptOnlyOnTheQueue(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	admin, _ := app.Admin(t)
	admin.Set("Accept", "text/html")
	for page, want := range map[string]bool{"/admin/moderation": true, "/admin": false, "/admin/users": false,
		"/admin/system": false, "/admin/feature-flags": false, "/admin/nowhere": false} {
		res := apptest.Do(t, app, http.MethodGet, page, admin)
		doc, err := goquery.NewDocumentFromReader(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		loads := false
		doc.Find("script[src]").Each(func(_ int, s *goquery.Selection) {
			src, _ := s.Attr("src")
			loads = loads || strings.Contains(src, "live-queue")
		})
		if loads != want {
			t.Errorf("%s (%d) loads live-queue.js: %v, want %v", page, res.Code, loads, want)
		}
	}
}
