package access_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestPackagesThatNameRolesStayLight: the packages that only need to name
// roles, permissions and the caller (this one, the wire contract, the
// views and the policy) link none of sign-in's machinery: no OAuth
// providers, JWT, password hashing or TOTP, and not internal/auth, which
// holds them.
func TestPackagesThatNameRolesStayLight(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".", "../../api", "../../views", "../../actions/policy").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	heavy := []string{"github.com/plazahq/plaza/internal/auth", "github.com/markbates/goth", "github.com/golang-jwt/jwt",
		"github.com/alexedwards/argon2id", "github.com/pquerna/otp", "golang.org/x/crypto"}
	for _, dep := range strings.Fields(string(out)) {
		for _, h := range heavy {
			if dep == h || strings.HasPrefix(dep, h+"/") {
				t.Errorf("%s is linked by a package that only names roles and permissions", dep)
			}
		}
	}
}
