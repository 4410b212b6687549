package auth

import (
	"errors"
	"strings"
	"testing"
)

func TestHashAndCheckPassword(t *testing.T) {
	hash, err := HashPassword("correct horse")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(hash, "$argon2id$") {
		t.Errorf("hash %q is not an argon2id PHC string", hash)
	}
	if err := CheckPassword("correct horse", hash); err != nil {
		t.Errorf("right password: %v", err)
	}
	if err := CheckPassword("wrong horse", hash); !errors.Is(err, ErrBadPassword) {
		t.Errorf("wrong password: got %v, want ErrBadPassword", err)
	}
}

func TestHashPasswordTooShort(t *testing.T) {
	if _, err := HashPassword("short"); err == nil {
		t.Error("a 5-character password was accepted")
	}
}

func TestRandomPasswordsDiffer(t *testing.T) {
	a, b := RandomPassword(), RandomPassword()
	if a == b || len(a) < 20 {
		t.Errorf("RandomPassword gave %q and %q", a, b)
	}
}
