package api

import (
	"fmt"
	"net/http"
)

// CollectAccepted answers a single event: 202 {success, event_id, message}.
type CollectAccepted struct {
	Success bool   `json:"success"`
	EventID string `json:"event_id"`
	Message string `json:"message"`
}

// CollectBatchAccepted answers a batch: 202 {success, event_ids, message},
// the ids in the order of the request's events.
type CollectBatchAccepted struct {
	Success  bool     `json:"success"`
	EventIDs []string `json:"event_ids"`
	Message  string   `json:"message"`
}

// NewCollectAccepted is the answer to a stored single event or batch.
func NewCollectAccepted(ids []string, batch bool) any {
	if !batch {
		return CollectAccepted{Success: true, EventID: ids[0], Message: "Event recorded"}
	}
	return CollectBatchAccepted{Success: true, EventIDs: ids, Message: fmt.Sprintf("%d events recorded", len(ids))}
}

// CollectFailure is the body of the collector's errors:
// {success:false, error, details?}, written by FamilyCollector.
type CollectFailure struct {
	Success bool   `json:"success"`
	Error   string `json:"error"`
	Code    string `json:"code,omitempty" enum:"IP_BLOCKED" description:"Only on a refusal by a block."`
	// Details name the bad values by their JSON path ("events.3.event_type";
	// "" for the body itself), in the shape the v1 and general families use.
	Details *InvalidDetails `json:"details,omitempty"`
}

// ErrCollectNoSession answers a collect request without a signed-in session: 403, never 401.
var ErrCollectNoSession = &Error{Status: http.StatusForbidden, Code: CodeForbidden, Message: "A signed-in session is required"}

// CollectInvalid answers a collect body that is not JSON or breaks the
// event schema: 400 with every bad path.
func CollectInvalid(malformed bool, issues []Issue) *ValidationError {
	msg := "Invalid analytics event"
	if malformed {
		msg = "Malformed JSON body"
	}
	return &ValidationError{Message: msg, Issues: issues}
}

// ErrCollectTooLarge answers a collect body over 256 KiB.
var ErrCollectTooLarge = &Error{Status: http.StatusRequestEntityTooLarge, Code: CodePayloadTooLarge,
	Message: "Request body is too large (at most 256 KiB)"}

// CollectUnavailable answers when the events cannot be stored now (the
// writer's queue is full, the server is stopping, or the database failed):
// nothing was stored and the client may retry after a second.
func CollectUnavailable(cause error) *Error {
	return &Error{Status: http.StatusServiceUnavailable, Code: CodeServerError,
		Message: "Events could not be stored now; retry shortly", RetryAfter: 1, Cause: cause}
}

// CollectEvent is one event of POST /api/analytics/collect, as the
// OpenAPI document shows it; the
// collector parses bodies itself (analytics.Parse).
type CollectEvent struct {
	EventType string         `json:"event_type" required:"true" enum:"page_view,button_click,form_submit,error_encountered,feature_used,scroll,click,test_event"`
	EventData map[string]any `json:"event_data" required:"true" description:"Any JSON object, at most 8 KiB serialised."`
	Timestamp string         `json:"timestamp" format:"date-time" description:"When it happened (ISO 8601), at most 5 minutes ahead and 90 days old; the server's time when absent."`
}

// CollectBatch is a batch of events: {events:[…]}.
type CollectBatch struct {
	Events []CollectEvent `json:"events" required:"true" minItems:"1" maxItems:"100"`
}
