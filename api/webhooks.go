package api

import "strconv"

// WebhookRequest is the body of POST /api/v1/admin/webhooks.
type WebhookRequest struct {
	URL         string   `json:"url" required:"true" description:"Where messages are POSTed: http(s), no credentials, not an internal address."`
	Events      []string `json:"events" required:"true" minItems:"1" description:"user.banned, user.silenced, post.moderated, report.created, broadcast.sent, audit.anchor."`
	Description string   `json:"description" maxLength:"500"`
	Active      *bool    `json:"active" description:"Default true."`
}

// WebhookPatch is the body of PATCH /api/v1/admin/webhooks/{id}: every
// field optional, at least one.
type WebhookPatch struct {
	URL         *string  `json:"url"`
	Events      []string `json:"events"`
	Description *string  `json:"description" maxLength:"500"`
	Active      *bool    `json:"active"`
	_           struct{} `minProperties:"1"`
}

// Webhook is a registered endpoint (never its secret).
type Webhook struct {
	ID          string   `json:"id"`
	URL         string   `json:"url"`
	Events      []string `json:"events"`
	Active      bool     `json:"active"`
	Description string   `json:"description"`
	CreatedBy   *string  `json:"createdBy"`
	CreatedAt   string   `json:"createdAt" format:"date-time"`
	UpdatedAt   string   `json:"updatedAt" format:"date-time"`
}

// WebhookWithSecret answers a creation or a secret rotation: the signing
// secret is shown this once.
type WebhookWithSecret struct {
	Webhook
	Secret string `json:"secret" description:"whsec_<base64>: the signing secret, shown this once."`
}

// DeletedWebhook answers DELETE /api/v1/admin/webhooks/{id}.
type DeletedWebhook struct {
	Deleted bool   `json:"deleted"`
	ID      string `json:"id"`
}

// WebhookDelivery is one message to an endpoint and what became of it.
type WebhookDelivery struct {
	ID             string  `json:"id"`
	WebhookID      string  `json:"webhookId"`
	MessageID      string  `json:"messageId" description:"The webhook-id header: the same on every attempt."`
	Event          string  `json:"event"`
	Status         string  `json:"status" enum:"pending,delivered,failed,cancelled"`
	Attempts       int     `json:"attempts"`
	LastStatusCode *int    `json:"lastStatusCode"`
	LastError      string  `json:"lastError"`
	Payload        string  `json:"payload" description:"The body sent, as sent."`
	CreatedAt      string  `json:"createdAt" format:"date-time"`
	LastAttemptAt  *string `json:"lastAttemptAt" format:"date-time"`
	DeliveredAt    *string `json:"deliveredAt" format:"date-time"`
	NextAttemptAt  *string `json:"nextAttemptAt" format:"date-time" description:"When the queue attempts a pending delivery next; null when it will not (settled, cancelled, or held while its endpoint is paused)."`
}

// AdminWebhookPath is one endpoint's URL.
func AdminWebhookPath(id int64) string { return PathAdminWebhooks + "/" + strconv.FormatInt(id, 10) }

// AdminWebhookActionPath is an endpoint's action (rotate-secret, test,
// deliveries).
func AdminWebhookActionPath(id int64, action string) string {
	return AdminWebhookPath(id) + "/" + action
}

// AdminWebhookRetryPath retries one delivery.
func AdminWebhookRetryPath(id, deliveryID int64) string {
	return AdminWebhookPath(id) + "/deliveries/" + strconv.FormatInt(deliveryID, 10) + "/retry"
}
