package api

// Health is the body of GET /api/health (interface.md 4.8, DECISIONS.md section 6).
type Health struct {
	Status    string `json:"status"`
	Timestamp string `json:"timestamp"`
	Version   string `json:"version"`
	Database  string `json:"database"`
	Uptime    string `json:"uptime"`
}

// Health statuses and database states.
const (
	StatusHealthy       = "healthy"
	StatusUnhealthy     = "unhealthy"
	DatabaseConnected   = "connected"
	DatabaseUnreachable = "disconnected"
)

// Version is the body of GET /api/version (interface.md 4.7).
type Version struct {
	Version string `json:"version"`
}
