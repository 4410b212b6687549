package models

import (
	"context"
	"crypto/rand"
	"database/sql"
	"database/sql/driver"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/internal/config"
)

// sqliteEventChunk keeps one multi-row INSERT of events to a modest size.
const sqliteEventChunk = 500

// InsertEvents stores analytics events in one atomic write: COPY on
// PostgreSQL, multi-row INSERTs in one transaction on SQLite. It is
// idempotent: events whose id is already stored are skipped, so a write
// retried after its commit's outcome was lost neither fails nor duplicates.
func (s Analytics) InsertEvents(ctx context.Context, events []AnalyticsEvent) error {
	if len(events) == 0 {
		return nil
	}
	if s.Dialect() == config.DialectPostgres {
		err := s.copyEvents(ctx, events)
		if !IsUniqueViolation(err) {
			return err
		}
		// Some of these ids are stored already: a retry of a write that did
		// commit. COPY cannot skip them; INSERT … ON CONFLICT can.
	}
	// PostgreSQL's unique index holds the partition key too (migration
	// 20261127100000); a retry repeats both.
	conflict := "CONFLICT (id) DO NOTHING"
	if s.Dialect() == config.DialectPostgres {
		conflict = "CONFLICT (id, occurred_at) DO NOTHING"
	}
	return s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		for lo := 0; lo < len(events); lo += sqliteEventChunk {
			chunk := events[lo:min(lo+sqliteEventChunk, len(events))]
			if _, err := tx.NewInsert().Model(&chunk).On(conflict).Exec(ctx); err != nil {
				return fmt.Errorf("insert analytics events: %w", err)
			}
		}
		return nil
	})
}

// eventColumns are the columns COPY fills, in the order of copyRow.
var eventColumns = []string{"id", "event_type", "event_data", "user_id", "session_id", "ip_hash", "user_agent", "page_path", "occurred_at", "received_at"}

// copyEvents writes events with one COPY statement, atomic on its own.
func (s *Store) copyEvents(ctx context.Context, events []AnalyticsEvent) error {
	rows := make([][]any, len(events))
	data := make([]byte, 0, 128*len(events)) // every event's event_data, one after the other
	for i := range events {
		row, err := copyRow(&events[i], &data)
		if err != nil {
			return err
		}
		rows[i] = row
	}
	return RawPostgresConn(ctx, s.DB, func(c *stdlib.Conn) error {
		_, err := c.Conn().CopyFrom(ctx, pgx.Identifier{"analytics_events"}, eventColumns, pgx.CopyFromRows(rows))
		if err != nil {
			return fmt.Errorf("copy analytics events: %w", err)
		}
		return nil
	})
}

// copyRow is e as a COPY row; its event_data is appended to buf, which
// the row then shares.
func copyRow(e *AnalyticsEvent, buf *[]byte) ([]any, error) {
	id, err := uuid.Parse(e.ID)
	if err != nil {
		return nil, fmt.Errorf("analytics event id %q: %w", e.ID, err)
	}
	data := []byte("{}")
	if e.EventData != nil {
		start := len(*buf)
		if *buf, err = appendObject(*buf, e.EventData); err != nil {
			return nil, fmt.Errorf("analytics event %s data: %w", e.ID, err)
		}
		data = (*buf)[start:len(*buf):len(*buf)]
	}
	var user any
	if e.UserID != nil {
		user = *e.UserID
	}
	return []any{pgtype.UUID{Bytes: id, Valid: true}, e.EventType, data, user, e.SessionID, e.IPHash,
		e.UserAgent, e.PagePath, e.OccurredAt.UTC(), e.ReceivedAt.UTC()}, nil
}

