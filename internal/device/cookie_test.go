package device_test

import (
	"strings"
	"testing"

	"github.com/plazahq/plaza/internal/device"
)

func TestDeviceCookie(t *testing.T) {
	key := device.Key(strings.Repeat("s", 32))
	v := device.NewCookie(key, 7, "ada@example.com")
	id, ok := device.Trusted(key, v, 7, "ada@example.com")
	if !ok || id == "" || !strings.HasPrefix(v, id+".") {
		t.Fatalf("own cookie %q: %q, %v", v, id, ok)
	}
	if v2 := device.NewCookie(key, 7, "ada@example.com"); v2 == v {
		t.Error("two devices got the same cookie")
	}
	other := device.Key(strings.Repeat("t", 32))
	mallory := device.NewCookie(key, 8, "mallory@example.com")
	mid, _, _ := strings.Cut(mallory, ".")
	for name, bad := range map[string]string{
		"another email's":     mallory,
		"its id, another sig": id + "." + strings.SplitN(mallory, ".", 2)[1],
		"another id, its sig": mid + "." + strings.SplitN(v, ".", 2)[1],
		"another key's":       device.NewCookie(other, 7, "ada@example.com"),
		"a deleted account's": device.NewCookie(key, 6, "ada@example.com"), // the email's account before

		"no signature":   id,
		"empty":          "",
		"signature only": "." + strings.SplitN(v, ".", 2)[1],
	} {
		if _, ok := device.Trusted(key, bad, 7, "ada@example.com"); ok {
			t.Errorf("%s cookie %q trusted for ada", name, bad)
		}
	}
}
