// Package migrations holds Plaza's schema history, one directory per SQL
// dialect. Both directories hold the same steps under the same names, so
// every database reaches the same schema by the same steps; a shipped file is
// never edited (fix forward with a new one).
package migrations

import (
	"embed"
	"fmt"
	"io/fs"
)

//go:embed postgres/*.sql sqlite/*.sql
var files embed.FS

// For returns the migration files of a dialect ("postgres" or "sqlite").
func For(dialect string) (fs.FS, error) {
	switch dialect {
	case "postgres", "sqlite":
		return fs.Sub(files, dialect)
	}
	return nil, fmt.Errorf("no migrations for dialect %q", dialect)
}
