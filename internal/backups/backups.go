// Package backups manages the backup files in BACKUP_DIR: lists them,
// opens one to download, deletes one, and prunes all but the newest. It
// knows nothing of the database that wrote them or of HTTP.
package backups

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// names are the files Plaza's backups are written as (models.Store.Backup).
var names = regexp.MustCompile(`^plaza-[0-9]{8}T[0-9]{6}\.[0-9]{6}Z\.(db|dump|plzdump)$`)

// ErrNotFound is a name that is no backup in the folder.
var ErrNotFound = errors.New("no such backup")

// File is one backup.
type File struct {
	Name      string
	SizeBytes int64
	CreatedAt time.Time
}

// ValidName reports whether name is a backup's file name (and so names no
// other file, nor a path).
func ValidName(name string) bool { return names.MatchString(name) }

// List returns the backups in dir, newest first; a missing folder holds none.
func List(dir string) ([]File, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return []File{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list backups: %w", err)
	}
	out := []File{}
	for _, e := range entries {
		if !e.Type().IsRegular() || !ValidName(e.Name()) {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue // deleted meanwhile
		}
		out = append(out, File{Name: e.Name(), SizeBytes: info.Size(), CreatedAt: info.ModTime().UTC()})
	}
	// The names hold the time they were taken, so they sort by it.
	slices.SortFunc(out, func(a, b File) int { return strings.Compare(b.Name, a.Name) })
	return out, nil
}

// Open opens backup name in dir for reading.
func Open(dir, name string) (*os.File, File, error) {
	if !ValidName(name) {
		return nil, File{}, ErrNotFound
	}
	f, err := os.Open(filepath.Join(dir, name))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, File{}, ErrNotFound
	}
	if err != nil {
		return nil, File{}, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, File{}, err
	}
	return f, File{Name: name, SizeBytes: info.Size(), CreatedAt: info.ModTime().UTC()}, nil
}

// Delete removes backup name from dir.
func Delete(dir, name string) error {
	if !ValidName(name) {
		return ErrNotFound
	}
	err := os.Remove(filepath.Join(dir, name))
	if errors.Is(err, fs.ErrNotExist) {
		return ErrNotFound
	}
	return err
}

// Prune deletes all but the newest keep backups in dir and returns the
// names it deleted.
func Prune(dir string, keep int) ([]string, error) {
	files, err := List(dir)
	if err != nil || len(files) <= keep {
		return nil, err
	}
	var gone []string
	for _, f := range files[max(keep, 0):] {
		if err := Delete(dir, f.Name); err != nil && !errors.Is(err, ErrNotFound) {
			return gone, err
		}
		gone = append(gone, f.Name)
	}
	return gone, nil
}
