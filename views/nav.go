package views

import "github.com/plazahq/plaza/api"

// NavItem is one entry of the console's sidebar navigation.
type NavItem struct {
	// Key names the entry; AdminLayout's active argument and the
	// "nav-<key>" data-testid use it.
	Key string
	// Label is the text shown in the sidebar.
	Label string
	// Href is the console path the entry links to (or the API reference).
	Href string
}

// ConsoleNav returns the console's sidebar entries in display order: the
// pages that exist, and only those, so that no link leads to a 404 (the
// users, moderation, insight, operations and security pages join it as
// they are built). It builds a fresh slice on every call, so callers may
// not change the navigation for anyone else.
func ConsoleNav() []NavItem {
	return []NavItem{
		{Key: "dashboard", Label: "Dashboard", Href: api.PathConsole},
		{Key: "api-docs", Label: "API reference", Href: api.PathAPIDocs},
	}
}
