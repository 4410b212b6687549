package api

import "net/url"

// Notification is one message in a user's inbox: from moderation of the
// user's posts, and later from broadcasts and finished jobs.
type Notification struct {
	ID        string  `json:"id"`
	Title     string  `json:"title"`
	Message   string  `json:"message"`
	Type      string  `json:"type" enum:"info,success,warning,critical"`
	CreatedAt string  `json:"createdAt" format:"date-time"`
	ReadAt    *string `json:"readAt" format:"date-time"`
}

// Inbox answers GET /api/notifications: unread first, then newest.
type Inbox struct {
	Notifications []Notification `json:"notifications"`
	Unread        int            `json:"unread"`
	Total         int            `json:"total"`
	Limit         int            `json:"limit"`
	Offset        int            `json:"offset"`
}

// InboxQuery documents the query of GET /api/notifications.
type InboxQuery struct {
	Limit  int `query:"limit" minimum:"1" maximum:"100" default:"20"`
	Offset int `query:"offset" minimum:"0" default:"0"`
}

// ParseInbox reads limit (1..100, default 20) and offset.
func ParseInbox(q url.Values) (PageParams, error) {
	p, issues := ParseGeneralPage(q)
	if len(issues) > 0 {
		return p, Invalid(issues...)
	}
	return p, nil
}

// UnreadCount answers GET /admin/inbox/badge: the caller's unread
// notifications.
type UnreadCount struct {
	Unread int `json:"unread"`
}
