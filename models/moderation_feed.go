package models

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"github.com/plazahq/plaza/internal/config"
	"github.com/uptrace/bun"
)

// ModerationChannel is the PostgreSQL channel the moderation queue's news
// goes by (docs/architecture.md, "The moderation feed"): one JSON
// ModerationNews a notification, sent inside the change's transaction, so
// that it is delivered when, and only if, the change commits.
const ModerationChannel = "plaza_moderation"

// ModerationListenerName is the application_name of the feed listener's
// connection.
const ModerationListenerName = "plaza moderation listener"

// The kinds of moderation news.
const (
	NewsReport   = "report"   // PostID came to the queue: a report filed on it, or held for approval
	NewsDecision = "decision" // a moderator (By) decided Action on PostID
	NewsClaim    = "claim"    // By claimed PostID until Until, or Released it
	NewsQueue    = "queue"    // Count posts await a decision (the feed adds it)
	NewsResync   = "resync"   // news may have been missed: read everything again
	// NewsApplication: an application (ApplicationID) came in. A decision
	// or a claim on an application carries ApplicationID in place of
	// PostID.
	NewsApplication = "application"
)

// ModerationNews is one piece of news of the moderation queue.
type ModerationNews struct {
	Kind   string `json:"kind"`
	PostID int64  `json:"postId,omitempty"`
	// ApplicationID is the applicant's id, on news of an application.
	ApplicationID int64 `json:"applicationId,omitempty"`
	// Title is the post's, for the toast ("Ana hid “Title”"), cut to
	// newsTitleRunes so that a notification stays well under PostgreSQL's
	// 8000 bytes.
	Title    string     `json:"title,omitempty"`
	Action   string     `json:"action,omitempty"`
	ByID     int64      `json:"byId,omitempty"`
	By       string     `json:"by,omitempty"` // the moderator's username
	Until    *time.Time `json:"until,omitempty"`
	Released bool       `json:"released,omitempty"`
	Count    *int       `json:"count,omitempty"`
}

const newsTitleRunes = 200

// Announce sends n to every instance once the change under way commits:
// on PostgreSQL a NOTIFY inside the transaction; on SQLite, whose one
// instance is all there is, the store's Heard after the commit. The
// actions tell the news of what they do, as they queue webhooks.
func (s Desk) Announce(ctx context.Context, n ModerationNews) error {
	if r := []rune(n.Title); len(r) > newsTitleRunes {
		n.Title = string(r[:newsTitleRunes-1]) + "…"
	}
	db := s.db(ctx)
	if Dialect(db) != config.DialectPostgres {
		s.afterCommit(ctx, func() {
			if s.Heard != nil {
				s.Heard(n)
			}
		})
		return nil
	}
	payload, err := json.Marshal(n)
	if err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, "SELECT pg_notify(?, ?)", ModerationChannel, string(payload)); err != nil {
		return fmt.Errorf("announce %s of post %d: %w", n.Kind, n.PostID, err)
	}
	return nil
}

// endClaim ends any claim on post postID: a decision settles it.
func endClaim(ctx context.Context, db bun.IDB, postID int64) error {
	if _, err := db.NewDelete().Table("moderation_claims").Where("post_id = ?", postID).Exec(ctx); err != nil {
		return fmt.Errorf("end the claim on post %d: %w", postID, err)
	}
	return nil
}

// QueueCount is how many posts await a decision: the queue's own figure,
// one counter read (row_counts, kept by triggers).
func (s Desk) QueueCount(ctx context.Context) (int, error) {
	return s.countPosts(ctx, PostListFilter{NeedsReview: true})
}

// ListenModeration calls heard with every piece of news on
// ModerationChannel until ctx ends, on a connection of its own to the
// PostgreSQL database dsn names; listening as ListenChanges's.
func ListenModeration(ctx context.Context, dsn string, log *slog.Logger, listening func(bool), heard func(ModerationNews)) {
	listenOn(ctx, dsn, log, ModerationListenerName, ModerationChannel, listening, func(payload string) {
		var n ModerationNews
		if err := json.Unmarshal([]byte(payload), &n); err != nil {
			log.Warn("moderation news unreadable", "payload", payload, "error", err)
			return
		}
		heard(n)
	})
}
