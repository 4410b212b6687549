package dbtest

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/models"
)

// ModerationNews hears the moderation desk's news of s's database: on
// SQLite the store's own, after each commit; on PostgreSQL through a
// listener of its own connection, as another instance would, ready when
// ModerationNews returns and stopped when the test ends.
func ModerationNews(t testing.TB, s *models.Store, db *bun.DB) <-chan models.ModerationNews {
	t.Helper()
	news := make(chan models.ModerationNews, 16)
	if s.Dialect() != config.DialectPostgres {
		s.Heard = func(n models.ModerationNews) { news <- n }
		return news
	}
	dbURL, err := config.ParseDatabaseURL(URL(t, db))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan struct{}, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		models.ListenModeration(ctx, dbURL.DSN, slog.New(slog.DiscardHandler), func(on bool) {
			if on {
				select {
				case ready <- struct{}{}:
				default:
				}
			}
		}, func(n models.ModerationNews) { news <- n })
	}()
	t.Cleanup(func() { cancel(); <-done })
	select {
	case <-ready:
	case <-time.After(10 * time.Second):
		t.Fatal("the moderation listener did not start")
	}
	return news
}

// NextNews is the next news heard, failing the test after 10 s of none.
func NextNews(t testing.TB, news <-chan models.ModerationNews) models.ModerationNews {
	t.Helper()
	select {
	case n := <-news:
		return n
	case <-time.After(10 * time.Second):
		t.Fatal("no moderation news")
		return models.ModerationNews{}
	}
}
