package views_test

import (
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/views"
)

func TestOGViewerPage(t *testing.T) {
	v := api.OGViewer{Seed: "s", Quote: `Less is "more" & <b>`, Author: "Mies", PublicURL: "https://plaza.example.com/"}
	doc := render(t, views.OGViewerPage(v))

	img := testid(t, doc, "og-preview")
	if src, _ := img.Attr("src"); src != "/api/og-image?seed=s&quote=Less+is+%22more%22+%26+%3Cb%3E&author=Mies&type=svg&direct=true" {
		t.Errorf("preview src %q", src)
	}
	if alt, _ := img.Attr("alt"); alt != `Quote card: “Less is "more" & <b>” — Mies` {
		t.Errorf("alt %q", alt)
	}
	if og, _ := doc.Find(`meta[property="og:image"]`).Attr("content"); og != "https://plaza.example.com/api/og-image?seed=s&quote=Less+is+%22more%22+%26+%3Cb%3E&author=Mies" {
		t.Errorf("og:image %q", og)
	}
	if got := testid(t, doc, "og-quote").Text(); got != v.Quote {
		t.Errorf("quote field %q", got)
	}
	if pub, _ := testid(t, doc, "og-viewer").Attr("data-public-url"); pub != v.PublicURL {
		t.Errorf("data-public-url %q", pub)
	}

	menu := testid(t, doc, "og-menu")
	if _, hidden := menu.Attr("hidden"); !hidden || menu.AttrOr("role", "") != "menu" {
		t.Error("the menu starts hidden, with role=menu")
	}
	items := menu.Find(`button[role="menuitem"]`)
	if items.Length() != 4 || items.FilterFunction(func(_ int, s *goquery.Selection) bool { return s.AttrOr("tabindex", "") == "-1" }).Length() != 4 {
		t.Errorf("want 4 menu item buttons, out of the tab order; got %d", items.Length())
	}
	if b := testid(t, doc, "og-menu-button"); b.AttrOr("aria-haspopup", "") != "menu" || b.AttrOr("aria-expanded", "") != "false" {
		t.Error("the menu button announces its menu")
	}
	if doc.Find("[style]").Length() != 0 || doc.Find("script:not([src])").Length() != 0 {
		t.Error("no inline style or script: the CSP forbids both")
	}
}
