package models_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/internal/jobs"
	"github.com/plazahq/plaza/internal/metrics"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// clock is a test's time, moved by hand.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

func (c *clock) Add(d time.Duration) { c.mu.Lock(); defer c.mu.Unlock(); c.now = c.now.Add(d) }

// broadcastStore is a Store on db with a hand-moved clock and a job queue
// that stores jobs but never works them.
func broadcastStore(t *testing.T, db *bun.DB) (*models.Store, *clock) {
	t.Helper()
	s := models.NewStore(db)
	c := &clock{now: time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)}
	s.Now = c.Now
	runner, err := jobs.New(db.DB, models.Dialect(db), jobs.Deps{Sweeper: s.Upkeep(), Analytics: s.Analytics, Broadcasts: actions.BroadcastJob{Store: s}, Metrics: metrics.New(nil), Log: discard()})
	if err != nil {
		t.Fatal(err)
	}
	s.Queue = runner
	return s, c
}

func mustUser(t *testing.T, s *models.Store, email string, roles ...string) int64 {
	t.Helper()
	u, err := s.Users.CreateUser(context.Background(), models.NewUser{Email: email, Roles: roles})
	if err != nil {
		t.Fatal(err)
	}
	return u.ID
}

func mustBroadcast(t *testing.T, s *models.Store, title string, targets []string, at *time.Time, by *int64) *models.Broadcast {
	t.Helper()
	b := &models.Broadcast{Title: title, Message: title + " text", Type: "info", Targets: targets, CreatedBy: by}
	err := s.Change(context.Background(), func(ctx context.Context) error {
		if err := s.Notices.SendBroadcast(ctx, b, at); err != nil || b.Status != models.BroadcastSent {
			return err
		}
		if by == nil {
			return nil
		}
		// as the send action tells the sender of one sent now
		return s.Notices.Notify(ctx, []models.Notification{{UserID: *by, Type: "success", Title: "Broadcast sent", Message: title}})
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// inboxOf reads user's whole inbox: its titles in order and its counts.
func inboxOf(t *testing.T, s *models.Store, user int64) (titles []string, items []models.InboxItem, total, unread int) {
	t.Helper()
	items, total, unread, err := s.Notices.Inbox(context.Background(), user, 100, 0)
	if err != nil {
		t.Fatal(err)
	}
	titles = []string{}
	for _, it := range items {
		titles = append(titles, it.Title)
	}
	return titles, items, total, unread
}

func markRead(t *testing.T, s *models.Store, user int64, key models.InboxKey) (*models.InboxItem, error) {
	t.Helper()
	var it *models.InboxItem
	err := s.Change(context.Background(), func(ctx context.Context) (err error) {
		it, err = s.Notices.MarkRead(ctx, user, key)
		return err
	})
	return it, err
}

func broadcastRow(t *testing.T, s *models.Store, id int64) models.BroadcastRow {
	t.Helper()
	rows, _, err := s.Notices.Broadcasts(context.Background(), 100, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.ID == id {
			return r
		}
	}
	t.Fatalf("broadcast %d is not listed", id)
	return models.BroadcastRow{}
}

// TestBroadcastAudiences: a broadcast is in the inbox of exactly the
// people its targets name the moment it is stored, with no job run and no
// row per person; once each, however many of its targets name them, and
// never for an account made after it was sent. Its recipients are counted
// the same way.
func TestBroadcastAudiences(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		s, c := broadcastStore(t, db)
		plain := mustUser(t, s, "plain@example.com")
		mod := mustUser(t, s, "mod@example.com", models.RoleModerator)
		admin := mustUser(t, s, "admin@example.com", models.RoleModerator, models.RoleAdmin)
		super := mustUser(t, s, "super@example.com", models.RoleAdmin, models.RoleSuperAdmin)
		everyone := []int64{plain, mod, admin, super}
		c.Add(time.Minute)
		cases := []struct {
			targets []string
			want    []int64
		}{
			{[]string{"all"}, everyone},
			{[]string{"users"}, []int64{plain}},
			{[]string{"moderators"}, []int64{mod}},
			{[]string{"admins"}, []int64{admin, super}},
			{[]string{fmt.Sprintf("user:%d", mod)}, []int64{mod}},
			{[]string{"moderators", fmt.Sprintf("user:%d", plain), fmt.Sprintf("user:%d", mod), "all"}, everyone},
			{[]string{"users", "admins"}, []int64{plain, admin, super}},
		}
		for i, tc := range cases {
			b := mustBroadcast(t, s, fmt.Sprintf("B%d", i), tc.targets, nil, &super)
			if b.Status != models.BroadcastSent || b.Recipients != len(tc.want) || !b.SentAt.Equal(c.Now()) {
				t.Errorf("%v: stored %+v, want sent now to %d", tc.targets, b, len(tc.want))
			}
			c.Add(time.Second)
		}
		late := mustUser(t, s, "late@example.com")
		if n, err := db.NewSelect().Model((*models.Notification)(nil)).Where("user_id <> ?", super).Count(context.Background()); err != nil || n != 0 {
			t.Errorf("%d notification rows for recipients (%v), want none", n, err)
		}
		for _, u := range append(everyone, late) {
			titles, _, total, unread := inboxOf(t, s, u)
			var want []string
			for i := len(cases) - 1; i >= 0; i-- { // newest first
				if slices.Contains(cases[i].want, u) {
					want = append(want, fmt.Sprintf("B%d", i))
				}
			}
			if u == super {
				titles = slices.DeleteFunc(titles, func(s string) bool { return s == "Broadcast sent" })
				total, unread = total-len(cases), unread-len(cases)
			}
			if !slices.Equal(titles, want) && !(len(titles) == 0 && len(want) == 0) || total != len(want) || unread != len(want) {
				t.Errorf("user %d's inbox: %q (%d, %d unread), want %q", u, titles, total, unread, want)
			}
		}
	})
}

// TestBroadcastReadMarks: reading a broadcast writes one read mark, which
// the reader's inbox (unread first) and the broadcast's read count show;
// a second read keeps the first time; a broadcast outside the reader's
// inbox cannot be read; deleting the reader deletes the mark.
func TestBroadcastReadMarks(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s, c := broadcastStore(t, db)
		reader := mustUser(t, s, "reader@example.com")
		other := mustUser(t, s, "other@example.com")
		mod := mustUser(t, s, "mod@example.com", models.RoleModerator)
		c.Add(time.Minute)
		first := mustBroadcast(t, s, "First", []string{"users"}, nil, nil)
		c.Add(time.Minute)
		second := mustBroadcast(t, s, "Second", []string{"all"}, nil, nil)
		staff := mustBroadcast(t, s, "Staff", []string{"moderators"}, nil, nil)
		c.Add(time.Minute)
		note := &models.Notification{UserID: reader, Title: "Own", Message: "m", Type: "info", CreatedAt: c.Now()}
		if _, err := db.NewInsert().Model(note).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		c.Add(time.Minute)
		readAt := c.Now()
		got, err := markRead(t, s, reader, models.InboxKey{ID: first.ID, Broadcast: true})
		if err != nil || got.ReadAt == nil || !got.ReadAt.Equal(readAt) || got.Title != "First" || !got.CreatedAt.Equal(first.SentAt) {
			t.Fatalf("read: %+v (%v)", got, err)
		}
		c.Add(time.Minute)
		if again, err := markRead(t, s, reader, models.InboxKey{ID: first.ID, Broadcast: true}); err != nil || !again.ReadAt.Equal(readAt) {
			t.Errorf("read twice: %+v (%v), want the first time kept", again, err)
		}
		for _, key := range []models.InboxKey{{ID: staff.ID, Broadcast: true}, {ID: first.ID + 1000, Broadcast: true}, {ID: note.ID + 1000}} {
			if _, err := markRead(t, s, reader, key); !errors.Is(err, models.ErrNotFound) {
				t.Errorf("read %+v, not in the inbox: %v", key, err)
			}
		}
		if _, err := markRead(t, s, other, models.InboxKey{ID: note.ID}); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("another's notification: %v", err)
		}
		titles, items, total, unread := inboxOf(t, s, reader)
		if want := []string{"Own", "Second", "First"}; !slices.Equal(titles, want) || total != 3 || unread != 2 || items[2].ReadAt == nil {
			t.Errorf("inbox %q (%d, %d unread), want %q with First read, last", titles, total, unread, want)
		}
		for _, page := range []struct{ offset, n int }{{1, 1}, {3, 0}, {50, 0}} {
			items, total, unread, err := s.Notices.Inbox(ctx, reader, 1, page.offset)
			if err != nil || len(items) != page.n || total != 3 || unread != 2 || (page.n == 1 && items[0].Title != "Second") {
				t.Errorf("page at %d: %+v (%d, %d unread, %v)", page.offset, items, total, unread, err)
			}
		}
		if _, err := markRead(t, s, mod, models.InboxKey{ID: staff.ID, Broadcast: true}); err != nil {
			t.Fatal(err)
		}
		if _, err := markRead(t, s, other, models.InboxKey{ID: first.ID, Broadcast: true}); err != nil {
			t.Fatal(err)
		}
		for b, want := range map[int64]int{first.ID: 2, second.ID: 0, staff.ID: 1} {
			if r := broadcastRow(t, s, b); r.ReadCount != want {
				t.Errorf("broadcast %d read by %d, want %d", b, r.ReadCount, want)
			}
		}
		if _, err := db.NewDelete().Model((*models.User)(nil)).Where("id = ?", other).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if r := broadcastRow(t, s, first.ID); r.ReadCount != 1 {
			t.Errorf("after the reader's deletion, read by %d, want 1", r.ReadCount)
		}
		if n, err := db.NewSelect().Model((*models.BroadcastRead)(nil)).Where("user_id = ?", other).Count(ctx); err != nil || n != 0 {
			t.Errorf("%d read marks of a deleted user (%v)", n, err)
		}
	})
}

