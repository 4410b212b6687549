// Package bench holds Plaza's benchmarks and the load scripts behind
// docs/performance.md.
package bench

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/seed"
)

// BenchmarkSeedPostgres seeds the PostgreSQL database that
// PLAZA_SEED_BENCH_URL names (an empty database: bench/seed.sh creates one
// and drops it afterwards) with PLAZA_SEED_USERS users and PLAZA_SEED_POSTS
// posts (defaults 1,000,000 and 2,000,000). Run it once: -benchtime=1x.
func BenchmarkSeedPostgres(b *testing.B) {
	u := os.Getenv("PLAZA_SEED_BENCH_URL")
	if u == "" {
		b.Skip("set PLAZA_SEED_BENCH_URL to an empty PostgreSQL database (bench/seed.sh does)")
	}
	parsed, err := config.ParseDatabaseURL(u)
	if err != nil {
		b.Fatal(err)
	}
	if parsed.Dialect != config.DialectPostgres {
		b.Fatalf("PLAZA_SEED_BENCH_URL must name a PostgreSQL database, not %s", parsed.Dialect)
	}
	benchmarkSeed(b, parsed, envInt(b, "PLAZA_SEED_USERS", 1_000_000), envInt(b, "PLAZA_SEED_POSTS", 2_000_000))
}

// BenchmarkSeedSQLite seeds a fresh SQLite file when PLAZA_SEED_BENCH_SQLITE=1,
// with PLAZA_SEED_USERS and PLAZA_SEED_POSTS (defaults 100,000 and 200,000).
func BenchmarkSeedSQLite(b *testing.B) {
	if os.Getenv("PLAZA_SEED_BENCH_SQLITE") != "1" {
		b.Skip("set PLAZA_SEED_BENCH_SQLITE=1 to seed a SQLite file")
	}
	db := config.Database{Dialect: config.DialectSQLite, DSN: filepath.Join(b.TempDir(), "plaza.db")}
	benchmarkSeed(b, db, envInt(b, "PLAZA_SEED_USERS", 100_000), envInt(b, "PLAZA_SEED_POSTS", 200_000))
}

func benchmarkSeed(b *testing.B, database config.Database, users, posts int) {
	ctx := context.Background()
	db, err := models.Open(ctx, database, models.OpenOptions{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if _, err := models.Migrate(ctx, db, slog.New(slog.DiscardHandler)); err != nil {
		b.Fatal(err)
	}
	store := models.NewStore(db)

	var res seed.Result
	var elapsed time.Duration
	for b.Loop() {
		start := time.Now()
		stage, stageStart := "", start
		res, err = seed.Bulk(ctx, store, seed.Options{
			Users: users, Posts: posts, Seed: 42,
			Progress: func(s string, done, total int64) {
				if s != stage {
					stage, stageStart = s, time.Now()
				}
				if done == total {
					d := time.Since(stageStart)
					b.Logf("%-8s %9d rows in %6.1fs (%.0f rows/s)", s, total, d.Seconds(), float64(total)/d.Seconds())
				}
			},
		})
		elapsed = time.Since(start)
		if err != nil {
			b.Fatal(err)
		}
	}
	rows := res.Users + res.Posts + res.Reports
	b.Logf("seeded %d users, %d posts, %d reports in %.1fs", res.Users, res.Posts, res.Reports, elapsed.Seconds())
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
		b.Fatalf("%s: want a count, got %q", key, v)
	}
	return n
}
