package quotes

import (
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeSource is an httptest server on 127.0.0.1 standing in for one quote
// service. It answers with the body its handler chooses and counts calls.
type fakeSource struct {
	*httptest.Server
	hits atomic.Int64
}

func newFake(t *testing.T, h http.HandlerFunc) *fakeSource {
	t.Helper()
	f := &fakeSource{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.hits.Add(1)
		h(w, r)
	}))
	t.Cleanup(f.Close)
	return f
}

func jsonBody(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(body))
	}
}

func status(code int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(code)
		w.Write([]byte(body))
	}
}

// slow answers only after d, or gives up when the client goes away.
func slow(d time.Duration, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(d):
			w.Write([]byte(body))
		case <-r.Context().Done():
		}
	}
}

const (
	zenOK       = `[{"q":"Zen quote.","a":"Zen Author","h":"<blockquote>Zen quote.</blockquote>"}]`
	quotableOK  = `{"_id":"x1","content":"Quotable quote.","author":"Quotable Author","tags":["wisdom"],"length":15}`
	dummyOK     = `{"id":7,"quote":"Dummy quote.","author":"Dummy Author"}`
	ninjasOK    = `[{"quote":"Ninjas quote.","author":"Ninjas Author","category":"inspirational"}]`
	htmlPage    = "<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>"
	testKey     = "test-key-123"
	testTimeout = 200 * time.Millisecond
)

// ninjasHandler checks the API key as API Ninjas does.
func ninjasHandler(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Api-Key") != testKey {
			w.WriteHeader(http.StatusUnauthorized)
			w.Write([]byte(`{"error": "Missing API Key."}`))
			return
		}
		jsonBody(body)(w, r)
	}
}

// seeded returns a deterministic, goroutine-safe Rand for a Config.
func seeded(seed uint64) func() float64 {
	var mu sync.Mutex
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	return func() float64 {
		mu.Lock()
		defer mu.Unlock()
		return r.Float64()
	}
}
