package csrf_test

import (
	"strings"
	"testing"

	"github.com/plazahq/plaza/internal/csrf"
)

func TestToken(t *testing.T) {
	key := csrf.Key(strings.Repeat("s", 32))
	token, cookie := csrf.New(key)
	if len(token) != 64 || !strings.HasPrefix(cookie, token+"|") {
		t.Fatalf("token %q, cookie %q", token, cookie)
	}
	if got, ok := csrf.FromCookie(key, cookie); !ok || got != token {
		t.Errorf("FromCookie = %q, %v; want %q", got, ok, token)
	}
	if !csrf.Verify(key, cookie, token) {
		t.Error("the cookie's own token refused")
	}
	other, otherCookie := csrf.New(key)
	if other == token {
		t.Error("two tokens alike")
	}
	_, sig, _ := strings.Cut(cookie, "|")
	strangerToken, strangerCookie := csrf.New(csrf.Key(strings.Repeat("t", 32)))
	for name, tt := range map[string]struct{ cookie, submitted string }{
		"no token":                 {cookie, ""},
		"another token":            {cookie, other},
		"another cookie":           {otherCookie, token},
		"unsigned":                 {token, token},
		"signature of another":     {other + "|" + sig, other},
		"another key's":            {strangerCookie, strangerToken},
		"empty cookie":             {"", ""},
		"empty token, its sig":     {"|" + sig, ""},
		"token with a longer tail": {cookie, token + "0"},
	} {
		if csrf.Verify(key, tt.cookie, tt.submitted) {
			t.Errorf("%s: accepted", name)
		}
	}
}
