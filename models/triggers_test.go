package models_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/plazahq/plaza/models/dbtest"
)

// TestTriggersNeverJoinTheirTransitionTables: no statement of a
// PostgreSQL trigger function reads both the old and the new rows of the
// statement that fired it, except as the two sides of a UNION. A
// connection keeps the plans of a trigger's first calls, mostly edits of
// one post, made for transition tables of one row: such a join ran as a
// nested loop, so hiding a prolific author's 8,000 posts compared 64
// million pairs and took 20 s (BenchmarkHideUserPosts).
func TestTriggersNeverJoinTheirTransitionTables(t *testing.T) {
	db := dbtest.Open(t, "postgres")
	var funcs []struct {
		Name, Source, Old, New string
	}
	err := db.NewRaw(`SELECT DISTINCT p.proname AS name, p.prosrc AS source, t.tgoldtable AS old, t.tgnewtable AS new
		FROM pg_trigger AS t JOIN pg_proc AS p ON p.oid = t.tgfoid
		WHERE t.tgoldtable IS NOT NULL AND t.tgnewtable IS NOT NULL`).Scan(context.Background(), &funcs)
	if err != nil {
		t.Fatal(err)
	}
	if len(funcs) == 0 {
		t.Fatal("no trigger reads both transition tables: the query is wrong")
	}
	union := regexp.MustCompile(`(?i)\bUNION(\s+ALL)?\b`)
	for _, f := range funcs {
		oldRows := regexp.MustCompile(`\b` + regexp.QuoteMeta(f.Old) + `\b`)
		newRows := regexp.MustCompile(`\b` + regexp.QuoteMeta(f.New) + `\b`)
		for _, statement := range strings.Split(f.Source, ";") {
			for _, part := range union.Split(statement, -1) {
				if oldRows.MatchString(part) && newRows.MatchString(part) {
					t.Errorf("%s reads %s and %s in one query:\n%s", f.Name, f.Old, f.New, strings.TrimSpace(part))
				}
			}
		}
	}
}
