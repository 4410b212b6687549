package views_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/plazahq/plaza/views"
)

// TestPersonByName: a person shows by name, linked to their console page
// for a viewer who may read users, as plain text for one who may not, and
// as "deleted account" once the account is gone; never as a bare id.
func TestPersonByName(t *testing.T) {
	people := views.People{"37": "ana"}
	show := func(may views.Abilities, id string) *goquery.Selection {
		t.Helper()
		var buf bytes.Buffer
		ctx := views.WithViewer(context.Background(), views.Viewer{ID: 1, May: may})
		if err := views.Person(people, id).Render(ctx, &buf); err != nil {
			t.Fatal(err)
		}
		doc, err := goquery.NewDocumentFromReader(&buf)
		if err != nil {
			t.Fatal(err)
		}
		return doc.Find("body")
	}
	admin := views.Abilities{SeeUsers: true}
	if a := show(admin, "37").Find("a"); a.AttrOr("href", "") != "/admin/users/37" || a.Text() != "ana" {
		t.Errorf("an admin sees %q linked to %q", a.Text(), a.AttrOr("href", ""))
	}
	moderator := views.Abilities{}
	if s := show(moderator, "37"); s.Find("a").Length() != 0 || strings.TrimSpace(s.Text()) != "ana" {
		t.Errorf("a moderator sees %q with %d links", s.Text(), s.Find("a").Length())
	}
	if s := show(admin, "38"); strings.TrimSpace(s.Text()) != "deleted account" || s.Find("a").Length() != 0 || strings.Contains(s.Text(), "38") {
		t.Errorf("a deleted account shows as %q", s.Text())
	}
}