// TestScheduledBroadcast: a scheduled broadcast is in no inbox before its
// time and in every one of its audience from then on, and the list says
// sent, with its recipients, even while its job has not run. Run early,
// the job changes nothing; run by two workers at once, it sends once: one
// note to the sender, one broadcast.sent message.
func TestScheduledBroadcast(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		ctx := context.Background()
		s, c := broadcastStore(t, db)
		job := actions.BroadcastJob{Store: s} // the job's door, which queues broadcast.sent
		sender := mustUser(t, s, "sender@example.com", models.RoleAdmin)
		reader := mustUser(t, s, "reader@example.com")
		mustUser(t, s, "reader2@example.com")
		if _, err := db.NewInsert().Model(&models.Webhook{URL: "https://hooks.invalid/x", Events: []string{"broadcast.sent"}, Active: true,
			Secret: []byte("s"), CreatedAt: c.Now(), UpdatedAt: c.Now()}).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		at := c.Now().Add(time.Hour)
		b := mustBroadcast(t, s, "Later", []string{"users"}, &at, &sender)
		toAll := mustBroadcast(t, s, "Later to all", []string{"all"}, &at, nil)
		if b.Status != models.BroadcastScheduled || b.Recipients != 0 {
			t.Fatalf("stored %+v, want scheduled", b)
		}
		c.Add(30 * time.Minute)
		if titles, _, _, _ := inboxOf(t, s, reader); len(titles) != 0 {
			t.Errorf("before its time the inbox holds %q", titles)
		}
		if r := broadcastRow(t, s, b.ID); r.Status != models.BroadcastScheduled || r.Recipients != 0 {
			t.Errorf("before its time: %+v", r.Broadcast)
		}
		if wait, err := job.SendScheduledBroadcast(ctx, b.ID); err != nil || wait != 30*time.Minute {
			t.Errorf("early job: wait %v (%v), want 30m", wait, err)
		}
		mustUser(t, s, "joined-before@example.com")
		c.Add(30 * time.Minute)
		if titles, _, _, unread := inboxOf(t, s, reader); !slices.Equal(titles, []string{"Later to all", "Later"}) || unread != 2 {
			t.Errorf("at its time, with no job run, the inbox holds %q", titles)
		}
		if r := broadcastRow(t, s, b.ID); r.Status != models.BroadcastSent || r.Recipients != 3 || !r.SentAt.Equal(at) {
			t.Errorf("at its time, with no job run: %+v", r.Broadcast)
		}
		c.Add(time.Minute)
		mustUser(t, s, "joined-after@example.com")
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for i := range errs {
			wg.Go(func() { _, errs[i] = job.SendScheduledBroadcast(ctx, b.ID) })
		}
		wg.Wait()
		if _, err := job.SendScheduledBroadcast(ctx, toAll.ID); err != nil {
			errs = append(errs, err)
		}
		if err := errors.Join(errs...); err != nil {
			t.Fatal(err)
		}
		if r := broadcastRow(t, s, toAll.ID); r.Status != models.BroadcastSent || r.Recipients != 4 {
			t.Errorf("to all, after the job: %+v, want 4 recipients (not the account made after its time)", r.Broadcast)
		}
		var stored models.Broadcast
		if err := db.NewSelect().Model(&stored).Where("id = ?", b.ID).Scan(ctx); err != nil {
			t.Fatal(err)
		}
		if stored.Status != models.BroadcastSent || stored.Recipients != 3 || !stored.SentAt.Equal(at) {
			t.Errorf("stored after the job: %+v, want sent at %v to 3", stored, at)
		}
		notes, err := db.NewSelect().Model((*models.Notification)(nil)).Where("user_id = ? AND title = 'Broadcast sent'", sender).Count(ctx)
		if err != nil || notes != 1 {
			t.Errorf("the sender got %d notes (%v), want 1", notes, err)
		}
		messages, err := db.NewSelect().Model((*models.WebhookDelivery)(nil)).Where("event = 'broadcast.sent'").Count(ctx)
		if err != nil || messages != 2 {
			t.Errorf("%d broadcast.sent messages (%v), want 2: one per broadcast", messages, err)
		}
	})
}
