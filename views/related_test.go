package views_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/views"
)

// TestRelatedTable: each related account links to its page and says why
// it is listed in words, over what it shares, spaced as a person reads
// it; a list cut at its limit says so.
func TestRelatedTable(t *testing.T) {
	r := api.V1RelatedAccounts{User: api.V1UserRef{ID: "1", Username: "ana"}, Truncated: true, Accounts: []api.V1RelatedAccount{{
		ID: "7", Username: "spam7", Email: "spam7@example.org", Status: "banned", CreatedAt: "2026-12-01T12:00:00.000Z",
		PostCount: 3, ReportsReceived: 12, Reasons: []string{"address", "range", "signup"},
		Addresses: []string{"203.0.113.7"}, Ranges: []string{"203.0.113.0/24", "2001:db8:1:2::/64"},
	}}}
	var buf bytes.Buffer
	if err := views.RelatedTable(r).Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	doc, err := goquery.NewDocumentFromReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	row := doc.Find(`[data-testid="related-row-7"]`)
	if a := row.Find(`[data-testid="related-link"]`); a.AttrOr("href", "") != "/admin/users/7" || a.Text() != "spam7" {
		t.Errorf("the account links %q to %q", a.Text(), a.AttrOr("href", ""))
	}
	why := strings.Join(strings.Fields(row.Find(`[data-testid="related-why"]`).Text()), " ")
	if want := "Same address Same range Signed up together 203.0.113.7, 203.0.113.0/24, 2001:db8:1:2::/64"; why != want {
		t.Errorf("why reads %q, want %q", why, want)
	}
	if row.Find(`[data-state="banned"]`).Length() != 1 || !strings.Contains(row.Text(), "12") {
		t.Errorf("the row does not show the status and the reports: %q", row.Text())
	}
	if doc.Find(`[data-testid="related-truncated"]`).Length() != 1 {
		t.Error("a truncated list does not say so")
	}
	buf.Reset()
	if err := views.RelatedTable(api.V1RelatedAccounts{User: r.User, Accounts: []api.V1RelatedAccount{}}).Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "No other account shares an address, range or email with this one.") {
		t.Errorf("the empty list: %s", buf.String())
	}
}
