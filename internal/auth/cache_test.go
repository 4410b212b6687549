package auth

import (
	"testing"
	"time"

	"github.com/plazahq/plaza/internal/access"
)

func TestPrincipalCache(t *testing.T) {
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	ada := &access.Principal{UserID: 7, Username: "ada", Permissions: access.Permissions{access.PermAdminRead}}
	c := NewPrincipalCache(10, 5*time.Second)

	c.Put("k", ada, c.Generation(), now, time.Time{})
	if _, ok := c.Get("k", now); ok {
		t.Fatal("a disabled cache must not remember")
	}
	c.SetEnabled(true)
	c.Put("k", ada, c.Generation(), now, time.Time{})
	got, ok := c.Get("k", now.Add(4*time.Second))
	if !ok || got.Username != "ada" || got == ada {
		t.Fatalf("get: %v %v (must be a copy)", got, ok)
	}
	got.Username = "mallory"
	if again, _ := c.Get("k", now); again.Username != "ada" {
		t.Error("changing a returned principal changed the cache")
	}
	if _, ok := c.Get("k", now.Add(5*time.Second)); ok {
		t.Error("an entry outlived the TTL")
	}

	c.Put("tok", ada, c.Generation(), now, now.Add(time.Second))
	if _, ok := c.Get("tok", now.Add(time.Second)); ok {
		t.Error("an entry outlived its token")
	}

	c.Purge()
	if _, ok := c.Get("k", now); ok {
		t.Error("purge kept an entry")
	}

	gen := c.Generation()
	c.Purge() // a change commits while the lookup that read gen is under way
	c.Put("k", ada, gen, now, time.Time{})
	if _, ok := c.Get("k", now); ok {
		t.Error("a lookup older than a purge was stored")
	}

	c.Put("k", ada, c.Generation(), now, time.Time{})
	c.SetEnabled(false)
	c.SetEnabled(true)
	if _, ok := c.Get("k", now); ok {
		t.Error("re-enabling must start empty: news may have been missed while off")
	}
}

func TestNilPrincipalCache(t *testing.T) {
	var c *PrincipalCache
	c.Put("k", &access.Principal{UserID: 1}, c.Generation(), time.Now(), time.Time{})
	c.Purge()
	c.SetEnabled(true)
	if _, ok := c.Get("k", time.Now()); ok || c.Enabled() {
		t.Error("a nil cache remembers nothing")
	}
}
