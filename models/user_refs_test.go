package models_test

import (
	"context"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// notUserRefs are columns whose names look like a user's but that name
// something else.
var notUserRefs = map[string]string{
	"provider_accounts.provider_user_id": "the account's id at the external provider",
}

// clearedByTrigger are columns with no foreign key on one dialect (for
// speed) whose trigger does what the key would: the trigger's name.
var clearedByTrigger = map[string]string{
	// PostgreSQL's migration 20261122000006: ON DELETE SET NULL.
	"analytics_events.user_id": "users_detach_events",
	// PostgreSQL's migration 20261124150000: ON DELETE CASCADE.
	"notifications.user_id": "users_delete_notifications",
}

// copies are columns that copy another column naming a user, kept in step
// with it by triggers (PostgreSQL): they go as their source goes.
var copies = map[string]string{
	"post_titles.author_id":        "posts.author_id",    // trigger posts_titles_delete; posts cascade
	"audit_combined_runs.admin_id": "audit_log.admin_id", // counts of the kept audit entries
}

// TestEveryUserRefIsHandled walks the schema for every column that names a
// user, by its foreign key to users or by its name, and fails for one
// whose row could outlive its user unnoticed: it needs a foreign key whose
// ON DELETE cascades or clears it, or an entry in models.KeptUserRefs
// (kept as a tombstone no new account can match). A kept column must
// exist, and none may keep a foreign key that says otherwise.
func TestEveryUserRefIsHandled(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		onDelete := userForeignKeys(t, db)
		kept := map[string]bool{}
		for r := range models.KeptUserRefs {
			col := r.Table + "." + r.Column
			kept[col] = true
			if _, ok := onDelete[col]; ok {
				t.Errorf("%s is kept as a tombstone and has a foreign key to users too", col)
			}
		}
		cols := allColumns(t, db)
		for col := range kept {
			if !cols[col] {
				t.Errorf("models.KeptUserRefs names %s, which does not exist", col)
			}
		}
		for col, rule := range onDelete {
			if rule != "CASCADE" && rule != "SET NULL" {
				t.Errorf("%s references users ON DELETE %s: deleting a user would fail or leave it naming the id", col, rule)
			}
		}
		for col := range cols {
			_, hasKey := onDelete[col]
			if !looksLikeUserRef(col) || hasKey || kept[col] || notUserRefs[col] != "" {
				continue
			}
			if trig, ok := clearedByTrigger[col]; ok && hasTrigger(t, db, trig) {
				continue
			}
			if src, ok := copies[col]; ok && (onDelete[src] != "" || kept[src]) {
				continue
			}
			t.Errorf("%s names a user with no foreign key to users and is not in models.KeptUserRefs: "+
				"decide whether it cascades, is cleared or is kept as a tombstone", col)
		}
	})
}

// looksLikeUserRef says whether a column's name says it holds a user.
func looksLikeUserRef(col string) bool {
	table, name, _ := strings.Cut(col, ".")
	if strings.HasPrefix(table, "river_") || strings.HasPrefix(table, "bun_") {
		return false // the job queue's and the migrator's own tables
	}
	switch name {
	case "user_id", "admin_id", "author_id", "reporter_id", "owner_id", "actor_id", "moderator_id":
		return true
	}
	return strings.HasSuffix(name, "_user_id") || strings.HasSuffix(name, "_by")
}

// userForeignKeys maps each column with a foreign key to users to its ON
// DELETE rule, in SQL's spelling.
func userForeignKeys(t *testing.T, db *bun.DB) map[string]string {
	t.Helper()
	var rows []struct{ Col, Rule string }
	q := `SELECT m.name || '.' || f."from" AS col, f.on_delete AS rule
		FROM sqlite_master AS m JOIN pragma_foreign_key_list(m.name) AS f
		WHERE m.type = 'table' AND f."table" = 'users'`
	if models.Dialect(db) == config.DialectPostgres {
		q = `SELECT cl.relname || '.' || a.attname AS col,
			CASE c.confdeltype WHEN 'c' THEN 'CASCADE' WHEN 'n' THEN 'SET NULL' WHEN 'd' THEN 'SET DEFAULT'
				WHEN 'r' THEN 'RESTRICT' ELSE 'NO ACTION' END AS rule
			FROM pg_constraint AS c
			JOIN pg_class AS cl ON cl.oid = c.conrelid
			JOIN pg_attribute AS a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
			WHERE c.contype = 'f' AND c.confrelid = 'users'::regclass AND NOT cl.relispartition
				AND cl.relnamespace = current_schema()::regnamespace`
	}
	if err := db.NewRaw(q).Scan(context.Background(), &rows); err != nil {
		t.Fatal(err)
	}
	out := make(map[string]string, len(rows))
	for _, r := range rows {
		out[r.Col] = strings.ToUpper(r.Rule)
	}
	if len(out) == 0 {
		t.Fatal("no foreign keys to users found: the walk reads nothing")
	}
	return out
}

// allColumns is every table.column of the schema's own tables (not
// partitions, not SQLite's FTS shadow tables).
func allColumns(t *testing.T, db *bun.DB) map[string]bool {
	t.Helper()
	var cols []string
	q := `SELECT m.name || '.' || c.name FROM sqlite_master AS m JOIN pragma_table_info(m.name) AS c
		WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name NOT LIKE '%_fts%'`
	if models.Dialect(db) == config.DialectPostgres {
		q = `SELECT cl.relname || '.' || a.attname FROM pg_class AS cl
			JOIN pg_attribute AS a ON a.attrelid = cl.oid AND a.attnum > 0 AND NOT a.attisdropped
			WHERE cl.relkind IN ('r', 'p') AND NOT cl.relispartition AND cl.relnamespace = current_schema()::regnamespace`
	}
	if err := db.NewRaw(q).Scan(context.Background(), &cols); err != nil {
		t.Fatal(err)
	}
	out := make(map[string]bool, len(cols))
	for _, c := range cols {
		out[c] = true
	}
	return out
}

func hasTrigger(t *testing.T, db *bun.DB, name string) bool {
	t.Helper()
	q := `SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?`
	if models.Dialect(db) == config.DialectPostgres {
		q = `SELECT count(*) FROM pg_trigger WHERE tgname = ? AND NOT tgisinternal`
	}
	var n int
	if err := db.NewRaw(q, name).Scan(context.Background(), &n); err != nil {
		t.Fatal(err)
	}
	return n > 0
}
