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
// sorted latencies. Each client first opens its keep-alive connection
// with one request that is not measured: otherwise the slowest 1% of a
// few thousand requests are the connections' set-up, and the p99 measures
// TCP, not the server.
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
	for range clients {
		wg.Go(func() { get(b, client, url(0), h, want) })
	}
	wg.Wait()
	next := make(chan int)
	b.ResetTimer()
	for range clients {
		wg.Go(func() {
			for i := range next {
				start := time.Now()
				get(b, client, url(i), h, want) // on failure, keeps taking requests, so the sender never blocks
				lat[i] = time.Since(start)
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

// get sends one GET and reads its answer to the end, so that the
// connection is reused.
func get(b *testing.B, client *http.Client, url string, h http.Header, want int) {
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header = h.Clone()
	res, err := client.Do(req)
	if err != nil {
		b.Errorf("GET %s: %v", url, err)
		return
	}
	io.Copy(io.Discard, res.Body) //nolint:errcheck // only the connection's reuse depends on it
	res.Body.Close()
	if res.StatusCode != want {
		b.Errorf("GET %s: %d, want %d", url, res.StatusCode, want)
	}
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
