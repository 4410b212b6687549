package models

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/RoaringBitmap/roaring/v2/roaring64"
	"github.com/cespare/xxhash/v2"
	lru "github.com/hashicorp/golang-lru/v2"
	"github.com/uptrace/bun"
)

// The user-activity report counts the distinct users active in a window.
// From the rows that means reading a month of posts, sign-ins and events
// (millions at a large community) for one number. Instead the analytics
// job rolls up who was active in each UTC day, and in each hour of the
// last two days, as a roaring bitmap of their ids (activity_rollups). A
// window ORs the bitmaps of the days and hours it holds whole whose
// roll-up is final (made after the span ended), and reads only the rest
// from the rows: the parts of hours at its edges, and spans not yet final.

// loginsMade counts sign-ins by day (the user-activity report's total).
var loginsMade = dailyMetric{"logins", "logins", "created_at"}

// rollupSpan is a length of time activity is rolled up by.
type rollupSpan struct {
	name  string
	start func(time.Time) time.Time // the start of the span holding t
	next  func(time.Time) time.Time // the start of the span after the one starting at t
}

var (
	daySpan  = rollupSpan{"day", dayOf, func(t time.Time) time.Time { return t.AddDate(0, 0, 1) }}
	hourSpan = rollupSpan{"hour", func(t time.Time) time.Time { return t.UTC().Truncate(time.Hour) },
		func(t time.Time) time.Time { return t.Add(time.Hour) }}
)

// hourlyActivityDays is how many UTC days, today included, keep hourly
// roll-ups: enough for a window that ends now.
const hourlyActivityDays = 2

// rollup is a roll-up's description as read back; its users are read
// apart, and only when not cached.
type rollup struct {
	Start    anyTime
	Events   int
	Digest   int64 // of the serialised users: a cache key that changes with them
	RolledAt anyTime
}

// final says whether the roll-up was made after its span, ending at end,
// was over.
func (r rollup) final(end time.Time) bool {
	return r.RolledAt.valid && !r.RolledAt.t.Before(end)
}

// rollupKey names one version of a roll-up's users: the digest of the
// stored set changes with it, so a cached set is never stale.
type rollupKey struct {
	span          string
	start, digest int64
}

// rollupCacheSize bounds the sets an instance keeps decoded: two months of
// days and two days of hours, about 16 MB at a million users.
const rollupCacheSize = 120

// rollupUsers reads the users of span's roll-ups rs (final ones, so their
// sets never change), from the instance's cache or else the database.
func (s *Store) rollupUsers(ctx context.Context, span rollupSpan, rs []rollup) ([]*roaring64.Bitmap, error) {
	cache := s.rollupSets()
	out := make([]*roaring64.Bitmap, 0, len(rs))
	var missing []time.Time
	for _, r := range rs {
		if users, ok := cache.Get(rollupKey{span.name, r.Start.t.Unix(), r.Digest}); ok {
			out = append(out, users)
		} else {
			missing = append(missing, r.Start.t)
		}
	}
	if len(missing) == 0 {
		return out, nil
	}
	var rows []struct {
		Start  anyTime
		Users  []byte
		Digest int64
	}
	err := s.db(ctx).NewSelect().TableExpr("activity_rollups").Column("start", "users", "digest").
		Where("span = ?", span.name).Where("start IN (?)", bun.In(missing)).Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("rolled-up users: %w", err)
	}
	for _, r := range rows {
		users := roaring64.New()
		if err := users.UnmarshalBinary(r.Users); err != nil {
			return nil, fmt.Errorf("the rolled-up users of the %s from %s: %w", span.name, r.Start.t.Format(time.RFC3339), err)
		}
		cache.Add(rollupKey{span.name, r.Start.t.Unix(), r.Digest}, users)
		out = append(out, users)
	}
	return out, nil
}

// rollupSets is the instance's cache of decoded roll-ups, made on first use.
func (s *Store) rollupSets() *lru.Cache[rollupKey, *roaring64.Bitmap] {
	s.rollupOnce.Do(func() {
		s.rollupCache, _ = lru.New[rollupKey, *roaring64.Bitmap](rollupCacheSize)
	})
	return s.rollupCache
}

// RollUpActivity stores day's active users (who posted, signed in or sent
// an event that UTC day) and their events, from the rows. Running it
// again replaces the day's roll-up, so any instance may run it any time.
func (s Analytics) RollUpActivity(ctx context.Context, day time.Time) error {
	return s.rollUpSpan(ctx, daySpan, dayOf(day))
}

