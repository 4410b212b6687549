package views

import "github.com/plazahq/plaza/api"

// NavItem is one entry of the console's sidebar navigation.
type NavItem struct {
	// Key names the entry; AdminLayout's active argument and the
	// "nav-<key>" data-testid use it.
	Key string
	// Label is the text shown in the sidebar.
	Label string
	// Href is the console path the entry links to.
	Href string
	// Permission is what the viewer needs for the page to be shown.
	Permission string
}

// NavGroup is a heading of the sidebar and its entries.
type NavGroup struct {
	Label string
	Items []NavItem
}

// ConsoleNav returns the sidebar for v, grouped by what an admin is doing:
// only the pages v may open, and no empty group. It builds fresh slices on
// every call.
func ConsoleNav(v Viewer) []NavGroup {
	all := []NavGroup{
		{Label: "Community", Items: []NavItem{
			{Key: "users", Label: "Users", Href: api.PathConsoleUsers, Permission: "admin:read"},
		}},
		{Label: "Insight", Items: []NavItem{
			{Key: "dashboard", Label: "Dashboard", Href: api.PathConsole, Permission: "posts:moderate"},
		}},
		{Label: "Operations", Items: []NavItem{
			{Key: "flags", Label: "Feature flags", Href: api.PathConsoleFlags, Permission: "admin:read"},
		}},
		{Label: "Security", Items: []NavItem{
			{Key: "tokens", Label: "API tokens", Href: api.PathConsoleTokens, Permission: "admin:super"},
		}},
		{Label: "Tools", Items: []NavItem{
			{Key: "inbox", Label: "Inbox", Href: api.PathConsoleInbox, Permission: "posts:moderate"},
			{Key: "api-docs", Label: "API reference", Href: api.PathAPIDocs, Permission: "posts:moderate"},
			{Key: "og-viewer", Label: "Social image viewer", Href: api.PathOGViewer, Permission: "posts:moderate"},
		}},
	}
	var out []NavGroup
	for _, g := range all {
		var items []NavItem
		for _, it := range g.Items {
			if v.Can(it.Permission) {
				items = append(items, it)
			}
		}
		if len(items) > 0 {
			out = append(out, NavGroup{Label: g.Label, Items: items})
		}
	}
	return out
}