// IsTransient reports whether a database error may pass if the same write
// is tried again: a lost or refused connection, a serialization failure or
// deadlock, a server shutting down or out of resources, a busy SQLite file,
// or an attempt that ran out of time.
func IsTransient(err error) bool {
	if err == nil {
		return false
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		c := pgErr.Code
		return strings.HasPrefix(c, "08") || strings.HasPrefix(c, "40") || strings.HasPrefix(c, "53") ||
			strings.HasPrefix(c, "57P") || c == "55P03" || c == "55006"
	}
	var netErr net.Error
	var connErr *pgconn.ConnectError
	switch {
	case errors.As(err, &connErr), errors.As(err, &netErr),
		errors.Is(err, driver.ErrBadConn), errors.Is(err, sql.ErrConnDone),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, context.DeadlineExceeded), pgconn.SafeToRetry(err):
		return true
	}
	msg := err.Error()
	for _, m := range []string{"database is locked", "SQLITE_BUSY", "database table is locked", "connection reset", "broken pipe", "connection refused", "conn closed"} {
		if strings.Contains(msg, m) {
			return true
		}
	}
	return false
}

// MissingEvents returns the ids among ids that are not stored.
func (s Analytics) MissingEvents(ctx context.Context, ids []string) ([]string, error) {
	var missing []string
	const chunk = 5000
	for lo := 0; lo < len(ids); lo += chunk {
		part := ids[lo:min(lo+chunk, len(ids))]
		var found []string
		err := s.DB.NewSelect().Model((*AnalyticsEvent)(nil)).ColumnExpr("CAST(ae.id AS TEXT)").
			Where("ae.id IN (?)", bun.List(part)).Scan(ctx, &found)
		if err != nil {
			return nil, fmt.Errorf("look up analytics events: %w", err)
		}
		have := make(map[string]bool, len(found))
		for _, id := range found {
			have[strings.ToLower(id)] = true
		}
		for _, id := range part {
			if !have[strings.ToLower(id)] {
				missing = append(missing, id)
			}
		}
	}
	return missing, nil
}

// AnalyticsIPKey returns the secret that keys the hashes of one UTC day's
// IP addresses, creating it on first use. Instances race to insert a random
// secret and all read back the one that won, so they agree.
func (s Analytics) AnalyticsIPKey(ctx context.Context, day time.Time) ([]byte, error) {
	day = dayOf(day)
	b := make([]byte, 32)
	rand.Read(b)
	k := &AnalyticsIPKey{Day: day, Secret: hex.EncodeToString(b), CreatedAt: s.now()}
	if _, err := s.DB.NewInsert().Model(k).On("CONFLICT (day) DO NOTHING").Exec(ctx); err != nil {
		return nil, fmt.Errorf("create analytics key: %w", err)
	}
	var secret string
	err := s.DB.NewSelect().Model((*AnalyticsIPKey)(nil)).Column("secret").Where("day = ?", day).Scan(ctx, &secret)
	if err != nil {
		return nil, fmt.Errorf("read analytics key: %w", err)
	}
	return hex.DecodeString(secret)
}

// SessionGap is the inactivity that ends a session in the roll-ups: a
// visitor's events on one day form one session as long as no two
// consecutive events are more than 30 minutes apart.
const SessionGap = 30 * time.Minute

