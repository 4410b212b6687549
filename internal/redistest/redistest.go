// Package redistest gives tests a real Redis client.
package redistest

import (
	"cmp"
	"context"
	"os"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Client returns a client of the Redis server tests use
// (TEST_REDIS_URL, default redis://127.0.0.1:6379/15). When none answers
// the test is skipped loudly, or fails when REQUIRE_REDIS=1 (as in CI).
func Client(t testing.TB) *redis.Client {
	t.Helper()
	u := cmp.Or(os.Getenv("TEST_REDIS_URL"), "redis://127.0.0.1:6379/15")
	opts, err := redis.ParseURL(u)
	if err != nil {
		t.Fatalf("TEST_REDIS_URL: %v", err)
	}
	c := redis.NewClient(opts)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := c.Ping(ctx).Err(); err != nil {
		c.Close()
		if os.Getenv("REQUIRE_REDIS") == "1" {
			t.Fatalf("Redis is required (REQUIRE_REDIS=1) but %s does not answer: %v", u, err)
		}
		t.Skipf("SKIPPING Redis test: %s does not answer (%v)", u, err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}
