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
			{Key: "users", Label: "Users", Href: api.PathConsoleUsers, Permission: api.PermAdminRead},
			{Key: "moderation", Label: "Moderation queue", Href: api.PathConsoleModeration, Permission: api.PermPostsModerate},
		}},
		{Label: "Insight", Items: []NavItem{
			{Key: "dashboard", Label: "Dashboard", Href: api.PathConsole, Permission: api.PermPostsModerate},
			{Key: "reports", Label: "Reports", Href: api.PathConsoleReports, Permission: api.PermAdminRead},
		}},
		{Label: "Operations", Items: []NavItem{
			{Key: "system", Label: "Jobs and backups", Href: api.PathConsoleSystem, Permission: api.PermAdminRead},
			{Key: "broadcasts", Label: "Broadcasts", Href: api.PathConsoleBroadcasts, Permission: api.PermAdminRead},
			{Key: "flags", Label: "Feature flags", Href: api.PathConsoleFlags, Permission: api.PermAdminRead},
			{Key: "webhooks", Label: "Webhooks", Href: api.PathConsoleWebhooks, Permission: api.PermAdminRead},
		}},
		{Label: "Security", Items: []NavItem{
			{Key: "audit", Label: "Audit log", Href: api.PathConsoleAudit, Permission: api.PermAdminRead},
			{Key: "tokens", Label: "API tokens", Href: api.PathConsoleTokens, Permission: api.PermAdminSuper},
			{Key: "blocks", Label: "Blocks", Href: api.PathConsoleBlocks, Permission: api.PermAdminRead},
		}},
		{Label: "Tools", Items: []NavItem{
			{Key: "inbox", Label: "Inbox", Href: api.PathConsoleInbox, Permission: api.PermPostsModerate},
			{Key: "api-docs", Label: "API reference", Href: api.PathAPIDocs, Permission: api.PermPostsModerate},
			{Key: "og-viewer", Label: "Social image viewer", Href: api.PathOGViewer, Permission: api.PermPostsModerate},
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

// ConsoleHas reports whether the console has the page key, for links
// between pages: none may lead to a page that is not there.
func ConsoleHas(key string) bool {
	for _, g := range ConsoleNav(Viewer{Permissions: []string{api.PermAdminSuper}}) {
		for _, it := range g.Items {
			if it.Key == key {
				return true
			}
		}
	}
	return false
}
