package api

import (
	"net/url"
	"strconv"
	"strings"
)

// Notification is one message in a user's inbox: from moderation of the
// user's posts, broadcasts addressed to the user and finished jobs.
type Notification struct {
	ID        string  `json:"id" description:"A notification's number, or \"b\" and the number of a broadcast (e.g. \"b12\"); pass it back as is."`
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

// broadcastPrefix starts the id of a broadcast in an inbox: broadcasts and
// notifications are numbered apart, and the id says which one it is.
const broadcastPrefix = "b"

// NotificationID is the wire id of an inbox message: the notification's
// number, or "b" and the broadcast's.
func NotificationID(id int64, broadcast bool) string {
	s := strconv.FormatInt(id, 10)
	if broadcast {
		return broadcastPrefix + s
	}
	return s
}

// ParseNotificationID reads a NotificationID; ok is false for anything
// else.
func ParseNotificationID(s string) (id int64, broadcast, ok bool) {
	digits, broadcast := strings.CutPrefix(s, broadcastPrefix)
	id, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || id < 1 || strconv.FormatInt(id, 10) != digits {
		return 0, false, false
	}
	return id, broadcast, true
}
