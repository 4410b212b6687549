package web_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/web"
)

// settingsFixtures are the matrix's doors to actions on the platform's
// settings and endpoints: a new webhook, the reason presets, feature
// flags, maintenance jobs and broadcasts. They join doorFixtures.
var settingsFixtures = map[string]fixture{
	"POST " + api.PathAdminWebhooks:         platformDoor(`{"url":"https://hooks.example.com/matrix","events":["user.banned"]}`),
	"PUT " + api.PathAdminV1Reasons:         platformDoor(`{"reasons":["Spam","Matrix"]}`),
	"PUT " + api.PathAdminV1NewAccountPosts: platformDoor(`{"holdFirst":0}`),
	"POST " + api.PathConsoleNewAccounts:    platformDoor(`{"holdFirst":0}`),
	"PUT " + api.PathAdminV1Flag:            flagDoor(false),
	"DELETE " + api.PathAdminV1Flag:         flagDoor(true),
	"POST " + api.PathAdminV1Maintenance:    maintenanceDoor,
	"POST " + api.PathAdminV1Broadcast:      broadcastDoor,
	// A question alone: the doors change the rules without closing the
	// matrix's sign-ups.
	"PUT " + api.PathAdminV1Registration:  platformDoor(`{"question":"Why join?"}`),
	"POST " + api.PathConsoleRegistration: platformDoor(`{"question":"Why join us?"}`),
}

func init() {
	for door, fx := range settingsFixtures {
		doorFixtures[door] = fx
	}
}

// flagDoor is a door to a fresh feature flag, made first when the door
// deletes one.
func flagDoor(made bool) fixture {
	return func(t *testing.T, m *matrix, c caller, r web.Route, super bool) target {
		name := fmt.Sprintf("matrix_%d", m.seq.Add(1))
		if made {
			err := m.app.Store.Change(context.Background(), func(ctx context.Context) error {
				_, _, err := m.app.Store.Settings.PutFeatureFlag(ctx, name, models.FlagChange{}, m.staff)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		return target{path: strings.Replace(r.Path, ":name", name, 1), body: `{"enabled":true}`, policy: policy.Platform}
	}
}

// maintenanceDoor queues a job that ends no sessions, once the jobs an
// earlier caller queued are settled: another of the action queued or
// running would be refused whoever asks.
func maintenanceDoor(t *testing.T, m *matrix, c caller, r web.Route, super bool) target {
	_, err := m.app.Store.DB.NewUpdate().Model((*models.MaintenanceJob)(nil)).Set("status = ?", models.JobCompleted).
		Where("status IN (?, ?)", models.JobQueued, models.JobRunning).Exec(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return target{path: r.Path, body: `{"action":"cache_clear","scope":"queries"}`, policy: policy.Platform}
}

// broadcastDoor sends a notification to the super admin's inbox alone.
func broadcastDoor(t *testing.T, m *matrix, c caller, r web.Route, super bool) target {
	return target{path: r.Path, policy: policy.Platform,
		body: fmt.Sprintf(`{"title":"Matrix","message":"m","targets":["user:%d"]}`, m.staff)}
}
