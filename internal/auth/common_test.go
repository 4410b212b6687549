package auth

import (
	"strings"
	"testing"
)

func TestIsCommonPassword(t *testing.T) {
	for _, p := range []string{"password", "Password1", "QWERTYUIOP", "iloveyou", "12345678", "P@ssw0rd", "contraseña"} {
		if !IsCommonPassword(p) {
			t.Errorf("%q: not common, want common", p)
		}
	}
	for _, p := range []string{"", "correct horse battery staple", "x7#Lq!v9rT", "# The most common passwords"} {
		if IsCommonPassword(p) {
			t.Errorf("%q: common, want not", p)
		}
	}
	if n := len(commonPasswords()); n < 300 {
		t.Errorf("the list holds %d passwords, want a few hundred", n)
	}
	for p := range commonPasswords() {
		if p != strings.TrimSpace(p) || p != strings.ToLower(p) {
			t.Errorf("list entry %q is not trimmed lowercase", p)
		}
	}
}
