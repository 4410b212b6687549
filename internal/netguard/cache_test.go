package netguard

import (
	"context"
	"strconv"
	"testing"
	"time"
)

func TestMemoryCacheBounded(t *testing.T) {
	now := time.Now()
	c := NewMemoryCache(4, func() time.Time { return now })
	for i := range 10 {
		_ = c.Set(context.Background(), strconv.Itoa(i), []byte{1}, time.Minute)
	}
	if len(c.entries) > 4 {
		t.Errorf("%d entries, max 4", len(c.entries))
	}
	if _, ok, _ := c.Get(context.Background(), "9"); !ok {
		t.Error("latest entry missing")
	}
}
