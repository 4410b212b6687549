package bench

import (
	"context"
	"log/slog"
	"runtime"
	"testing"

	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// BenchmarkAuditAppend appends hash-chained audit entries from 16 concurrent
// writers and reports entries per second, two ways:
//   - batched: through the AuditBatcher (group commit), each writer waiting
//     for its entry's commit: the path of reads, refusals and failures;
//   - in-transaction: each entry in its own transaction holding the chain
//     lock through commit: the path of changes.
//
// Run: go test -run '^$' -bench AuditAppend -benchtime 3s ./bench
func BenchmarkAuditAppend(b *testing.B) {
	for _, dialect := range dbtest.Dialects {
		b.Run(dialect+"/batched", func(b *testing.B) {
			store := models.NewStore(dbtest.Open(b, dialect))
			batcher := store.Audit.NewAuditBatcher(slog.New(slog.DiscardHandler))
			defer batcher.Close()
			appendParallel(b, func(ctx context.Context, e *models.AuditEntry) error { return batcher.Append(ctx, e) })
		})
		b.Run(dialect+"/in-transaction", func(b *testing.B) {
			store := models.NewStore(dbtest.Open(b, dialect))
			appendParallel(b, func(ctx context.Context, e *models.AuditEntry) error {
				return store.Audit.AppendAudit(ctx, store.DB, e)
			})
		})
	}
}

func appendParallel(b *testing.B, appendOne func(context.Context, *models.AuditEntry) error) {
	ctx := context.Background()
	b.SetParallelism(max(1, 16/runtime.GOMAXPROCS(0)))
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			e := &models.AuditEntry{AdminUsername: "bench", Action: "bench.append", Status: 200,
				IPAddress: "127.0.0.1", Details: map[string]any{"k": "v"}}
			if err := appendOne(ctx, e); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "entries/s")
}
