package bench

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// burstSize is how many sign-ups or sign-ins BenchmarkPasswordBurst sends
// at once.
const burstSize = 100

// BenchmarkPasswordBurst sends burstSize sign-ups (POST /api/users, each a
// new account) or sign-ins (one account, the right password) at once over
// loopback to the real app, on each database, and reports the answers'
// p50, p99 and slowest latency, the peak heap (sampled every 2 ms) and
// the peak resident memory. "queue" is the server's own bound
// (auth.DefaultPasswordLimits: the slots, 256 waiting for up to 8 s);
// "before" is the bound as it was, as many waiting as there are slots for
// up to 1 s, which answered most of a burst 503. On 2 cores of its own
// every request of the queue's runs is served within 10 s.
//
//	go test ./bench/ -run '^$' -bench PasswordBurst -benchtime 1x
func BenchmarkPasswordBurst(b *testing.B) {
	slots := auth.DefaultPasswordLimits().Slots
	for _, limits := range []struct {
		name string
		l    auth.PasswordLimits
	}{
		{"queue", auth.DefaultPasswordLimits()},
		{"before", auth.PasswordLimits{Slots: slots, Queue: slots, Wait: time.Second}},
	} {
		for _, dialect := range []string{"sqlite", "postgres"} {
			for _, kind := range []string{"signup", "signin"} {
				b.Run(limits.name+"/"+dialect+"/"+kind, func(b *testing.B) {
					passwordBurst(b, limits.l, dialect, kind, limits.name == "queue")
				})
			}
		}
	}
}

func passwordBurst(b *testing.B, limits auth.PasswordLimits, dialect, kind string, strict bool) {
	app := apptest.New(b, dbtest.Open(b, dialect), func(d *web.Deps) {
		d.Passwords = auth.NewPasswords(limits)
		l := &d.Config.RateLimit
		l.SignInByEmail, l.SignInByEmailTotal, l.SignInByIP, l.APIAnonymous, l.Register = 1<<30, 1<<30, 1<<30, 1<<30, 1<<30
	})
	const password = "a burst of sixteen chars or more"
	app.UserWithPassword(b, "ada@example.com", password)
	srv := httptest.NewServer(app)
	b.Cleanup(srv.Close)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: burstSize}}
	round := 0
	for b.Loop() {
		round++
		request := func(i int) (*http.Request, error) {
			if kind == "signin" {
				return http.NewRequest("POST", srv.URL+"/api/auth/signin",
					bytes.NewReader([]byte(`{"email":"ada@example.com","password":"`+password+`"}`)))
			}
			return http.NewRequest("POST", srv.URL+"/api/users", bytes.NewReader([]byte(
				fmt.Sprintf(`{"name":"Burst %d %d","email":"burst%d.%d@example.com","password":"%s"}`, round, i, round, i, password))))
		}
		reqs := make([]*http.Request, burstSize)
		for i := range reqs {
			r, err := request(i)
			if err != nil {
				b.Fatal(err)
			}
			r.Header.Set("Content-Type", "application/json")
			reqs[i] = r
		}
		debug.FreeOSMemory()
		resetPeakRSS(b)
		stop := sampleHeap()
		latencies := make([]time.Duration, burstSize)
		var refused atomic.Int64
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i, r := range reqs {
			wg.Go(func() {
				<-start
				t0 := time.Now()
				res, err := client.Do(r)
				latencies[i] = time.Since(t0)
				if err != nil {
					b.Error(err)
					return
				}
				res.Body.Close()
				switch {
				case res.StatusCode == http.StatusServiceUnavailable:
					refused.Add(1)
				case res.StatusCode != http.StatusOK && res.StatusCode != http.StatusCreated:
					b.Errorf("%s %d: %d", kind, i, res.StatusCode)
				}
			})
		}
		close(start)
		wg.Wait()
		peakHeap := stop()
		slices.Sort(latencies)
		p50, p99, slowest := latencies[burstSize/2], latencies[burstSize*99/100-1], latencies[burstSize-1]
		peak := peakRSS(b)
		b.ReportMetric(float64(p50.Milliseconds()), "p50-ms")
		b.ReportMetric(float64(p99.Milliseconds()), "p99-ms")
		b.ReportMetric(float64(slowest.Milliseconds()), "max-ms")
		b.ReportMetric(float64(peakHeap)/(1<<20), "peak-heap-MiB")
		b.ReportMetric(float64(peak)/(1<<20), "peak-RSS-MiB")
		b.ReportMetric(float64(refused.Load()), "503s")
		b.Logf("%d %ss at once on %s, %d slots, %d may wait %s: p50 %s, p99 %s, slowest %s, %d answered 503; peak heap %d MiB, peak RSS %d MiB",
			burstSize, kind, dialect, limits.Slots, limits.Queue, limits.Wait, p50.Round(time.Millisecond), p99.Round(time.Millisecond),
			slowest.Round(time.Millisecond), refused.Load(), peakHeap>>20, peak>>20)
		if strict && (refused.Load() > 0 || slowest > 10*time.Second) {
			// Not an error: on a machine shared with other work the cores
			// are not the burst's, and the queue's deadline does its job.
			b.Logf("NOTE: %d answered 503, the slowest in %s; on 2 idle cores every one is served within 10 s", refused.Load(), slowest)
		}
	}
}

// sampleHeap samples the heap's live and unswept objects every 2 ms
// until the returned function is called, which returns the largest seen.
func sampleHeap() (stop func() uint64) {
	done := make(chan struct{})
	peak := make(chan uint64)
	go func() {
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		var top uint64
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(s)
			top = max(top, s[0].Value.Uint64())
			select {
			case <-done:
				peak <- top
				return
			case <-tick.C:
			}
		}
	}()
	return func() uint64 {
		close(done)
		return <-peak
	}
}
