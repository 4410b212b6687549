package web_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/web"
)

// powerFixtures are the matrix's doors to actions on a person's property:
// edit locks, notes and warnings, address blocks and webhooks, each with a
// super admin's as the target where the rule protects rank. They join
// doorFixtures (the blocks door replaces the one that blocks a domain
// only, so that its rank variant blocks a super admin's address).
var powerFixtures = map[string]fixture{
	"POST " + api.PathAdminLocks:         lockDoor,
	"DELETE " + api.PathAdminLock:        heldLockDoor,
	"POST " + api.PathAdminV1UserNotes:   personDoor(`{"body":"matrix","kind":"warning"}`),
	"POST " + api.PathAdminV1Blocks:      rankedBlockDoor,
	"PATCH " + api.PathAdminWebhook:      webhookDoor(`{"description":"matrix"}`),
	"DELETE " + api.PathAdminWebhook:     webhookDoor(``),
	"POST " + api.PathAdminWebhookRotate: webhookDoor(``),
	"POST " + api.PathAdminWebhookTest:   webhookDoor(``),
	"POST " + api.PathAdminWebhookRetry:  webhookDoor(``),
	"POST " + api.PathAdminWebhookCancel: webhookDoor(``),
}

func init() {
	for door, fx := range powerFixtures {
		doorFixtures[door] = fx
	}
}

// postOf makes a fresh published post as post does, by a new super admin
// for the rank variant (a decision against a post is one against its
// author), and gives the policy's target: its author.
func (m *matrix) postOf(t *testing.T, c caller, super bool) (int64, policy.Target) {
	if !super {
		id, author := m.post(t, c)
		return id, policy.Owned(author)
	}
	u, tg := m.personOf(t, c, super)
	var id int64
	err := m.app.Store.Change(context.Background(), func(ctx context.Context) error {
		p, err := m.app.Store.Posts.CreateUserPost(ctx, models.PostInput{AuthorID: u.ID, Title: "Matrix", Content: "x", Published: true})
		if err == nil {
			id = p.ID
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return id, tg
}

// lockDoor locks the record of the person acted on.
func lockDoor(t *testing.T, m *matrix, c caller, r web.Route, super bool) target {
	u, tg := m.personOf(t, c, super)
	return target{path: r.Path, body: fmt.Sprintf(`{"type":"user","id":"%d"}`, u.ID), policy: tg}
}

// heldLockDoor is a door to a lock on a member's record that a new admin
// holds, or a new staff member of the round's roles for the rank variants:
// releasing it breaks someone else's lock.
func heldLockDoor(t *testing.T, m *matrix, c caller, r web.Route, super bool) target {
	member := m.person(t, caller{}, false)
	roles := []string{access.RoleAdmin}
	if super {
		roles = m.staffRoles()
	}
	holder := m.app.User(t, fmt.Sprintf("holder-%d@example.com", m.seq.Add(1)), roles...)
	if _, err := m.app.Store.Desk.AcquireLock(context.Background(), "user", fmt.Sprint(member.ID), holder.ID); err != nil {
		t.Fatal(err)
	}
	path := strings.Replace(strings.Replace(r.Path, ":type", "user", 1), ":id", fmt.Sprint(member.ID), 1)
	return target{path: path, policy: personTarget(holder, roles...)}
}

// rankedBlockDoor blocks a new email domain, or for the rank variant the
// address a new super admin signed in from.
func rankedBlockDoor(t *testing.T, m *matrix, c caller, r web.Route, super bool) target {
	if !super {
		return blockDoor(t, m, c, r, super)
	}
	u, tg := m.personOf(t, c, super)
	ip := fmt.Sprintf("2001:db8::%x", m.seq.Add(1))
	if err := m.app.Store.Users.RecordLogin(context.Background(), u.ID, "password", ip, "matrix"); err != nil {
		t.Fatal(err)
	}
	return target{path: r.Path, policy: tg, body: `{"kind":"ip","value":"` + ip + `","reason":"matrix"}`}
}

// webhookDoor is a door to a webhook the person acted on made, with one
// queued delivery for the retry and cancel doors.
func webhookDoor(body string) fixture {
	return func(t *testing.T, m *matrix, c caller, r web.Route, super bool) target {
		u, tg := m.personOf(t, c, super)
		w := &models.Webhook{URL: "https://hooks.example.com/matrix", Events: []string{"user.banned"}, Active: true, CreatedBy: &u.ID}
		var d *models.WebhookDelivery
		ctx := context.Background()
		err := m.app.Store.Change(ctx, func(ctx context.Context) (err error) {
			w.Secret = []byte("matrix-secret")
			if err = m.app.Store.Hooks.CreateWebhook(ctx, w); err == nil {
				d, err = m.app.Store.Hooks.QueueWebhookDelivery(ctx, w.ID, models.EventPing, []byte(`{"type":"ping"}`))
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		path := strings.Replace(withID(r.Path, w.ID), ":deliveryId", fmt.Sprint(d.ID), 1)
		return target{path: path, body: body, policy: tg}
	}
}
