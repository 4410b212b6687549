// Command wave registers a spam wave against a running Plaza, for trying
// the purge (docs/performance.md, "Purging a spam wave"): accounts from a
// few IPv6 /64 ranges and email domains, each signing in and posting. It
// talks to loopback only, and gives each account its address in
// X-Forwarded-For, which the server reads only from a proxy it trusts:
// start it with TRUSTED_PROXIES=127.0.0.1/32 (and ::1/128 when the base
// names ::1), and with RATE_LIMIT_REGISTER and RATE_LIMIT_API_ANONYMOUS
// (registration and sign-in count against both) above the accounts per
// range, twice that for the second (a /64 counts as one client).
//
//	go run ./bench/wave -base http://127.0.0.1:8080 -accounts 300
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	base := flag.String("base", "http://127.0.0.1:8080", "the server, on loopback")
	accounts := flag.Int("accounts", 300, "accounts to register")
	ranges := flag.Int("ranges", 3, "IPv6 /64 ranges the accounts come from (2001:db8:5a5a:N::/64)")
	domains := flag.Int("domains", 2, "email domains of the accounts (wave-N.example)")
	posts := flag.Int("posts", 2, "posts of each account")
	workers := flag.Int("workers", 4, "accounts registered at once")
	flag.Parse()
	u, err := url.Parse(*base)
	if err != nil || (u.Hostname() != "127.0.0.1" && u.Hostname() != "::1" && u.Hostname() != "localhost") {
		fmt.Fprintln(os.Stderr, "wave: -base must name 127.0.0.1, ::1 or localhost")
		os.Exit(2)
	}
	start := time.Now()
	var done, failed atomic.Int64
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range *workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				if err := account(*base, i, *ranges, *domains, *posts); err != nil {
					failed.Add(1)
					fmt.Fprintf(os.Stderr, "account %d: %v\n", i, err)
					continue
				}
				done.Add(1)
			}
		}()
	}
	for i := range *accounts {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	fmt.Printf("%d accounts registered, signed in and posted %d times each in %s; %d failed\n",
		done.Load(), *posts, time.Since(start).Round(time.Millisecond), failed.Load())
	fmt.Printf("ranges 2001:db8:5a5a:0::/64 to 2001:db8:5a5a:%x::/64, domains wave-0.example to wave-%d.example\n", *ranges-1, *domains-1)
	if failed.Load() > 0 {
		os.Exit(1)
	}
}

// account registers account i from its range, signs it in and posts.
func account(base string, i, ranges, domains, posts int) error {
	jar, _ := cookiejar.New(nil)
	c := &client{base: base, ip: fmt.Sprintf("2001:db8:5a5a:%x::%x", i%ranges, i+1), http: &http.Client{Jar: jar, Timeout: 30 * time.Second}}
	email := fmt.Sprintf("wave%04d@wave-%d.example", i, i%domains)
	password := fmt.Sprintf("wave password %04d long enough", i)
	if err := c.post("/api/users", map[string]any{"name": fmt.Sprintf("Wave %d", i), "email": email, "password": password}, http.StatusCreated); err != nil {
		return fmt.Errorf("register: %w", err)
	}
	if err := c.post("/api/auth/signin", map[string]any{"email": email, "password": password}, http.StatusOK); err != nil {
		return fmt.Errorf("sign in: %w", err)
	}
	for j := range posts {
		body := map[string]any{"title": fmt.Sprintf("Cheap watches %d-%d", i, j), "content": "Best prices, click now.", "published": true}
		if err := c.post("/api/posts", body, http.StatusCreated); err != nil {
			return fmt.Errorf("post %d: %w", j, err)
		}
	}
	return nil
}

type client struct {
	base, ip string
	http     *http.Client
}

// post sends body as JSON from the account's address, as a browser of
// the site would (same Origin), and wants status back.
func (c *client) post(path string, body any, status int) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequest(http.MethodPost, c.base+path, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Origin", c.base)
	req.Header.Set("X-Forwarded-For", c.ip)
	res, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	got, _ := io.ReadAll(io.LimitReader(res.Body, 512))
	if res.StatusCode != status {
		return errors.New(res.Status + ": " + string(got))
	}
	return nil
}
