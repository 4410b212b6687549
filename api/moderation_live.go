package api

// V1Claim is a moderator's claim on a post of the moderation queue
// ("Ana is reviewing"): it holds until expiresAt unless renewed.
type V1Claim struct {
	PostID    string      `json:"postId"`
	By        V1ClaimedBy `json:"by"`
	ClaimedAt string      `json:"claimedAt" format:"date-time"`
	ExpiresAt string      `json:"expiresAt" format:"date-time"`
}

// V1ClaimedBy is the moderator who holds a claim.
type V1ClaimedBy struct {
	ID       string `json:"id"`
	Username string `json:"username"`
}

// V1Released answers the release of a claim: whether the caller held one.
type V1Released struct {
	PostID   string `json:"postId"`
	Released bool   `json:"released"`
}

// QueueNews is the data of one server-sent event of the moderation
// queue's stream; the event's name says which fields it carries:
// queue (count), report (postId), decision (postId, action, by, title),
// claim (postId, by, until, or released), application (applicationId),
// resync (none). A decision or a claim on an application carries
// applicationId in place of postId.
type QueueNews struct {
	Count         *int   `json:"count,omitempty"`
	PostID        string `json:"postId,omitempty"`
	ApplicationID string `json:"applicationId,omitempty"`
	Action        string `json:"action,omitempty"`
	By            string `json:"by,omitempty"`
	Title         string `json:"title,omitempty"`
	Until         string `json:"until,omitempty" format:"date-time"`
	Released      bool   `json:"released,omitempty"`
}
