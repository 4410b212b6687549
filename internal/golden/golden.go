// Package golden compares test output with files under testdata/ and, when
// asked to (-update), rewrites them, saying which.
package golden

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"testing"
)

// Check compares got with the file at path. With update it writes a
// differing or missing file and logs it, so that -update -v names exactly
// the files whose diff needs review; without it, a difference fails the
// test, as does a missing file. hint says how to update (e.g. "go test
// ./internal/avatar -run TestGolden -update -v").
func Check(t testing.TB, path string, got []byte, update bool, hint string) {
	t.Helper()
	want, err := os.ReadFile(path)
	switch {
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		t.Fatal(err)
	case err == nil && bytes.Equal(got, want):
		return
	case update:
		if werr := os.WriteFile(path, got, 0o644); werr != nil {
			t.Fatal(werr)
		}
		if err != nil {
			t.Logf("created %s", path)
		} else {
			t.Logf("rewrote %s: %d bytes, was %d", path, len(got), len(want))
		}
	case err != nil:
		t.Fatalf("%v (for a new case, run %s once)", err, hint)
	default:
		t.Errorf("output differs from %s; if the change is meant, run %s\ngot  %.300s\nwant %.300s", path, hint, got, want)
	}
}
