package auth

import (
	"strings"
	"testing"
)

func TestIsCommonPassword(t *testing.T) {
	for _, p := range []string{"password", "Password1", "QWERTYUIOP", "iloveyou", "12345678", "qwertyuiop123", "123qweasdzxc", "1q2w3e4r5t6y"} {
		if !IsCommonPassword(p) {
			t.Errorf("%q: not common, want common", p)
		}
	}
	for _, p := range []string{"", "correct horse battery staple", "x7#Lq!v9rT", "# The most common passwords"} {
		if IsCommonPassword(p) {
			t.Errorf("%q: common, want not", p)
		}
	}
	if n := len(commonPasswords()); n < 10000 {
		t.Errorf("the list holds %d passwords, want the 10,000 most common and more", n)
	}
	for p := range commonPasswords() {
		if p != strings.TrimSpace(p) || p != strings.ToLower(p) {
			t.Errorf("list entry %q is not trimmed lowercase", p)
		}
	}
}
