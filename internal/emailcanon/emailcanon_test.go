package emailcanon

import "testing"

func TestCanonical(t *testing.T) {
	tests := []struct{ email, want string }{
		{"ab@gmail.com", "ab@gmail.com"},
		{"A.B+x@Gmail.com", "ab@gmail.com"},
		{"a.b+x@gmail.com", "ab@gmail.com"},
		{"ab@googlemail.com", "ab@gmail.com"},
		{"a.b.@googlemail.com", "ab@gmail.com"},
		{"a.b+one+two@gmail.com", "ab@gmail.com"},
		{"x+1@example.org", "x@example.org"},
		{"x@example.org", "x@example.org"},
		{" X+Tag@Example.ORG ", "x@example.org"},
		{"a.b@example.org", "a.b@example.org"}, // dots matter outside Gmail
		{"a.b+x@example.org", "a.b@example.org"},
		{"+x@example.org", "+x@example.org"}, // a local part that is all tag stays
		{"...@gmail.com", "...@gmail.com"},   // nothing left without the dots: kept
		{"user@sub.gmail.com", "user@sub.gmail.com"},
		{"no-at-sign", "no-at-sign"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := Canonical(tt.email); got != tt.want {
			t.Errorf("Canonical(%q) = %q, want %q", tt.email, got, tt.want)
		}
	}
}

// TestCanonicalMergesAndSeparates: the addresses of one Gmail mailbox are
// one, and addresses of other domains that differ only by dots are not.
func TestCanonicalMergesAndSeparates(t *testing.T) {
	if Canonical("a.b+x@gmail.com") != Canonical("ab@googlemail.com") {
		t.Error("a.b+x@gmail.com and ab@googlemail.com are one mailbox")
	}
	if Canonical("x+1@example.org") != Canonical("x@example.org") {
		t.Error("x+1@example.org and x@example.org are one mailbox")
	}
	if Canonical("a.b@example.org") == Canonical("ab@example.org") {
		t.Error("a.b@example.org and ab@example.org are two mailboxes")
	}
}
