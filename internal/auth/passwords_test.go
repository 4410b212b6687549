package auth

import (
	"context"
	"errors"
	"testing"

	"github.com/alexedwards/argon2id"
)

// TestCheckWithoutHashRunsArgon2: a missing hash is compared with a dummy
// made once with the same parameters as real ones, and refused.
func TestCheckWithoutHashRunsArgon2(t *testing.T) {
	p := NewPasswords()
	ctx := context.Background()
	if err := p.Check(ctx, "anything at all", nil); !errors.Is(err, ErrBadPassword) {
		t.Errorf("no hash: %v, want ErrBadPassword", err)
	}
	hash, err := p.Hash(ctx, "correct horse")
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Check(ctx, "correct horse", &hash); err != nil {
		t.Errorf("right password: %v", err)
	}
	if p.Checks() != 2 {
		t.Errorf("%d comparisons, want 2", p.Checks())
	}
	got, _, _, err := argon2id.DecodeHash(dummyHash())
	if err != nil || *got != *passwordParams || dummyHash() != dummyHash() {
		t.Errorf("dummy hash parameters %+v (%v), want %+v, made once", got, err, passwordParams)
	}
}
