package apptest

import (
	"io"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"
)

// Clients is the number of concurrent clients (and keep-alive connections)
// Measure uses.
const Clients = 50

// Measure sends b.N GETs, the i-th to url(i), from Clients concurrent
// clients over loopback, requires status want of each, and returns the
// sorted latencies.
func Measure(b *testing.B, url func(i int) string, h http.Header, want int) []time.Duration {
	b.Helper()
	return MeasureWith(b, Clients, url, h, want)
}

// MeasureWith is Measure with clients concurrent clients.
func MeasureWith(b *testing.B, clients int, url func(i int) string, h http.Header, want int) []time.Duration {
	b.Helper()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
	lat := make([]time.Duration, b.N)
	var wg sync.WaitGroup
	next := make(chan int)
	b.ResetTimer()
	for range clients {
		wg.Go(func() {
			for i := range next {
				req, _ := http.NewRequest(http.MethodGet, url(i), nil)
				req.Header = h.Clone()
				start := time.Now()
				res, err := client.Do(req)
				lat[i] = time.Since(start)
				if err != nil || res.StatusCode != want {
					b.Errorf("request %d: %v %v", i, err, res)
					continue // keep taking requests, so the sender never blocks
				}
				io.Copy(io.Discard, res.Body) // read to the end, so the connection is reused
				res.Body.Close()
			}
		})
	}
	for i := range b.N {
		next <- i
	}
	close(next)
	wg.Wait()
	b.StopTimer()
	slices.Sort(lat)
	return lat
}

// Millis is d in milliseconds, for b.ReportMetric.
func Millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// Quantile is the q-th quantile (0..1) of sorted latencies.
func Quantile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[min(len(sorted)-1, int(q*float64(len(sorted))))]
}
