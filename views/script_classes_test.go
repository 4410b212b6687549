package views

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestScriptClassesAreBuilt reads Plaza's own scripts: every class they
// set (className, classList) is in the built stylesheet. Tailwind keeps
// only the classes it finds in the files it scans, so a class used from a
// script alone is silently dropped unless its file is scanned; this test
// fails then, as it would have when the console's toasts went transparent.
func TestScriptClassesAreBuilt(t *testing.T) {
	read := func(names ...string) string {
		var all strings.Builder
		for _, name := range names {
			b, err := os.ReadFile(filepath.Join("..", "static", name))
			if err != nil {
				t.Fatal(err)
			}
			all.Write(b)
		}
		return all.String()
	}
	scripts, err := filepath.Glob(filepath.Join("..", "static", "js", "*.js"))
	if err != nil {
		t.Fatal(err)
	}
	setsClass := regexp.MustCompile(`\.className\s*=|\.classList\.(add|remove|toggle|replace)\(`)
	literal := regexp.MustCompile(`'([^']*)'|"([^"]*)"`)
	compared := regexp.MustCompile(`[!=]==?\s*('[^']*'|"[^"]*")`) // kind === 'error' names no class
	found := 0
	for _, file := range scripts {
		if strings.HasSuffix(file, ".min.js") {
			continue // vendored
		}
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		css := read("css/app.css")
		for n, line := range strings.Split(string(src), "\n") {
			if !setsClass.MatchString(line) {
				continue
			}
			for _, m := range literal.FindAllStringSubmatch(compared.ReplaceAllString(line, ""), -1) {
				for _, class := range strings.Fields(m[1] + m[2]) {
					found++
					if !strings.Contains(css, "."+cssEscape(class)) {
						t.Errorf("%s:%d sets class %q, which the built CSS lacks: does tailwind.config.js scan %s?",
							filepath.Base(file), n+1, class, filepath.Base(file))
					}
				}
			}
		}
	}
	if found == 0 {
		t.Fatal("no class set from a script was found; is the test reading static/js?")
	}
}

// cssEscape writes a class name as a selector spells it.
func cssEscape(class string) string {
	return strings.NewReplacer(":", `\:`, "/", `\/`, ".", `\.`, "[", `\[`, "]", `\]`).Replace(class)
}
