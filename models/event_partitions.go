package models

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/internal/config"
)

// On PostgreSQL analytics_events is partitioned by the UTC month its
// events occurred in (migration 20261127100000): one partition per month,
// named analytics_events_YYYY_MM, and analytics_events_default for rows of
// a month that has none. SQLite keeps one table, and these functions do
// nothing there.

// EventMonthsAhead is how many months after the current one have their
// partition made in advance, so that the month boundary never finds a
// month without one even if the periodic job stops for a while.
const EventMonthsAhead = 3

// partitionLockTimeout bounds how long creating or dropping a partition
// waits for the table's locks. Both wait for the statements reading or
// writing the table to finish, and a statement that comes after a waiting
// lock request waits behind it: without a bound, one long report would
// stall ingestion. On timeout the job fails and runs again later.
const partitionLockTimeout = "5s"

const (
	eventPartitionPrefix  = "analytics_events_"
	eventDefaultPartition = "analytics_events_default"
)

// EnsureEventPartitions makes, on PostgreSQL, the partitions of every
// month from the one holding now-keep (the oldest an event may be, under
// retention) to EventMonthsAhead months after now's, and of any such month
// whose rows the default partition holds (a bulk load, a restore), moving
// those rows in; it returns how many partitions it made. Instances may
// run it together: each month is made once.
func (s Analytics) EnsureEventPartitions(ctx context.Context, now time.Time, keep time.Duration) (int, error) {
	if s.Dialect() != config.DialectPostgres {
		return 0, nil
	}
	first, last := monthOf(now.Add(-keep)), monthOf(now).AddDate(0, EventMonthsAhead, 0)
	var months []time.Time
	err := s.DB.NewRaw(`SELECT DISTINCT date_trunc('month', occurred_at, 'UTC') FROM analytics_events_default
		WHERE occurred_at >= ?`, first).Scan(ctx, &months)
	if err != nil {
		return 0, fmt.Errorf("list the months of unpartitioned events: %w", err)
	}
	for m := first; !m.After(last); m = m.AddDate(0, 1, 0) {
		months = append(months, m)
	}
	made := 0
	for _, m := range months {
		var created bool
		err := s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			if _, err := tx.ExecContext(ctx, "SET LOCAL lock_timeout = '"+partitionLockTimeout+"'"); err != nil {
				return err
			}
			return tx.NewRaw("SELECT plaza_event_partition(?)", m.UTC()).Scan(ctx, &created)
		})
		if err != nil {
			return made, fmt.Errorf("make the events partition of %s: %w", m.Format("2006-01"), err)
		}
		if created {
			made++
		}
	}
	return made, nil
}

// dropOldEventPartitions drops, on PostgreSQL, every monthly partition of
// analytics_events whose whole month is before before, and returns how
// many events they held. The hourly counters of those months go in the
// same transaction: DROP TABLE fires no trigger. The number comes from
// those counters, which equal the rows (RecountEventCounts), so that a
// month of millions of rows is not counted to be dropped.
func (s *Store) dropOldEventPartitions(ctx context.Context, before time.Time) (int64, error) {
	if s.Dialect() != config.DialectPostgres {
		return 0, nil
	}
	var names []string
	err := s.DB.NewRaw(`SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
		WHERE i.inhparent = 'analytics_events'::regclass ORDER BY 1`).Scan(ctx, &names)
	if err != nil {
		return 0, fmt.Errorf("list the events partitions: %w", err)
	}
	var total int64
	for _, name := range names {
		lo, ok := eventPartitionMonth(name)
		if !ok {
			continue // the default partition: its old rows go by row
		}
		hi := lo.AddDate(0, 1, 0)
		if hi.After(before) {
			break // names sort by month
		}
		var n int64
		err := s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			if _, err := tx.ExecContext(ctx, "SET LOCAL lock_timeout = '"+partitionLockTimeout+"'"); err != nil {
				return err
			}
			err := tx.NewRaw(`SELECT coalesce(sum(n), 0) FROM hourly_counts WHERE metric = ? AND hour >= ? AND hour < ?`,
				eventsStored.name, lo, hi).Scan(ctx, &n)
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, "DROP TABLE "+pgx.Identifier{name}.Sanitize()); err != nil {
				return err
			}
			_, err = tx.NewDelete().TableExpr("hourly_counts").Where("metric = ?", eventsStored.name).
				Where("hour >= ? AND hour < ?", lo, hi).Exec(ctx)
			return err
		})
		if err != nil {
			return total, fmt.Errorf("drop the events partition %s: %w", name, err)
		}
		total += n
	}
	return total, nil
}

// eventPartitionMonth reads the month a partition's name says it holds.
func eventPartitionMonth(name string) (time.Time, bool) {
	suffix, ok := strings.CutPrefix(name, eventPartitionPrefix)
	if !ok || name == eventDefaultPartition {
		return time.Time{}, false
	}
	t, err := time.Parse("2006_01", suffix)
	return t, err == nil
}

// monthOf is the first instant of t's UTC month.
func monthOf(t time.Time) time.Time {
	y, m, _ := t.UTC().Date()
	return time.Date(y, m, 1, 0, 0, 0, 0, time.UTC)
}
