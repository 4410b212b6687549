package bench

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/session"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/web"
)

const (
	// inboxBroadcasts is how many broadcasts the inbox benchmark keeps.
	inboxBroadcasts = 1000
	// inboxReaders is how many users the inbox benchmark signs in as.
	inboxReaders = 500
	inboxTitle   = "Inbox bench"
)

// BenchmarkInbox measures GET /api/notifications with 1,000 broadcasts
// (added by SQL once, all sent within the last hour, so every user's
// inbox holds those addressed to them): most to everyone, the rest to one
// role or one user. Every user has read the newest one to everyone, and
// each reader has read every other one to everyone. Readers are users
// spread over the table, one request each in turn, the first page and a
// page 500 messages in.
func BenchmarkInbox(b *testing.B) {
	rt, d, base, _ := benchWeb(b)
	ctx := context.Background()
	s := rt.Store
	readers := inboxReadersOf(b, s)
	seedBroadcasts(b, s, readers)
	sessions := make([]http.Header, len(readers))
	for i, u := range readers {
		sessions[i] = sessionFor(b, d, u)
	}
	_, total, unread, err := s.Notices.Inbox(ctx, readers[0], 1, 0)
	if err != nil || total < inboxBroadcasts/2 {
		b.Fatalf("a reader's inbox holds %d (%v); the seeding went wrong", total, err)
	}
	b.Logf("%d readers; the first one's inbox: %d messages, %d unread", len(readers), total, unread)
	for _, c := range []struct{ name, query string }{
		{"first-page", "?limit=20"},
		{"offset-500", "?limit=20&offset=500"},
	} {
		b.Run(c.name, func(b *testing.B) {
			lat := sequential(b, base+api.PathNotifications+c.query, sessions)
			b.ReportMetric(apptest.Millis(apptest.Quantile(lat, 0.5)), "p50-ms")
			b.ReportMetric(apptest.Millis(apptest.Quantile(lat, 0.99)), "p99-ms")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// inboxReadersOf picks inboxReaders active users (who may sign in)
// spread evenly over the ids.
func inboxReadersOf(b *testing.B, s *models.Store) []int64 {
	ctx := context.Background()
	var n int64
	if err := s.DB.NewSelect().Model((*models.User)(nil)).ColumnExpr("max(id)").Scan(ctx, &n); err != nil {
		b.Fatal(err)
	}
	var ids []int64
	step := max(n/inboxReaders, 1)
	err := s.DB.NewSelect().Model((*models.User)(nil)).Column("u.id").Where("u.id % ? = 0", step).Where("u.status = ?", models.UserActive).
		OrderExpr("u.id").Limit(inboxReaders).Scan(ctx, &ids)
	if err != nil || len(ids) == 0 {
		b.Fatalf("readers: %v (%v)", ids, err)
	}
	return ids
}

// seedBroadcasts tops the bench's broadcasts up to inboxBroadcasts, sent
// a few seconds apart up to a minute ago, then writes the read marks.
// Run again, it adds what is missing.
func seedBroadcasts(b *testing.B, s *models.Store, readers []int64) {
	ctx := context.Background()
	n, err := s.DB.NewSelect().Model((*models.Broadcast)(nil)).Where("title LIKE ?", inboxTitle+"%").Count(ctx)
	have := int(n)
	if err != nil {
		b.Fatal(err)
	}
	now := time.Now().UTC().Truncate(time.Microsecond)
	if have < inboxBroadcasts {
		var bs []models.Broadcast
		for i := have; i < inboxBroadcasts; i++ {
			bs = append(bs, models.Broadcast{Title: fmt.Sprintf("%s %d", inboxTitle, i), Message: "Seeded for the inbox benchmark.",
				Type: "info", Targets: []string{inboxTarget(i, readers)}, Status: models.BroadcastSent,
				SentAt: now.Add(-time.Minute - time.Duration(inboxBroadcasts-i)*3*time.Second), CreatedAt: now})
		}
		err := s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			if _, err := tx.NewInsert().Model(&bs).Exec(ctx); err != nil {
				return err
			}
			targets := make([]models.BroadcastTarget, len(bs))
			for i, bc := range bs {
				targets[i] = models.BroadcastTarget{BroadcastID: bc.ID, Target: bc.Targets[0], SentAt: bc.SentAt}
			}
			_, err := tx.NewInsert().Model(&targets).Exec(ctx)
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	start := time.Now()
	var newest int64
	err = s.DB.NewSelect().Model((*models.BroadcastTarget)(nil)).ColumnExpr("max(broadcast_id)").
		Where("target = 'all'").Scan(ctx, &newest)
	if err != nil {
		b.Fatal(err)
	}
	for _, q := range []string{
		"INSERT INTO broadcast_reads (user_id, broadcast_id, read_at) SELECT u.id, ?1, ?0 FROM users AS u WHERE TRUE ON CONFLICT DO NOTHING",
		"INSERT INTO broadcast_reads (user_id, broadcast_id, read_at) SELECT u.id, bt.broadcast_id, ?0 " +
			"FROM users AS u JOIN broadcast_targets AS bt ON bt.target = 'all' AND bt.broadcast_id % 2 = 0 " +
			"WHERE u.id IN (?2) ON CONFLICT DO NOTHING",
	} {
		if _, err := s.DB.NewRaw(q, now, newest, bun.In(readers)).Exec(ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.Logf("read marks written in %v", time.Since(start).Round(time.Millisecond))
}

// inboxTarget spreads the broadcasts over the targets: seven in ten to
// everyone, one in ten to each role, one in ten to one of the readers.
func inboxTarget(i int, readers []int64) string {
	switch i % 10 {
	case 7:
		return "users"
	case 8:
		return []string{"moderators", "admins"}[i/10%2]
	case 9:
		return fmt.Sprintf("user:%d", readers[i/10%len(readers)])
	}
	return "all"
}

// sessionFor signs user in, as signing in would, and returns the header.
func sessionFor(b *testing.B, d web.Deps, user int64) http.Header {
	sm := d.Sessions
	ctx, err := sm.Load(context.Background(), "")
	if err != nil {
		b.Fatal(err)
	}
	sm.Put(ctx, session.UserKey, user)
	sm.Put(ctx, session.ConfirmedKey, time.Now().Unix())
	token, _, err := sm.Commit(ctx)
	if err != nil {
		b.Fatal(err)
	}
	return http.Header{"Cookie": {sm.Cookie.Name + "=" + token}}
}

// sequential sends b.N requests to url one after another, each as the
// next of sessions, and returns their latencies, sorted.
func sequential(b *testing.B, url string, sessions []http.Header) []time.Duration {
	client := &http.Client{}
	lat := make([]time.Duration, b.N)
	b.ResetTimer()
	for i := range b.N {
		req, _ := http.NewRequest(http.MethodGet, url, nil)
		req.Header = sessions[i%len(sessions)]
		start := time.Now()
		res, err := client.Do(req)
		if err != nil || res.StatusCode != http.StatusOK {
			b.Fatalf("request %d: %v %v", i, err, res)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		lat[i] = time.Since(start)
	}
	b.StopTimer()
	slices.Sort(lat)
	return lat
}
