package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestAuditCommands: plaza audit anchor prints a signed anchor; plaza
// audit verify --anchor holds it against the chain: valid while the chain
// keeps the anchored entry, truncated once the newest entries are removed
// (which the chain alone does not show), and an anchor changed or signed
// with another key is refused. An entry edited and re-chained without the
// key breaks verify. Both databases.
func TestAuditCommands(t *testing.T) {
	const secret = "the audit secret of this test, 32+ characters"
	for _, dialect := range dbtest.Dialects {
		t.Run(dialect, func(t *testing.T) {
			ctx := context.Background()
			db, dbURL := dbtest.OpenURL(t, dialect)
			vars := baseEnv(dbURL, "AUDIT_KEY", secret)
			if code, out, stderr := runCmd(t, vars, "audit", "verify"); code != 0 || !strings.Contains(out, `"valid":true`) {
				t.Fatalf("verify of an empty chain: exit %d, %q %q", code, out, stderr)
			}
			s := models.NewStore(db)
			s.AuditKey = audit.ChainKey(secret)
			add := func(n int) {
				t.Helper()
				for i := range n {
					e := &models.AuditEntry{AdminUsername: "ada", Action: "users.list", Status: 200, Details: map[string]any{"i": i}}
					if err := s.Audit.AppendAudit(ctx, db, e); err != nil {
						t.Fatal(err)
					}
				}
			}
			add(4)
			code, out, stderr := runCmd(t, vars, "audit", "anchor")
			var a audit.Anchor
			if code != 0 || json.Unmarshal([]byte(out), &a) != nil || a.Count != 4 || !a.Signed(audit.ChainKey(secret)) {
				t.Fatalf("anchor: exit %d, %q %q", code, out, stderr)
			}
			file := filepath.Join(t.TempDir(), "anchor.json")
			os.WriteFile(file, []byte(out), 0o600)
			add(2)
			if code, out, stderr := runCmd(t, vars, "audit", "verify", "--anchor", file); code != 0 || !strings.Contains(out, `"valid":true,"checked":6`) {
				t.Fatalf("verify against the anchor: exit %d, %q %q", code, out, stderr)
			}

			id, _ := a.ID()
			if _, err := db.ExecContext(ctx, "DELETE FROM audit_log WHERE id >= ?", id); err != nil {
				t.Fatal(err)
			}
			if code, out, _ := runCmd(t, vars, "audit", "verify"); code != 0 {
				t.Fatalf("the cut chain alone: exit %d, %q; the test expects it to look whole", code, out)
			}
			code, out, stderr = runCmd(t, vars, "audit", "verify", "--anchor", file)
			if code != exitError || !strings.Contains(out, `"truncated":true`) || !strings.Contains(stderr, "removed or rewritten") {
				t.Errorf("verify of the cut chain against the anchor: exit %d, %q %q; want 1 and truncated", code, out, stderr)
			}

			changed := strings.Replace(string(mustRead(t, file)), `"count":4`, `"count":3`, 1)
			os.WriteFile(file, []byte(changed), 0o600)
			if code, _, stderr := runCmd(t, vars, "audit", "verify", "--anchor", file); code != exitError || !strings.Contains(stderr, "signature") {
				t.Errorf("a changed anchor: exit %d, %q; want 1 and the signature refused", code, stderr)
			}
			os.WriteFile(file, []byte(out), 0o600) // not an anchor at all
			if code, _, stderr := runCmd(t, vars, "audit", "verify", "--anchor", file); code != exitError || stderr == "" {
				t.Errorf("a file without an anchor: exit %d, %q", code, stderr)
			}

			if _, err := db.ExecContext(ctx, "UPDATE audit_log SET status = 500 WHERE id = (SELECT min(id) FROM audit_log)"); err != nil {
				t.Fatal(err)
			}
			if code, out, stderr := runCmd(t, vars, "audit", "verify"); code != exitError || !strings.Contains(stderr, "broken at entry") {
				t.Errorf("verify of an edited chain: exit %d, %q %q", code, out, stderr)
			}
		})
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestAuditKeyFileBesideSQLite: without AUDIT_KEY or JWT_SECRET the key
// is made once in a private file beside the SQLite database, never in the
// database, and every later command keys the chain alike.
func TestAuditKeyFileBesideSQLite(t *testing.T) {
	_, dbURL := dbtest.OpenURL(t, config.DialectSQLite)
	vars := baseEnv(dbURL)
	delete(vars, "AUDIT_KEY_FILE")
	if code, out, stderr := runCmd(t, vars, "user", "create", "--email", "ada@example.com", "--password", "long enough pass"); code != 0 {
		t.Fatalf("user create: exit %d, %q %q", code, out, stderr)
	}
	path := filepath.Join(filepath.Dir(strings.TrimPrefix(dbURL, "sqlite://")), "audit.key")
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("key file %s: %v, %v; want one of mode 0600", path, info, err)
	}
	secret := strings.TrimSpace(string(mustRead(t, path)))
	db := openURL(t, dbURL)
	var inDB int
	if err := db.NewRaw("SELECT count(*) FROM settings WHERE value LIKE ?", "%"+secret+"%").Scan(context.Background(), &inDB); err != nil || inDB != 0 {
		t.Errorf("the key file's secret is in the database too (%d, %v)", inDB, err)
	}
	code, out, _ := runCmd(t, vars, "audit", "anchor")
	var a audit.Anchor
	if code != 0 || json.Unmarshal([]byte(out), &a) != nil || !a.Signed(audit.ChainKey(secret)) {
		t.Errorf("anchor: exit %d, %q; want one signed with the key file's key", code, out)
	}
}

func TestAuditUsageErrors(t *testing.T) {
	unused := filepath.Join(t.TempDir(), "unused.db")
	for _, args := range [][]string{{"audit"}, {"audit", "sign"}, {"audit", "anchor", "now"}, {"audit", "verify", "--anchor"}, {"audit", "verify", "--from", "x"}} {
		code, out, stderr := runCmd(t, baseEnv("sqlite://"+unused), args...)
		if code != exitUsage || out != "" || stderr == "" {
			t.Errorf("%v: exit %d, %q %q; want 2 and a usage message", args, code, out, stderr)
		}
	}
	if _, err := os.Stat(unused); err == nil {
		t.Error("a usage error opened the database")
	}
}
