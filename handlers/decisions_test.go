package handlers_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHandlersDecideNoPermission reads the handlers' source: no handler
// asks a principal what it may do (Can, Staff, Tier), names a permission,
// or builds a permission refusal. Those decisions belong to the policy
// table, which handlers reach through the actions or Policy.May.
func TestHandlersDecideNoPermission(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		ast.Inspect(f, func(n ast.Node) bool {
			if what := decision(n); what != "" {
				t.Errorf("%s: %s; ask the policy (actions, or Policy.May) instead", fset.Position(n.Pos()), what)
			}
			return true
		})
	}
	if checked < 20 {
		t.Fatalf("read %d handler files; is the test running in handlers/?", checked)
	}
}

// decision names the permission decision n makes, or "".
func decision(n ast.Node) string {
	switch n := n.(type) {
	case *ast.CallExpr:
		if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
			switch sel.Sel.Name {
			case "Can", "Staff", "Tier":
				return "calls " + sel.Sel.Name
			}
		}
	case *ast.SelectorExpr:
		if x, ok := n.X.(*ast.Ident); ok && x.Name == "auth" && strings.HasPrefix(n.Sel.Name, "Perm") {
			return "names the permission auth." + n.Sel.Name
		}
	case *ast.KeyValueExpr:
		if k, ok := n.Key.(*ast.Ident); ok && k.Name == "RequiredPermission" {
			return "builds a permission refusal"
		}
	}
	return ""
}
