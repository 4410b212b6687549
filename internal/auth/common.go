package auth

import (
	_ "embed"
	"strings"
	"sync"
)

//go:embed common_passwords.txt
var commonPasswordList string

// commonPasswords is the embedded list as a set, built on first use.
var commonPasswords = sync.OnceValue(func() map[string]bool {
	set := map[string]bool{}
	for line := range strings.Lines(commonPasswordList) {
		line = strings.TrimSpace(line)
		if line != "" && !strings.HasPrefix(line, "#") {
			set[strings.ToLower(line)] = true
		}
	}
	return set
})

// IsCommonPassword reports whether password is one of the most common
// leaked passwords (ASVS 2.1.7), ignoring case: the first guesses of anyone
// trying accounts one after another. The list ships in the binary
// (common_passwords.txt says where it comes from), so checking asks no
// outside service.
func IsCommonPassword(password string) bool {
	return commonPasswords()[strings.ToLower(password)]
}
