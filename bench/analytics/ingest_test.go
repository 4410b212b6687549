package main

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/analytics"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// BenchmarkIngest measures the group-commit writer alone, without HTTP:
// 50 concurrent submitters, each waiting for its batch of 10 events to be
// committed before sending the next, as the collect handler does. It
// reports events/s and the submit latency percentiles, per dialect and
// writer settings.
//
// Run: go test -run '^$' -bench Ingest -benchtime 20000x ./bench/analytics/
func BenchmarkIngest(b *testing.B) {
	for _, dialect := range dbtest.Dialects {
		for _, o := range []analytics.Options{
			{Writers: 1}, {Writers: 2}, {Writers: 4}, {Writers: 2, Linger: 2 * time.Millisecond},
		} {
			if dialect == "sqlite" && o.Writers > 2 {
				continue
			}
			b.Run(fmt.Sprintf("%s/writers=%d/linger=%s", dialect, o.Writers, o.Linger), func(b *testing.B) {
				store := models.NewStore(dbtest.Open(b, dialect))
				o.Retryable = models.IsTransient
				batcher := analytics.NewBatcher[models.AnalyticsEvent](store.Analytics, o)
				defer batcher.Close()
				submitParallel(b, batcher, 50, 10)
			})
		}
	}
}

func submitParallel(b *testing.B, batcher *analytics.Batcher[models.AnalyticsEvent], clients, size int) {
	ctx := context.Background()
	var mu sync.Mutex
	var lat []time.Duration
	work := make(chan int, b.N)
	for i := range b.N {
		work <- i
	}
	close(work)
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for range clients {
		wg.Go(func() {
			var mine []time.Duration
			for range work {
				events := make([]models.AnalyticsEvent, size)
				now := time.Now().UTC()
				for i := range events {
					events[i] = models.AnalyticsEvent{ID: uuid.Must(uuid.NewV7()).String(), EventType: "page_view",
						EventData: map[string]any{"path": "/posts/1", "load_ms": 120}, SessionID: "bench",
						IPHash: "0123456789abcdef0123456789abcdef", UserAgent: "bench/1.0", PagePath: "/posts/1",
						OccurredAt: now, ReceivedAt: now}
				}
				t0 := time.Now()
				if err := batcher.Submit(ctx, events); err != nil {
					b.Error(err)
					return
				}
				mine = append(mine, time.Since(t0))
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	slices.Sort(lat)
	if len(lat) > 0 {
		b.ReportMetric(float64(len(lat)*size)/elapsed.Seconds(), "events/s")
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(lat[min(len(lat)-1, len(lat)*99/100)].Microseconds())/1000, "p99-ms")
	}
}

// BenchmarkCollectHTTP drives POST /api/analytics/collect of the real app
// (web.New, as serve builds it) over HTTP on 127.0.0.1 from 50 signed-in
// clients sending batches of 10, in one process: for profiling the whole
// request path with -cpuprofile.
//
// Run: go test -run '^$' -bench CollectHTTP -benchtime 5000x -cpuprofile cpu.out ./bench/analytics/
func BenchmarkCollectHTTP(b *testing.B) {
	for _, dialect := range dbtest.Dialects {
		b.Run(dialect, func(b *testing.B) {
			db := dbtest.Open(b, dialect)
			if n, _ := strconv.Atoi(os.Getenv("BENCH_POOL")); n > 0 { // experiment: a larger pool than dbtest's 8
				db.SetMaxOpenConns(n)
				db.SetMaxIdleConns(n)
			}
			app := apptest.New(b, db, func(d *web.Deps) {
				d.Config.RateLimit.EventsPerMin, d.Config.RateLimit.APIAnonymous = 100_000_000, 100_000
			})
			store := app.Store
			srv := httptest.NewServer(app)
			defer srv.Close()
			o := options{url: srv.URL, clients: 50, batch: 10, duration: time.Hour, maxEvents: int64(b.N) * 10}
			cookies, err := signIn(context.Background(), store, o)
			if err != nil {
				b.Fatal(err)
			}
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 50}}
			b.ResetTimer()
			r := load(client, o, cookies, requestBody(10), time.Hour, int64(b.N)*10)
			b.StopTimer()
			b.ReportMetric(float64(len(r.ids))/r.elapsed.Seconds(), "events/s")
			if n := len(r.latencies); n > 0 {
				b.ReportMetric(float64(r.latencies[n/2].Microseconds())/1000, "p50-ms")
				b.ReportMetric(float64(r.latencies[n*99/100].Microseconds())/1000, "p99-ms")
			}
		})
	}
}