// RollUpRecentHours rolls up again each hour of the last two days that
// has ended (again, so that events sent late into an hour are counted),
// and drops older hours' roll-ups.
func (s Analytics) RollUpRecentHours(ctx context.Context) error {
	now := s.now()
	first := dayOf(now).AddDate(0, 0, 1-hourlyActivityDays)
	for h := first; !hourSpan.next(h).After(now); h = hourSpan.next(h) {
		if err := s.rollUpSpan(ctx, hourSpan, h); err != nil {
			return err
		}
	}
	_, err := s.db(ctx).NewDelete().TableExpr("activity_rollups").Where("span = ?", hourSpan.name).Where("start < ?", first).Exec(ctx)
	return err
}

func (s *Store) rollUpSpan(ctx context.Context, span rollupSpan, start time.Time) error {
	users, events, err := s.activeFromRows(ctx, start, span.next(start))
	if err != nil {
		return err
	}
	data, err := users.ToBytes()
	if err != nil {
		return err
	}
	_, err = s.db(ctx).NewRaw(`INSERT INTO activity_rollups (span, start, users, events, digest, rolled_at) VALUES (?, ?, ?, ?, ?, ?)
ON CONFLICT (span, start) DO UPDATE SET users = EXCLUDED.users, events = EXCLUDED.events, digest = EXCLUDED.digest, rolled_at = EXCLUDED.rolled_at`,
		span.name, start, data, events, int64(xxhash.Sum64(data)), s.now()).Exec(ctx)
	if err != nil {
		return fmt.Errorf("store the activity of the %s from %s: %w", span.name, start.Format(time.RFC3339), err)
	}
	return nil
}

// activeFromRows reads the users active in [start, end) and their events
// from the rows, index only (each time index also holds the user). The
// set takes out repeats, not the database.
func (s *Store) activeFromRows(ctx context.Context, start, end time.Time) (*roaring64.Bitmap, int, error) {
	users := roaring64.New()
	for _, src := range []struct{ table, who, when string }{
		{"posts", "author_id", "created_at"}, {"logins", "user_id", "created_at"}, {"analytics_events", "user_id", "occurred_at"},
	} {
		var ids []int64
		err := s.db(ctx).NewRaw(fmt.Sprintf("SELECT %s FROM %s WHERE %s >= ? AND %s < ? AND %s IS NOT NULL", src.who, src.table, src.when, src.when, src.who),
			start, end).Scan(ctx, &ids)
		if err != nil {
			return nil, 0, fmt.Errorf("active users of %s: %w", src.table, err)
		}
		for _, id := range ids {
			users.Add(uint64(id))
		}
	}
	n, err := s.db(ctx).NewSelect().TableExpr("analytics_events").Where("occurred_at >= ? AND occurred_at < ?", start, end).
		Where("user_id IS NOT NULL").Count(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("events by users: %w", err)
	}
	return users, int(n), nil
}

// activeUsers is the set of users active in [start, end) and the number
// of their events: whole days, then whole hours, from their final
// roll-ups; whatever is left from the rows.
func (s *Store) activeUsers(ctx context.Context, start, end time.Time) (*roaring64.Bitmap, int, error) {
	var acc activity
	rest, err := s.cover(ctx, daySpan, []window{{start, end}}, &acc)
	if err != nil {
		return nil, 0, err
	}
	if rest, err = s.cover(ctx, hourSpan, rest, &acc); err != nil {
		return nil, 0, err
	}
	for _, w := range rest {
		users, n, err := s.activeFromRows(ctx, w.start, w.end)
		if err != nil {
			return nil, 0, err
		}
		acc.add(users, n)
	}
	return roaring64.FastOr(acc.users...), acc.events, nil
}

// window is a span of time, [start, end).
type window struct{ start, end time.Time }

// activity gathers active users and their events.
type activity struct {
	users  []*roaring64.Bitmap
	events int
}

func (a *activity) add(users *roaring64.Bitmap, events int) {
	a.users, a.events = append(a.users, users), a.events+events
}

// cover adds to acc the final roll-ups of span that windows hold whole,
// and returns the parts of windows left, adjacent parts merged.
func (s *Store) cover(ctx context.Context, span rollupSpan, windows []window, acc *activity) ([]window, error) {
	var rest []window
	leave := func(a, b time.Time) {
		if !a.Before(b) {
			return
		}
		if n := len(rest); n > 0 && rest[n-1].end.Equal(a) {
			rest[n-1].end = b
			return
		}
		rest = append(rest, window{a, b})
	}
	for _, w := range windows {
		first := span.start(w.start)
		if first.Before(w.start) {
			first = span.next(first)
		}
		if !span.next(first).After(w.end) {
			rolled, err := s.rollups(ctx, span, first, w.end)
			if err != nil {
				return nil, err
			}
			leave(w.start, first)
			var final []rollup
			t := first
			for ; !span.next(t).After(w.end); t = span.next(t) {
				if r, ok := rolled[t.Unix()]; ok && r.final(span.next(t)) {
					final = append(final, r)
					acc.events += r.Events
				} else {
					leave(t, span.next(t))
				}
			}
			users, err := s.rollupUsers(ctx, span, final)
			if err != nil {
				return nil, err
			}
			acc.users = append(acc.users, users...)
			leave(t, w.end)
			continue
		}
		leave(w.start, w.end)
	}
	return rest, nil
}

