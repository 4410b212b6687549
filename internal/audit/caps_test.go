package audit

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestClip(t *testing.T) {
	if got := Clip("short", 10); got != "short" {
		t.Errorf("Clip kept %q", got)
	}
	long := strings.Repeat("é", 1000) // two bytes each
	got := Clip(long, 101)
	if len(got) > 101 || !utf8.ValidString(got) || !strings.HasSuffix(got, "…") {
		t.Errorf("Clip gave %d bytes %q", len(got), got)
	}
}

func TestClipDetails(t *testing.T) {
	big := strings.Repeat("x", 200_000)
	d := ClipDetails(map[string]any{"after": map[string]any{"bio": big, "tags": []any{big}}, big: 1})
	for k, v := range d {
		if len(k) > MaxDetailString {
			t.Errorf("key of %d bytes kept", len(k))
		}
		if m, ok := v.(map[string]any); ok {
			if len(m["bio"].(string)) > MaxDetailString || len(m["tags"].([]any)[0].(string)) > MaxDetailString {
				t.Errorf("nested strings not clipped")
			}
		}
	}
}
