package api

// Health is the body of GET /api/health.
type Health struct {
	Status    string `json:"status" enum:"healthy,unhealthy"`
	Timestamp string `json:"timestamp" format:"date-time"`
	Version   string `json:"version"`
	Database  string `json:"database" enum:"connected,disconnected"`
	Uptime    string `json:"uptime" pattern:"^[0-9]+h [0-9]+m [0-9]+s$" description:"Hours, minutes and seconds, e.g. 3h 2m 1s."`
	// RateLimiter is where rate limits are counted: shared in Redis, in
	// this instance's memory (no REDIS_URL), or in memory because Redis
	// does not answer (every instance then counts on its own).
	RateLimiter string `json:"rateLimiter" enum:"redis,memory,memory-fallback" description:"Where rate limits are counted now: redis (shared by every instance), memory (this instance; no REDIS_URL), or memory-fallback (this instance, because Redis does not answer; the service stays healthy)."`
	// Replica is the read replica's state, present only with
	// DATABASE_REPLICA_URL.
	Replica *ReplicaHealth `json:"replica,omitempty" description:"Only when a read replica is configured (DATABASE_REPLICA_URL)."`
}

// ReplicaHealth is the read replica's state. A replica that does not
// answer leaves the service healthy: writes and sign-in use the primary.
type ReplicaHealth struct {
	Database   string   `json:"database" enum:"connected,disconnected"`
	LagSeconds *float64 `json:"lagSeconds" description:"Seconds since the last change the replica replayed (it also grows while the primary is idle); null when it cannot tell (not a streaming replica, or nothing replayed yet, or not answering)."`
}

// Health statuses and database states.
const (
	StatusHealthy       = "healthy"
	StatusUnhealthy     = "unhealthy"
	DatabaseConnected   = "connected"
	DatabaseUnreachable = "disconnected"
)

// Version is the body of GET /api/version.
type Version struct {
	Version string `json:"version" pattern:"^[0-9]+\\.[0-9]+\\.[0-9]+" description:"major.minor.patch"`
}