// rollups reads span's roll-ups that start in [from, to), by their start.
func (s *Store) rollups(ctx context.Context, span rollupSpan, from, to time.Time) (map[int64]rollup, error) {
	var rows []rollup
	err := s.db(ctx).NewSelect().TableExpr("activity_rollups").Column("start", "events", "digest", "rolled_at").
		Where("span = ?", span.name).Where("start >= ? AND start < ?", from, to).Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("rolled-up activity: %w", err)
	}
	out := make(map[int64]rollup, len(rows))
	for _, r := range rows {
		out[r.Start.t.Unix()] = r
	}
	return out, nil
}

// RollUpPastActivity rolls up, oldest first, at most max of the days
// before today that had posts, sign-ins or events and whose roll-up is
// missing or not final (max <= 0: all of them). It catches the report up
// after an upgrade, a bulk load or a pause, and returns how many days it
// rolled up.
func (s Analytics) RollUpPastActivity(ctx context.Context, max int) (int, error) {
	days, err := s.daysToRollUp(ctx, dayOf(s.now()))
	if err != nil {
		return 0, err
	}
	if max > 0 && len(days) > max {
		days = days[:max]
	}
	for _, d := range days {
		if err := s.RollUpActivity(ctx, d); err != nil {
			return 0, err
		}
	}
	return len(days), nil
}

// daysToRollUp lists the days before today with activity (from the daily
// counters and the events' daily roll-ups) without a final roll-up.
func (s *Store) daysToRollUp(ctx context.Context, today time.Time) ([]time.Time, error) {
	db := s.db(ctx)
	key := "substr(day, 1, 10)"
	if Dialect(db) == "postgres" {
		key = "to_char(day, 'YYYY-MM-DD')"
	}
	var keys []string
	err := db.NewRaw(fmt.Sprintf(`SELECT %s AS k FROM daily_counts WHERE metric IN ('posts_created', 'logins') AND n > 0 AND day < ?
UNION SELECT %s FROM analytics_daily_stats WHERE day < ?`, key, key), today.Format(time.DateOnly), today).Scan(ctx, &keys)
	if err != nil {
		return nil, fmt.Errorf("days with activity: %w", err)
	}
	rolled, err := s.rollups(ctx, daySpan, time.Time{}, today)
	if err != nil {
		return nil, err
	}
	var out []time.Time
	for _, k := range keys {
		d, err := time.Parse(time.DateOnly, k)
		if err != nil {
			return nil, fmt.Errorf("a day read back as %q", k)
		}
		if !rolled[d.Unix()].final(daySpan.next(d)) {
			out = append(out, d)
		}
	}
	slices.SortFunc(out, time.Time.Compare)
	return out, nil
}

// RollUpActivityWithEventsBefore rolls up again the days up to cutoff's
// whose roll-up still counts events: after the retention delete they must
// count only what is left.
func (s Analytics) RollUpActivityWithEventsBefore(ctx context.Context, cutoff time.Time) error {
	var days []struct{ Start anyTime }
	err := s.db(ctx).NewSelect().TableExpr("activity_rollups").Column("start").Where("span = ?", daySpan.name).
		Where("events > 0").Where("start <= ?", dayOf(cutoff)).Scan(ctx, &days)
	if err != nil {
		return err
	}
	for _, d := range days {
		if err := s.RollUpActivity(ctx, d.Start.t); err != nil {
			return err
		}
	}
	return nil
}

// usersPage lists up to limit of users' ids from the offset-th, in order.
func usersPage(users *roaring64.Bitmap, offset, limit int) []int64 {
	if offset < 0 || uint64(offset) >= users.GetCardinality() || limit <= 0 {
		return nil
	}
	first, err := users.Select(uint64(offset))
	if err != nil {
		return nil
	}
	it := users.Iterator()
	it.AdvanceIfNeeded(first)
	out := make([]int64, 0, limit)
	for len(out) < limit && it.HasNext() {
		out = append(out, int64(it.Next()))
	}
	return out
}