// RollUpAnalytics recomputes one UTC day's roll-ups from analytics_events:
// the events of each type (analytics_daily_events), and the active users,
// sessions and total session seconds (analytics_daily_stats). Running it
// again gives the same rows, so it can run as often as wanted, from any
// instance.
//
// A session is a run of one visitor's events within the day with no gap
// longer than SessionGap; the visitor is (user_id, session_id), where
// session_id is the client's event_data.session_id or a daily pseudonym of
// the sign-in session. Its length is the time from its first event to its
// last, so a lone event is a session of 0 seconds.
func (s Analytics) RollUpAnalytics(ctx context.Context, day time.Time) error {
	start := dayOf(day)
	end := start.AddDate(0, 0, 1)
	return s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var counts []AnalyticsDailyEvents
		err := tx.NewSelect().Model((*AnalyticsEvent)(nil)).
			ColumnExpr("ae.event_type, count(*) AS events").
			Where("ae.occurred_at >= ? AND ae.occurred_at < ?", start, end).
			Group("ae.event_type").Scan(ctx, &counts)
		if err != nil {
			return fmt.Errorf("count analytics events of %s: %w", start.Format(time.DateOnly), err)
		}
		// Upsert in one order, so that concurrent roll-ups of a day (jobs of
		// several instances) lock rows alike and never deadlock.
		slices.SortFunc(counts, func(a, b AnalyticsDailyEvents) int { return strings.Compare(a.EventType, b.EventType) })
		types := make([]string, 0, len(counts))
		for i := range counts {
			counts[i].Day = start
			types = append(types, counts[i].EventType)
		}
		del := tx.NewDelete().Model((*AnalyticsDailyEvents)(nil)).Where("day = ?", start)
		if len(types) > 0 {
			del = del.Where("event_type NOT IN (?)", bun.List(types))
		}
		if _, err := del.Exec(ctx); err != nil {
			return err
		}
		if len(counts) > 0 {
			_, err = tx.NewInsert().Model(&counts).On("CONFLICT (day, event_type) DO UPDATE").
				Set("events = EXCLUDED.events").Exec(ctx)
			if err != nil {
				return fmt.Errorf("store daily event counts: %w", err)
			}
		}
		if err := rollUpHours(ctx, tx, start, end); err != nil {
			return err
		}
		stats := AnalyticsDailyStats{Day: start}
		if err := tx.NewSelect().Model((*AnalyticsEvent)(nil)).ColumnExpr("count(DISTINCT ae.user_id)").
			Where("ae.occurred_at >= ? AND ae.occurred_at < ?", start, end).Scan(ctx, &stats.ActiveUsers); err != nil {
			return fmt.Errorf("count active users: %w", err)
		}
		var millis sql.NullInt64
		if err := tx.QueryRowContext(ctx, sessionsQuery(tx), start, end).Scan(&stats.Sessions, &millis); err != nil {
			return fmt.Errorf("count sessions: %w", err)
		}
		stats.TotalSessionSeconds = (millis.Int64 + 500) / 1000
		_, err = tx.NewInsert().Model(&stats).On("CONFLICT (day) DO UPDATE").
			Set("active_users = EXCLUDED.active_users").Set("sessions = EXCLUDED.sessions").
			Set("total_session_seconds = EXCLUDED.total_session_seconds").Exec(ctx)
		if err != nil {
			return fmt.Errorf("store daily stats: %w", err)
		}
		return nil
	})
}

// rollUpHours recomputes the events of each hour of [start, end).
func rollUpHours(ctx context.Context, tx bun.Tx, start, end time.Time) error {
	var rows []struct {
		K string
		N int64
	}
	err := tx.NewSelect().Model((*AnalyticsEvent)(nil)).ColumnExpr(bucketExpr(tx, "ae.occurred_at", true)+" AS k").
		ColumnExpr("count(*) AS n").Where("ae.occurred_at >= ? AND ae.occurred_at < ?", start, end).GroupExpr("1").OrderExpr("1").Scan(ctx, &rows)
	if err != nil {
		return fmt.Errorf("count events by hour: %w", err)
	}
	if _, err := tx.NewDelete().Model((*AnalyticsHourlyEvents)(nil)).Where("hour >= ? AND hour < ?", start, end).Exec(ctx); err != nil {
		return err
	}
	if len(rows) == 0 {
		return nil
	}
	hours := make([]AnalyticsHourlyEvents, len(rows))
	for i, r := range rows {
		h, err := time.Parse("2006-01-02 15", r.K)
		if err != nil {
			return fmt.Errorf("an hour read back as %q", r.K)
		}
		hours[i] = AnalyticsHourlyEvents{Hour: h, Events: r.N}
	}
	_, err = tx.NewInsert().Model(&hours).On("CONFLICT (hour) DO UPDATE").Set("events = EXCLUDED.events").Exec(ctx)
	return err
}

