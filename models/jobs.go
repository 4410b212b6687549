package models

import "context"

// JobCounts counts the job queue's jobs by state (River's river_job
// table), for the queue-depth gauge of /api/metrics. States without jobs
// are absent.
func (s Maintenance) JobCounts(ctx context.Context) (map[string]int64, error) {
	var rows []struct {
		State string `bun:"state"`
		N     int64  `bun:"n"`
	}
	err := s.DB.NewSelect().Table("river_job").ColumnExpr("state").ColumnExpr("count(*) AS n").Group("state").Scan(ctx, &rows)
	if err != nil {
		return nil, err
	}
	out := make(map[string]int64, len(rows))
	for _, r := range rows {
		out[r.State] = r.N
	}
	return out, nil
}
