package bench

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/plazahq/plaza/models"
)

// BenchmarkUsersIndexLoad loads the users index of the seeded database
// (the first admin users list an instance serves) and reports how long it
// took and the heap the whole process holds afterwards, every order of
// the lists built.
func BenchmarkUsersIndexLoad(b *testing.B) {
	rt, _, _ := benchRuntime(b)
	ctx := context.Background()
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	for _, sort := range []string{"created_at", "last_login_at", "post_count", "username", "email"} {
		if _, _, err := rt.Store.Users.ListUsers(ctx, models.UserListFilter{Sort: sort, Limit: 1}); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := rt.Store.Users.AdminUsers(ctx, models.AdminUsersQuery{Page: 1, Limit: 1}); err != nil {
		b.Fatal(err)
	}
	took := time.Since(start)
	var after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(took.Seconds(), "load-s")
	b.ReportMetric(float64(after.HeapInuse)/1e6, "heap-MB")
	b.ReportMetric(float64(after.HeapInuse-before.HeapInuse)/1e6, "index-MB")
	b.ReportMetric(float64(after.Sys-after.HeapReleased)/1e6, "held-MB") // what the process holds from the OS
	b.ReportMetric(0, "ns/op")
}
