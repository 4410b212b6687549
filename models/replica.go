package models

import (
	"context"
	"database/sql"
	"time"
)

// replicaKey marks a context whose reads may come from the replica.
type replicaKey struct{}

// mayLag marks ctx so that the queries run under it read from the replica
// (Store.Replica) when one is set. Lists, reports, analytics and exports
// start with it: their answers may be a few seconds old. Reads that decide
// a write or a permission never use it, and a change under way keeps every
// read in its transaction (s.db), so a request reads its own writes.
func (s *Store) mayLag(ctx context.Context) context.Context {
	if s.Replica == nil {
		return ctx
	}
	return context.WithValue(ctx, replicaKey{}, true)
}

// ReplicaStatus is what the health check tells of the read replica.
type ReplicaStatus struct {
	// Reachable says the replica answered.
	Reachable bool
	// Lag is the time since the last change the replica replayed;
	// nil when it cannot tell (a database that replays nothing, or one
	// with nothing replayed yet).
	Lag *time.Duration
}

// ReplicaStatus reports on the read replica; ok is false when none is set.
func (s Maintenance) ReplicaStatus(ctx context.Context) (st ReplicaStatus, ok bool) {
	if s.Store == nil || s.Replica == nil {
		return st, false
	}
	var secs sql.NullFloat64
	// pg_last_xact_replay_timestamp is null on a server that is not
	// replaying (a primary, or a plain second database).
	err := s.Replica.NewRaw("SELECT EXTRACT(EPOCH FROM (now() - pg_last_xact_replay_timestamp()))::float8").Scan(ctx, &secs)
	if err != nil {
		return st, true
	}
	st.Reachable = true
	if secs.Valid {
		lag := time.Duration(max(secs.Float64, 0) * float64(time.Second))
		st.Lag = &lag
	}
	return st, true
}