// sessionsQuery counts the sessions of a day and sums their lengths in
// milliseconds (see RollUpAnalytics); its two arguments bound occurred_at.
// Times are whole milliseconds, SQLite's date precision, so that both
// dialects cut sessions at exactly the same gaps.
func sessionsQuery(db bun.IDB) string {
	ms := "CAST(round((julianday(occurred_at) - 2440587.5) * 86400000.0) AS INTEGER)"
	if Dialect(db) == config.DialectPostgres {
		ms = "round(EXTRACT(EPOCH FROM occurred_at) * 1000)::bigint"
	}
	return fmt.Sprintf(`
SELECT count(*), sum(last_t - first_t) FROM (
  SELECT min(t) AS first_t, max(t) AS last_t FROM (
    SELECT uid, sid, t, sum(starts) OVER (PARTITION BY uid, sid ORDER BY t ROWS UNBOUNDED PRECEDING) AS run FROM (
      SELECT uid, sid, t, CASE WHEN t - lag(t) OVER (PARTITION BY uid, sid ORDER BY t) <= %d THEN 0 ELSE 1 END AS starts
      FROM (SELECT COALESCE(user_id, 0) AS uid, session_id AS sid, %s AS t
            FROM analytics_events WHERE occurred_at >= ? AND occurred_at < ?) AS e
    ) AS marked
  ) AS numbered GROUP BY uid, sid, run
) AS sessions`, SessionGap.Milliseconds(), ms)
}

// DeleteOldEvents deletes the events that occurred before before and
// returns how many it deleted. On PostgreSQL the monthly partitions wholly
// before before go first, each with one DROP TABLE
// (dropOldEventPartitions); the rest (the month holding before, and the
// default partition) and SQLite's one table go by row, at most batch rows
// per statement so that no statement holds locks for long, until none is
// left or ctx ends. The rule is exact either way: an event is deleted if
// and only if it occurred before before. It also deletes the IP-hash keys
// of days before before's day.
func (s Analytics) DeleteOldEvents(ctx context.Context, before time.Time, batch int) (int64, error) {
	batch = max(batch, 1)
	before = before.UTC()
	total, err := s.dropOldEventPartitions(ctx, before)
	if err != nil {
		return total, err
	}
	for {
		if err := ctx.Err(); err != nil {
			return total, err
		}
		sub := s.DB.NewSelect().Model((*AnalyticsEvent)(nil)).Column("ae.id").
			Where("ae.occurred_at < ?", before).OrderExpr("ae.occurred_at").Limit(int64(batch))
		// The time bound again lets PostgreSQL skip the partitions of later
		// months instead of looking each id up in every one.
		res, err := s.DB.NewDelete().TableExpr("analytics_events").Where("id IN (?)", sub).
			Where("occurred_at < ?", before).Exec(ctx)
		if err != nil {
			return total, fmt.Errorf("delete old analytics events: %w", err)
		}
		n, _ := res.RowsAffected()
		total += n
		if n < int64(batch) {
			break
		}
	}
	if _, err := s.DB.NewDelete().Model((*AnalyticsIPKey)(nil)).Where("day < ?", dayOf(before)).Exec(ctx); err != nil {
		return total, fmt.Errorf("delete old analytics keys: %w", err)
	}
	if _, err := s.DB.NewDelete().Model((*AnalyticsHourlyEvents)(nil)).Where("hour < ?", dayOf(before)).Exec(ctx); err != nil {
		return total, fmt.Errorf("delete old hourly counts: %w", err)
	}
	// The events of these hours are gone, so their counters are too (and
	// hold 0: the row deletes' trigger took them off, and a dropped
	// partition's went with it).
	_, err = s.DB.NewDelete().TableExpr("hourly_counts").Where("metric = ?", eventsStored.name).
		Where("hour < ?", hourArg(s.DB, dayOf(before))).Exec(ctx)
	if err != nil {
		return total, fmt.Errorf("delete old hourly event counts: %w", err)
	}
	return total, nil
}

// dayOf is the UTC day holding t, as midnight UTC.
func dayOf(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}
