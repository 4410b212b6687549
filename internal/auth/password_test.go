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
	if err := checkPassword("correct horse", hash); err != nil {
		t.Errorf("right password: %v", err)
	}
	if err := checkPassword("wrong horse", hash); !errors.Is(err, ErrBadPassword) {
		t.Errorf("wrong password: got %v, want ErrBadPassword", err)
	}
}

func TestHashPasswordKeepsTheRule(t *testing.T) {
	for _, pw := range []string{"short", "password123", "qwertyuiop123", strings.Repeat("x", MaxPasswordLen+1)} {
		var re *PasswordRuleError
		if _, err := HashPassword(pw); !errors.As(err, &re) {
			t.Errorf("HashPassword(%.20q…): got %v, want a *PasswordRuleError", pw, err)
		}
	}
}

func TestCheckNewPassword(t *testing.T) {
	tests := []struct {
		name, password, email string
		want                  PasswordRule // 0: accepted
		wantMessage           string
	}{
		{"empty", "", "", PasswordTooShort, "password must have at least 12 characters"},
		{"eight characters", "tea leaf", "", PasswordTooShort, "password must have at least 12 characters"},
		{"eleven characters", "tea leaf ok", "", PasswordTooShort, ""},
		{"twelve characters", "tea leaf oak", "", 0, ""},
		{"eleven characters in 22 bytes", "ééééééééééé", "", PasswordTooShort, ""},
		{"twelve characters in 24 bytes", "éééééééééééé", "", 0, ""},
		{"256 characters", strings.Repeat("x", 256), "", 0, ""},
		{"256 four-byte characters (1024 bytes)", strings.Repeat("😀", 256), "", 0, ""},
		{"257 characters", strings.Repeat("x", 257), "", PasswordTooLong, "password must have at most 256 characters"},
		{"a megabyte", strings.Repeat("x", 1<<20), "", PasswordTooLong, ""},
		{"common", "qwertyuiop123", "", PasswordCommon, "password is among the most common passwords; choose another"},
		{"common in capitals", "123QWEASDZXC", "", PasswordCommon, ""},
		{"common, from the list's long tail", "1qaz2wsx3edc4rfv", "", PasswordCommon, ""},
		{"the email", "Ada@Example.com", "ada@example.com", PasswordIsEmail, "password must not be the email address"},
		{"the email's name part", "ADA.LOVELACE", "ada.lovelace@example.com", PasswordIsEmail, ""},
		{"like the email, no email given", "ada.lovelace", "", 0, ""},
		{"the email's name part, twelve characters", "Ada.Lovelace", "ada.lovelace@example.com", PasswordIsEmail, ""},
		{"unlike the email", "correct horse", "ada@example.com", 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckNewPassword(tt.password, tt.email)
			if tt.want == 0 {
				if err != nil {
					t.Errorf("got %v, want nil", err)
				}
				return
			}
			var re *PasswordRuleError
			if !errors.As(err, &re) || re.Rule != tt.want {
				t.Fatalf("got %#v, want a *PasswordRuleError with rule %d", err, tt.want)
			}
			if tt.wantMessage != "" && err.Error() != tt.wantMessage {
				t.Errorf("got message %q, want %q", err.Error(), tt.wantMessage)
			}
		})
	}
}

func TestRandomPasswordsDiffer(t *testing.T) {
	a, b := RandomPassword(), RandomPassword()
	if a == b || len(a) < 20 {
		t.Errorf("RandomPassword gave %q and %q", a, b)
	}
}
