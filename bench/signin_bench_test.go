package bench

import (
	"bufio"
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// signInCrowd is how many sign-ins BenchmarkSignInMemory sends at once.
const signInCrowd = 200

// BenchmarkSignInMemory sends signInCrowd sign-ins with the right password
// at once over loopback, each retrying after Retry-After when answered
// 503, until all are in, and reports the process's peak resident memory
// (VmHWM, reset before the run) and the heap the runtime holds from the
// system (HeapSys). "bounded" is the server's own argon2id bound
// (auth.DefaultPasswordLimits); "unbounded" lets every sign-in hash at
// once, as before the bound, with PLAZA_BENCH_UNBOUNDED sign-ins (default
// 40, since 200 unbounded would take some 9 GiB of a shared machine).
//
//	go test ./bench/ -run '^$' -bench SignInMemory -benchtime 1x
func BenchmarkSignInMemory(b *testing.B) {
	unbounded := 40
	if n, err := strconv.Atoi(os.Getenv("PLAZA_BENCH_UNBOUNDED")); err == nil && n > 0 {
		unbounded = n
	}
	b.Run("bounded", func(b *testing.B) {
		signInMemory(b, auth.DefaultPasswordLimits(), signInCrowd)
	})
	b.Run("unbounded", func(b *testing.B) {
		signInMemory(b, auth.PasswordLimits{Slots: unbounded, Queue: 0, Wait: time.Second}, unbounded)
	})
}

func signInMemory(b *testing.B, limits auth.PasswordLimits, crowd int) {
	pw := auth.NewPasswords(limits)
	app := apptest.New(b, dbtest.Open(b, "sqlite"), func(d *web.Deps) {
		d.Passwords = pw
		l := &d.Config.RateLimit
		l.SignInByEmail, l.SignInByEmailTotal, l.SignInByIP, l.APIAnonymous = 1<<30, 1<<30, 1<<30, 1<<30
	})
	app.UserWithPassword(b, "ada@example.com", "correct horse")
	srv := httptest.NewServer(app)
	b.Cleanup(srv.Close)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: crowd}}
	body := []byte(`{"email":"ada@example.com","password":"correct horse"}`)
	for b.Loop() {
		debug.FreeOSMemory()
		resetPeakRSS(b)
		start := time.Now()
		var wg sync.WaitGroup
		var mu sync.Mutex
		busy := 0
		for range crowd {
			wg.Go(func() {
				for {
					res, err := client.Post(srv.URL+"/api/auth/signin", "application/json", bytes.NewReader(body))
					if err != nil {
						b.Error(err)
						return
					}
					res.Body.Close()
					if res.StatusCode != http.StatusServiceUnavailable {
						if res.StatusCode != http.StatusOK {
							b.Errorf("sign-in: %d", res.StatusCode)
						}
						return
					}
					mu.Lock()
					busy++
					mu.Unlock()
					wait, _ := strconv.Atoi(res.Header.Get("Retry-After"))
					time.Sleep(time.Duration(wait) * time.Second)
				}
			})
		}
		wg.Wait()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		peak := peakRSS(b)
		b.ReportMetric(float64(peak)/(1<<20), "peak-RSS-MiB")
		b.ReportMetric(float64(ms.HeapSys)/(1<<20), "HeapSys-MiB")
		b.ReportMetric(float64(busy), "503s")
		b.ReportMetric(time.Since(start).Seconds(), "s-all-in")
		b.Logf("%d sign-ins at once, %d slots: all in after %s with %d answers 503; peak RSS %d MiB, HeapSys %d MiB",
			crowd, limits.Slots, time.Since(start).Round(time.Millisecond), busy, peak>>20, ms.HeapSys>>20)
		if limits.Slots < crowd && peak >= 1<<30 {
			b.Errorf("peak RSS %d MiB, want under 1 GiB", peak>>20)
		}
	}
}

// resetPeakRSS makes VmHWM start again from the current RSS (Linux).
func resetPeakRSS(b *testing.B) {
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		b.Skipf("cannot reset the peak RSS: %v", err)
	}
}

// peakRSS is VmHWM, in bytes.
func peakRSS(b *testing.B) int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			var kb int64
			if _, err := fmt.Sscanf(strings.TrimSpace(v), "%d kB", &kb); err != nil {
				b.Fatal(err)
			}
			return kb << 10
		}
	}
	b.Fatal("no VmHWM in /proc/self/status")
	return 0
}
