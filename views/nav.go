package views

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

// ConsoleNav returns the console's sidebar entries in display order.
// It builds a fresh slice on every call, so callers may not change the
// navigation for anyone else.
func ConsoleNav() []NavItem {
	return []NavItem{
		{Key: "dashboard", Label: "Dashboard", Href: "/admin"},
		{Key: "users", Label: "Users", Href: "/admin/users"},
		{Key: "posts", Label: "Posts", Href: "/admin/posts"},
		{Key: "moderation", Label: "Moderation", Href: "/admin/moderation"},
		{Key: "analytics", Label: "Analytics", Href: "/admin/analytics"},
		{Key: "reports", Label: "Reports", Href: "/admin/reports"},
		{Key: "jobs", Label: "Jobs", Href: "/admin/jobs"},
		{Key: "notifications", Label: "Notifications", Href: "/admin/notifications"},
		{Key: "feature-flags", Label: "Feature flags", Href: "/admin/feature-flags"},
		{Key: "audit-logs", Label: "Audit log", Href: "/admin/audit-logs"},
		{Key: "tokens", Label: "API tokens", Href: "/admin/tokens"},
	}
}
