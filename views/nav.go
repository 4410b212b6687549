package views

import (
	"slices"

	"github.com/plazahq/plaza/api"
)

// NavItem is one entry of the console's sidebar navigation.
type NavItem struct {
	// Key names the entry; AdminLayout's active argument and the
	// "nav-<key>" data-testid use it.
	Key string
	// Label is the text shown in the sidebar.
	Label string
	// Href is the console path the entry links to.
	Href string
}

// NavGroup is a heading of the sidebar and its entries.
type NavGroup struct {
	Label string
	Items []NavItem
}

// ConsoleNav returns the sidebar for v, grouped by what an admin is doing:
// only the pages v may open (v.May.Pages, from the routes of those pages),
// and no empty group. It builds fresh slices on every call.
func ConsoleNav(v Viewer) []NavGroup {
	var out []NavGroup
	for _, g := range consoleNav() {
		var items []NavItem
		for _, it := range g.Items {
			if v.May.Pages[it.Href] {
				items = append(items, it)
			}
		}
		if len(items) > 0 {
			out = append(out, NavGroup{Label: g.Label, Items: items})
		}
	}
	return out
}

// ConsolePaths are the paths the sidebar may link to, for the web layer
// to answer which of them a viewer may open.
func ConsolePaths() []string {
	var out []string
	for _, it := range navItems() {
		out = append(out, it.Href)
	}
	return out
}

// navItems is every entry of the sidebar, in order.
func navItems() []NavItem {
	var out []NavItem
	for _, g := range consoleNav() {
		out = append(out, g.Items...)
	}
	return out
}

// consoleNav is every entry of the sidebar, grouped.
func consoleNav() []NavGroup {
	return []NavGroup{
		{Label: "Community", Items: []NavItem{
			{Key: "users", Label: "Users", Href: api.PathConsoleUsers},
			{Key: "moderation", Label: "Moderation queue", Href: api.PathConsoleModeration},
			{Key: "registration", Label: "Registration", Href: api.PathConsoleRegistration},
			{Key: "invitations", Label: "Invitations", Href: api.PathConsoleInvitations},
			{Key: "new-accounts", Label: "New accounts", Href: api.PathConsoleNewAccounts},
		}},
		{Label: "Insight", Items: []NavItem{
			{Key: "dashboard", Label: "Dashboard", Href: api.PathConsole},
			{Key: "reports", Label: "Reports", Href: api.PathConsoleReports},
		}},
		{Label: "Operations", Items: []NavItem{
			{Key: "system", Label: "Jobs and backups", Href: api.PathConsoleSystem},
			{Key: "broadcasts", Label: "Broadcasts", Href: api.PathConsoleBroadcasts},
			{Key: "flags", Label: "Feature flags", Href: api.PathConsoleFlags},
			{Key: "webhooks", Label: "Webhooks", Href: api.PathConsoleWebhooks},
			{Key: "mail", Label: "Mail", Href: api.PathConsoleMail},
		}},
		{Label: "Security", Items: []NavItem{
			{Key: "audit", Label: "Audit log", Href: api.PathConsoleAudit},
			{Key: "tokens", Label: "API tokens", Href: api.PathConsoleTokens},
			{Key: "blocks", Label: "Blocks", Href: api.PathConsoleBlocks},
		}},
		{Label: "Tools", Items: []NavItem{
			{Key: "inbox", Label: "Inbox", Href: api.PathConsoleInbox},
			{Key: "api-docs", Label: "API reference", Href: api.PathAPIDocs},
			{Key: "og-viewer", Label: "Social image viewer", Href: api.PathOGViewer},
		}},
	}
}

// ConsoleHas reports whether the console has the page key, for links
// between pages: none may lead to a page that is not there.
func ConsoleHas(key string) bool {
	return slices.ContainsFunc(navItems(), func(it NavItem) bool { return it.Key == key })
}
