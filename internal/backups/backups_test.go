package backups

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestListOpenDeletePrune: only backup names count, newest first; names
// that are paths or other files are refused; pruning keeps the newest.
func TestListOpenDeletePrune(t *testing.T) {
	dir := t.TempDir()
	names := []string{"plaza-20261120T010000.000000Z.db", "plaza-20261122T010000.000000Z.dump", "plaza-20261121T010000.000000Z.db"}
	for _, n := range append(names, "notes.txt", "plaza-latest.db") {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(n), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	files, err := List(dir)
	if err != nil || len(files) != 3 || files[0].Name != names[1] || files[2].Name != names[0] || files[0].SizeBytes != int64(len(names[1])) {
		t.Fatalf("list: %+v (%v)", files, err)
	}
	for _, bad := range []string{"../plaza-20261120T010000.000000Z.db", "notes.txt", "plaza-20261119T010000.000000Z.db"} {
		if _, _, err := Open(dir, bad); !errors.Is(err, ErrNotFound) {
			t.Errorf("open %q: %v", bad, err)
		}
		if err := Delete(dir, bad); !errors.Is(err, ErrNotFound) {
			t.Errorf("delete %q: %v", bad, err)
		}
	}
	f, info, err := Open(dir, names[0])
	if err != nil || info.SizeBytes != int64(len(names[0])) {
		t.Fatalf("open: %+v %v", info, err)
	}
	f.Close()
	gone, err := Prune(dir, 1)
	if err != nil || !slices.Equal(gone, []string{names[2], names[0]}) {
		t.Fatalf("prune: %v %v", gone, err)
	}
	if files, _ := List(dir); len(files) != 1 || files[0].Name != names[1] {
		t.Errorf("after pruning: %+v", files)
	}
	if _, err := os.Stat(filepath.Join(dir, "notes.txt")); err != nil {
		t.Errorf("pruning touched another file: %v", err)
	}
	if files, err := List(filepath.Join(dir, "missing")); err != nil || len(files) != 0 {
		t.Errorf("a missing folder: %v %v", files, err)
	}
}
