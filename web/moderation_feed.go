package web

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/internal/live"
	"github.com/plazahq/plaza/models"
)

// ModerationFeed is the moderation queue's news on one instance, for the
// console's live streams (docs/architecture.md, "The moderation feed").
type ModerationFeed = live.Hub[models.ModerationNews]

// NewStreamSlots bounds the queue's streams open on one instance as the
// configuration says.
func NewStreamSlots(c config.ModerationStreams) *live.Slots {
	return live.NewSlots(c.PerUser, c.Max)
}

// queueHeartbeat is how often a quiet stream sends a comment line: under
// the minute after which common proxies drop an idle connection.
const queueHeartbeat = 25 * time.Second

// newsBacklog is how much news may wait for the feed's goroutine.
const newsBacklog = 256

// NewModerationFeed starts the instance's moderation feed until ctx ends.
// On PostgreSQL a listener hears every instance's news (LISTEN on
// models.ModerationChannel, NOTIFY sent in each change's transaction); on
// SQLite, whose one instance is all there is, the store hands over its own
// news as each change commits (models.Store.Heard). After each report or
// decision the feed reads the count of posts awaiting a decision once and
// publishes it too (news that arrives together shares one read); after
// a lost listener is back, it tells the pages to read everything again.
func NewModerationFeed(ctx context.Context, store *models.Store, db config.Database, log *slog.Logger) *ModerationFeed {
	hub := live.NewHub[models.ModerationNews]()
	in := make(chan models.ModerationNews, newsBacklog)
	hear := func(n models.ModerationNews) {
		select {
		case in <- n:
		default:
			log.Warn("moderation news dropped: the feed is behind", "kind", n.Kind, "post_id", n.PostID)
		}
	}
	go relay(ctx, store, hub, in, log)
	if db.Dialect != config.DialectPostgres {
		store.Heard = hear
		return hub
	}
	first := make(chan struct{})
	var once sync.Once
	lost := false
	listening := func(on bool) {
		switch {
		case on && lost:
			hear(models.ModerationNews{Kind: models.NewsResync})
		case on:
			once.Do(func() { close(first) })
		}
		lost = !on
	}
	go models.ListenModeration(ctx, db.DSN, log, listening, hear)
	select { // as NewCaches: wait briefly for the first LISTEN, never long
	case <-first:
	case <-time.After(listenerStartWait):
	case <-ctx.Done():
	}
	return hub
}

// relay publishes the news, each followed by the queue's count when it
// may have changed it, until ctx ends.
func relay(ctx context.Context, store *models.Store, hub *ModerationFeed, in <-chan models.ModerationNews, log *slog.Logger) {
	for {
		select {
		case <-ctx.Done():
			return
		case n := <-in:
			recount := publish(hub, n)
			for more := true; more; {
				select {
				case n := <-in:
					recount = publish(hub, n) || recount
				default:
					more = false
				}
			}
			if !recount {
				continue
			}
			count, err := store.Desk.QueueCount(ctx)
			if err != nil {
				log.Warn("moderation feed: count of posts awaiting a decision unread", "error", err)
				continue
			}
			hub.Publish(models.ModerationNews{Kind: models.NewsQueue, Count: &count})
		}
	}
}

// publish hands n on and reports whether it may change the queue's count,
// which counts posts: a claim does not, nor does news of an application.
func publish(hub *ModerationFeed, n models.ModerationNews) bool {
	hub.Publish(n)
	return n.Kind != models.NewsClaim && n.ApplicationID == 0
}
