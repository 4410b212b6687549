// Package bench holds Plaza's benchmarks and the load scripts behind
// docs/performance.md.
package bench

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/models"
)

// BenchmarkSeedPostgres seeds the PostgreSQL database that
// PLAZA_SEED_BENCH_URL names (created empty beforehand; bench/seed.sh does
// that) with PLAZA_SEED_USERS users and PLAZA_SEED_POSTS posts (defaults
// 1,000,000 and 2,000,000). Run it once: -benchtime=1x.
func BenchmarkSeedPostgres(b *testing.B) {
	u := os.Getenv("PLAZA_SEED_BENCH_URL")
	if u == "" {
		b.Skip("set PLAZA_SEED_BENCH_URL to an empty PostgreSQL database (see bench/seed.sh)")
	}
	users := envInt(b, "PLAZA_SEED_USERS", 1_000_000)
	posts := envInt(b, "PLAZA_SEED_POSTS", 2_000_000)
	parsed, err := config.ParseDatabaseURL(u)
	if err != nil {
		b.Fatal(err)
	}
	if parsed.Dialect != config.DialectPostgres {
		b.Fatalf("PLAZA_SEED_BENCH_URL must name a PostgreSQL database, not %s", parsed.Dialect)
	}
	ctx := context.Background()
	db, err := models.Open(ctx, parsed, models.OpenOptions{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if _, err := models.Migrate(ctx, db, slog.New(slog.DiscardHandler)); err != nil {
		b.Fatal(err)
	}
	store := models.NewStore(db)

	var res models.SeedResult
	stages := map[string]time.Time{}
	var elapsed time.Duration
	for b.Loop() {
		start := time.Now()
		stageStart := start
		res, err = store.Seed(ctx, models.SeedOptions{
			Users: users, Posts: posts, Seed: 42,
			Progress: func(stage string, done, total int64) {
				if _, ok := stages[stage]; !ok {
					stages[stage] = time.Now()
					stageStart = time.Now()
				}
				if done == total {
					b.Logf("%-8s %9d rows in %v", stage, total, time.Since(stageStart).Round(100*time.Millisecond))
				}
			},
		})
		elapsed = time.Since(start)
		if err != nil {
			b.Fatal(err)
		}
	}
	rows := res.Users + res.Posts + res.Reports
	b.Logf("seeded %d users, %d posts, %d reports in %v", res.Users, res.Posts, res.Reports, elapsed.Round(100*time.Millisecond))
	b.ReportMetric(elapsed.Seconds(), "s/seed")
	b.ReportMetric(float64(rows)/elapsed.Seconds(), "rows/s")
	b.ReportMetric(float64(res.Users)/elapsed.Seconds(), "users/s")
	b.ReportMetric(float64(res.Posts)/elapsed.Seconds(), "posts/s")
}

func envInt(b *testing.B, key string, def int) int {
	v := os.Getenv(key)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		b.Fatal(fmt.Errorf("%s: want a count, got %q", key, v))
	}
	return n
}
