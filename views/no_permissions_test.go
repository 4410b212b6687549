package views_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/plazahq/plaza/api"
)

// TestViewsNameNoPermission: no template or Go file of the views names a
// permission (an api.Perm… or api.Scope… constant, a quoted permission
// string, the roles package) or asks a principal what it can do. Pages
// read the policy's answers the web layer gives them (Viewer.May, a
// page's May… fields), so what a person may do is decided in one place.
func TestViewsNameNoPermission(t *testing.T) {
	perms := []string{api.PermAdminRead, api.PermAdminWrite, api.PermAdminDelete, api.PermAdminSuper,
		api.PermUsersManage, api.PermPostsModerate, api.ScopeAccountRead, api.ScopeAccountWrite}
	var quoted []string
	for _, p := range perms {
		quoted = append(quoted, regexp.QuoteMeta(strconv.Quote(p)), regexp.QuoteMeta("`"+p+"`"))
	}
	banned := regexp.MustCompile(`\bapi\.(Perm|Scope)[A-Z]\w*|"github\.com/plazahq/plaza/internal/(auth|access)"|\.Can\(|` + strings.Join(quoted, "|"))
	files, err := filepath.Glob("*")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, f := range files {
		if !strings.HasSuffix(f, ".templ") && (!strings.HasSuffix(f, ".go") || strings.HasSuffix(f, "_test.go")) {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for i, line := range strings.Split(string(b), "\n") {
			if m := banned.FindString(line); m != "" {
				t.Errorf("%s:%d names a permission (%s): pass the policy's answer instead (views.Abilities, a page's May… field)", f, i+1, m)
			}
		}
	}
	if checked < 20 {
		t.Fatalf("checked only %d files", checked)
	}
}
