package models_test

import (
	"testing"

	"github.com/plazahq/plaza/internal/webhook"
	"github.com/plazahq/plaza/models"
)

// TestPingEventIsTheWebhookPackages: the models name the test message's
// event without importing the sender; the two names must agree, or a
// paused endpoint would hold back the pings it should let through.
func TestPingEventIsTheWebhookPackages(t *testing.T) {
	if models.EventPing != webhook.EventPing {
		t.Errorf("models.EventPing = %q, webhook.EventPing = %q", models.EventPing, webhook.EventPing)
	}
}
