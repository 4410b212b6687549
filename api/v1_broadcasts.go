package api

// V1BroadcastRequest is the body of POST /api/v1/admin/notifications/broadcast;
// the send-broadcast action checks it (actions.MaxBroadcastTitle and the
// other limits, which the tags below repeat for the document).
type V1BroadcastRequest struct {
	Title    string   `json:"title" required:"true" minLength:"1" maxLength:"200"`
	Message  string   `json:"message" required:"true" minLength:"1" maxLength:"5000"`
	Type     string   `json:"type,omitempty" enum:"info,success,warning,critical" default:"info"`
	Targets  []string `json:"targets" required:"true" minItems:"1" maxItems:"100" description:"\"all\", or any of \"users\", \"moderators\", \"admins\" and \"user:<id>\"."`
	Schedule string   `json:"schedule,omitempty" default:"immediate" description:"\"immediate\" or a future RFC 3339 time (at most a year ahead)."`
}

// V1Broadcast is a broadcast as its creation and the history answer it.
type V1Broadcast struct {
	ID       string   `json:"id"`
	Title    string   `json:"title"`
	Message  string   `json:"message"`
	Type     string   `json:"type" enum:"info,success,warning,critical"`
	Targets  []string `json:"targets"`
	Schedule string   `json:"schedule" description:"\"immediate\", or the time it was scheduled for."`
	Status   string   `json:"status" enum:"scheduled,sent,failed"`
	// Recipients is counted when the broadcast is sent: the users its
	// targets named then.
	Recipients int     `json:"recipients" description:"How many users the targets named when it was sent (0 while scheduled)."`
	Delivered  int     `json:"delivered" description:"How many inboxes hold it: all its recipients from the moment it is sent, 0 while scheduled (Plaza's addition)."`
	Read       int     `json:"read" description:"How many recipients have read it (Plaza's addition)."`
	CreatedAt  string  `json:"createdAt" format:"date-time"`
	CreatedBy  *string `json:"createdBy" description:"The admin's id; null once that account is deleted."`
	SentAt     *string `json:"sentAt" format:"date-time"`
	// DeliveredAt is when every inbox held it: when it was sent.
	DeliveredAt *string `json:"deliveredAt" format:"date-time" description:"When every inbox held it, which is when it was sent; null until then."`
}
