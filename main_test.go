package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/internal/mail"
	"github.com/plazahq/plaza/internal/version"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// syncBuffer collects a command's output while it runs.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func envOf(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

// runCmd runs a sub-command to completion.
func runCmd(t *testing.T, vars map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut syncBuffer
	code = run(context.Background(), args, envOf(vars), &out, &errOut)
	return code, out.String(), errOut.String()
}

// baseEnv is a test environment on the given database. The quote sources
// are off: `serve` starts the quote pool, and a test never reaches the
// internet. The audit key file is one of the tests' own, never data/ in
// the source tree.
func baseEnv(dbURL string, extra ...string) map[string]string {
	vars := map[string]string{"DATABASE_URL": dbURL, "ADDR": "127.0.0.1:0", "PLAZA_ENV": "test", "LOG_LEVEL": "info",
		"AUDIT_KEY_FILE":             filepath.Join(os.TempDir(), "plaza-main-test-audit.key"),
		"QUOTE_SOURCE_ZENQUOTES_URL": "off", "QUOTE_SOURCE_QUOTABLE_URL": "off",
		"QUOTE_SOURCE_DUMMYJSON_URL": "off", "QUOTE_SOURCE_NINJAS_URL": "off"}
	for i := 0; i+1 < len(extra); i += 2 {
		vars[extra[i]] = extra[i+1]
	}
	return vars
}

var readyAddr = regexp.MustCompile(`msg="Plaza is ready" addr=(\S+)`)

// startServe runs `plaza serve` until the test ends and returns its base URL
// and its output (log and banner).
func startServe(t *testing.T, vars map[string]string) (string, *syncBuffer, func() int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	logs := &syncBuffer{}
	done := make(chan int, 1)
	go func() { done <- run(ctx, []string{"serve"}, envOf(vars), logs, logs) }()
	stop := func() int {
		cancel()
		select {
		case code := <-done:
			return code
		case <-time.After(30 * time.Second):
			t.Fatal("serve did not stop within 30 s of its signal")
			return -1
		}
	}
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if m := readyAddr.FindStringSubmatch(logs.String()); m != nil {
			t.Cleanup(func() { cancel() })
			return "http://" + m[1], logs, stop
		}
		select {
		case code := <-done:
			t.Fatalf("serve exited with %d before it was ready:\n%s", code, logs)
		case <-time.After(20 * time.Millisecond):
		}
	}
	cancel()
	t.Fatalf("serve was not ready within 30 s:\n%s", logs)
	return "", nil, nil
}

// waitForOutput waits until out shows want.
func waitForOutput(t *testing.T, out *syncBuffer, want string) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(out.String(), want); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestServeFirstStartAndRestart(t *testing.T) {
	for _, dialect := range dbtest.Dialects {
		t.Run(dialect, func(t *testing.T) {
			_, dbURL := dbtest.OpenEmpty(t, dialect)
			vars := baseEnv(dbURL)
			base, logs, stop := startServe(t, vars)

			res, err := http.Get(base + "/api/health")
			if err != nil {
				t.Fatal(err)
			}
			var h struct{ Status, Database, Version string }
			json.NewDecoder(res.Body).Decode(&h)
			res.Body.Close()
			if res.StatusCode != 200 || h.Status != "healthy" || h.Database != "connected" {
				t.Errorf("health: %d %+v", res.StatusCode, h)
			}
			waitForOutput(t, logs, "A demo community is seeded")
			first := logs.String()
			if !strings.Contains(first, "PUBLIC_APP_URL is not set") {
				t.Errorf("serve does not warn that PUBLIC_APP_URL is not set:\n%s", first)
			}
			banner := first[strings.Index(first, "Plaza is ready: open"):]
			for _, want := range []string{"open http://localhost:0/admin", "Sign in as admin@localhost with password ",
				"Mail is kept in the console, not sent: SMTP_URL is not set", "A demo community is seeded"} {
				if !strings.Contains(banner, want) {
					t.Errorf("first start's banner lacks %q:\n%s", want, first)
				}
			}
			if n := strings.Count(first, "level=INFO"); n > 2 { // ready, and the health request
				t.Errorf("first start logs %d lines at info level; the banner should stand alone:\n%s", n, first)
			}
			if code := stop(); code != 0 {
				t.Errorf("serve exited %d after its signal, want 0", code)
			}

			_, logs2, stop2 := startServe(t, vars)
			if strings.Contains(logs2.String(), "password") || strings.Contains(logs2.String(), "demo community") {
				t.Errorf("second start repeated the first-start work:\n%s", logs2)
			}
			stop2()
		})
	}
}

func TestServeWithConfiguredAdminAndNoDemo(t *testing.T) {
	_, dbURL := dbtest.OpenEmpty(t, config.DialectSQLite)
	vars := baseEnv(dbURL, "ADMIN_EMAIL", "Boss@Example.com", "ADMIN_PASSWORD", "s3cret-pass-phrase", "SEED_DEMO", "false")
	_, logs, stop := startServe(t, vars)
	waitForOutput(t, logs, "Sign in as")
	stop()
	out := logs.String()
	if !strings.Contains(out, "Sign in as Boss@Example.com with the ADMIN_PASSWORD you set") || strings.Contains(out, "s3cret-pass-phrase") || strings.Contains(out, "demo") {
		t.Errorf("log should name the configured admin, never its password, and skip the demo:\n%s", out)
	}
}

func TestServeRefusesBadConfig(t *testing.T) {
	code, _, stderr := runCmd(t, map[string]string{"PLAZA_ENV": "production"}, "serve")
	if code != exitError || !strings.Contains(stderr, "PUBLIC_APP_URL") {
		t.Errorf("production without settings: exit %d, %q", code, stderr)
	}
	code, _, stderr = runCmd(t, map[string]string{"ADDR": "nonsense"}, "serve")
	if code != exitError || !strings.Contains(stderr, `ADDR="nonsense"`) {
		t.Errorf("bad ADDR: exit %d, %q", code, stderr)
	}
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"unknown command", []string{"frobnicate"}},
		{"unknown flag", []string{"migrate", "--fast"}},
		{"seed bad count", []string{"seed", "--users", "many"}},
		{"seed negative", []string{"seed", "--users", "-1"}},
		{"user without subcommand", []string{"user"}},
		{"user without email", []string{"user", "create", "--password", "long enough pass"}},
		{"user short password", []string{"user", "create", "--email", "a@b.c", "--password", "eleven char"}},
		{"user common password", []string{"user", "create", "--email", "a@b.c", "--password", "qwertyuiop123"}},
		{"user password is the email", []string{"user", "create", "--email", "someone@b.c", "--password", "someone@b.c"}},
		{"user bad role", []string{"user", "create", "--email", "a@b.c", "--password", "long enough pass", "--role", "king"}},
		{"backup extra argument", []string{"backup", "now"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runCmd(t, nil, tt.args...)
			if code != exitUsage || stderr == "" {
				t.Errorf("exit %d with stderr %q, want 2 and a usage message", code, stderr)
			}
		})
	}
}

func TestMigrateCommand(t *testing.T) {
	_, dbURL := dbtest.OpenEmpty(t, config.DialectSQLite)
	code, out, stderr := runCmd(t, baseEnv(dbURL), "migrate")
	if code != 0 || !strings.Contains(out, "applied 20261122000001_identity") {
		t.Fatalf("first migrate: %d %q %q", code, out, stderr)
	}
	code, out, _ = runCmd(t, baseEnv(dbURL), "migrate")
	if code != 0 || !strings.Contains(out, "0 applied now, 0 job-queue steps") {
		t.Errorf("second migrate: %d %q", code, out)
	}
}

func TestUserCreateCommand(t *testing.T) {
	for _, dialect := range dbtest.Dialects {
		t.Run(dialect, func(t *testing.T) {
			db, dbURL := dbtest.OpenURL(t, dialect)
			vars := baseEnv(dbURL)
			code, out, stderr := runCmd(t, vars, "user", "create", "--email", "Mod@Example.com", "--password", "long enough pass", "--role", "moderator")
			if code != 0 || !strings.Contains(out, "created user") {
				t.Fatalf("exit %d: %s %s", code, out, stderr)
			}
			if strings.Contains(stderr, "PUBLIC_APP_URL") { // a user needs no public address
				t.Errorf("user create warns about PUBLIC_APP_URL: %s", stderr)
			}
			var roles []string
			err := db.NewRaw(`SELECT r.name FROM roles r JOIN user_roles ur ON ur.role_id = r.id JOIN users u ON u.id = ur.user_id WHERE u.email = ? ORDER BY r.rank`, "mod@example.com").Scan(context.Background(), &roles)
			if err != nil || strings.Join(roles, ",") != "user,moderator" {
				t.Errorf("roles = %v, %v; want user,moderator", roles, err)
			}
			code, _, stderr = runCmd(t, vars, "user", "create", "--email", "mod@example.com", "--password", "long enough pass")
			if code != exitError || !strings.Contains(stderr, "already exists") {
				t.Errorf("duplicate: exit %d, %q", code, stderr)
			}
			// The command is the account action's door: its entry is the
			// action's, and it refuses an address as the API does.
			var n int
			err = db.NewRaw("SELECT count(*) FROM audit_log WHERE action = 'user.create' AND admin_username = 'operator'").Scan(context.Background(), &n)
			if err != nil || n != 1 {
				t.Errorf("%d user.create entries (%v), want 1", n, err)
			}
			code, _, stderr = runCmd(t, vars, "user", "create", "--email", "Ada <ada@example.com>", "--password", "long enough pass")
			if code != exitUsage || !strings.Contains(stderr, "--email: email must be one address") {
				t.Errorf("an address with a name around it: exit %d, %q", code, stderr)
			}
		})
	}
}

func TestUserResetTwoFactorCommand(t *testing.T) {
	for _, dialect := range dbtest.Dialects {
		t.Run(dialect, func(t *testing.T) {
			db, dbURL := dbtest.OpenURL(t, dialect)
			ctx := context.Background()
			vars := baseEnv(dbURL)
			if code, out, stderr := runCmd(t, vars, "user", "create", "--email", "mod@example.com", "--password", "long enough pass", "--role", "moderator"); code != 0 {
				t.Fatalf("user create: exit %d, %q %q", code, out, stderr)
			}
			store := models.NewStore(db)
			u, err := store.Users.UserByEmail(ctx, "mod@example.com")
			if err != nil {
				t.Fatal(err)
			}
			if err := store.Auth.StartTwoFactor(ctx, u.ID, "sealed"); err != nil {
				t.Fatal(err)
			}
			if err := store.Auth.EnableTwoFactor(ctx, u.ID, 1, []string{"h1", "h2"}); err != nil {
				t.Fatal(err)
			}
			code, out, stderr := runCmd(t, vars, "user", "reset-2fa", "--email", "MOD@example.com")
			if code != 0 || !strings.Contains(out, "two-factor sign-in of mod@example.com is off") {
				t.Fatalf("reset: exit %d, %q %q", code, out, stderr)
			}
			if on, err := store.Auth.TwoFactorEnabled(ctx, u.ID); on || err != nil {
				t.Errorf("still enrolled after the reset: %v %v", on, err)
			}
			var n int
			err = db.NewRaw("SELECT count(*) FROM audit_log WHERE action = 'two_factor.reset' AND target_id = ?", strconv.FormatInt(u.ID, 10)).Scan(ctx, &n)
			if err != nil || n != 1 {
				t.Errorf("%d reset audit entries (%v), want 1", n, err)
			}
			code, out, _ = runCmd(t, vars, "user", "reset-2fa", "--email", "mod@example.com")
			if code != 0 || !strings.Contains(out, "nothing changed") {
				t.Errorf("second reset: exit %d, %q", code, out)
			}
			if code, _, stderr := runCmd(t, vars, "user", "reset-2fa", "--email", "nobody@example.com"); code != exitError || !strings.Contains(stderr, "no user") {
				t.Errorf("unknown email: exit %d, %q", code, stderr)
			}
		})
	}
}

// TestUserResetPasswordCommand: plaza user reset-password prints a link
// whose token sets the password once through the reset action, and the
// command is audited as user.password_reset; no mail is kept with it.
func TestUserResetPasswordCommand(t *testing.T) {
	for _, dialect := range dbtest.Dialects {
		t.Run(dialect, func(t *testing.T) {
			db, dbURL := dbtest.OpenURL(t, dialect)
			ctx := context.Background()
			vars := baseEnv(dbURL)
			if code, out, stderr := runCmd(t, vars, "user", "create", "--email", "ada@example.com", "--password", "long enough pass"); code != 0 {
				t.Fatalf("user create: exit %d, %q %q", code, out, stderr)
			}
			code, out, stderr := runCmd(t, vars, "user", "reset-password", "--email", "ADA@example.com")
			link := regexp.MustCompile(`/reset-password\?token=([A-Z2-7]+)`).FindStringSubmatch(out)
			if code != 0 || link == nil {
				t.Fatalf("reset-password: exit %d, %q %q, want a link", code, out, stderr)
			}
			store := models.NewStore(db)
			u, err := store.Users.UserByEmail(ctx, "ada@example.com")
			if err != nil {
				t.Fatal(err)
			}
			acts := actions.New(store, policy.Policy{Now: time.Now}, nil, nil)
			if acts.Mail, err = mail.NewComposer(mail.Community{Name: "Plaza", URL: "http://127.0.0.1"}); err != nil {
				t.Fatal(err)
			}
			in := actions.PasswordReset{Token: link[1], Password: "a new fine password"}
			if _, err := acts.ResetPassword(ctx, nil, in); err != nil {
				t.Fatalf("the printed link: %v", err)
			}
			if u, err = store.Users.UserByEmail(ctx, "ada@example.com"); err != nil || acts.Passwords.Check(ctx, in.Password, u.PasswordHash) != nil {
				t.Errorf("the new password does not check (%v)", err)
			}
			var invalid *actions.InvalidError
			if _, err := acts.ResetPassword(ctx, nil, in); !errors.As(err, &invalid) || invalid.Field != "token" {
				t.Errorf("the link used again: %v, want a refused token", err)
			}
			var n int
			err = db.NewRaw("SELECT count(*) FROM audit_log WHERE action = 'user.password_reset' AND target_id = ? AND status = 200",
				strconv.FormatInt(u.ID, 10)).Scan(ctx, &n)
			if err != nil || n != 1 {
				t.Errorf("%d reset audit entries (%v), want 1", n, err)
			}
			if kept, err := store.Mail.MailTo(ctx, "ada@example.com"); err != nil || len(kept) != 1 || kept[0].Kind != string(mail.KindPasswordChanged) {
				t.Errorf("mail kept: %+v (%v), want only the password-changed notice", kept, err)
			}
			if code, _, stderr := runCmd(t, vars, "user", "reset-password", "--email", "nobody@example.com"); code != exitError || !strings.Contains(stderr, "no user") {
				t.Errorf("unknown email: exit %d, %q", code, stderr)
			}
		})
	}
}

func TestTokenCreateCommand(t *testing.T) {
	const secret = "a-jwt-secret-of-at-least-32-characters"
	for _, dialect := range dbtest.Dialects {
		t.Run(dialect, func(t *testing.T) {
			db, dbURL := dbtest.OpenURL(t, dialect)
			ctx := context.Background()
			vars := baseEnv(dbURL, "JWT_SECRET", secret)
			if code, out, stderr := runCmd(t, vars, "user", "create", "--email", "ops@example.com", "--password", "long enough pass", "--role", "admin"); code != 0 {
				t.Fatalf("user create: exit %d, %q %q", code, out, stderr)
			}
			u, err := models.NewStore(db).Users.UserByEmail(ctx, "ops@example.com")
			if err != nil {
				t.Fatal(err)
			}

			before := time.Now()
			code, out, stderr := runCmd(t, vars, "token", "create", "--email", "OPS@example.com", "--permissions", "admin:read,admin:write", "--ttl", "2h", "--name", "deploy bot")
			if code != 0 || strings.Count(out, "\n") != 1 {
				t.Fatalf("exit %d, stdout %q (want the token alone on one line), stderr %q", code, out, stderr)
			}
			claims, err := auth.ParseToken([]byte(secret), strings.TrimSpace(out), time.Now())
			if err != nil {
				t.Fatalf("the printed token does not verify with JWT_SECRET: %v", err)
			}
			if claims.UserID != u.ID || !slices.Equal(claims.Permissions, []string{"admin:read", "admin:write"}) ||
				claims.ExpiresAt.Sub(claims.IssuedAt) != 2*time.Hour || claims.IssuedAt.Before(before.Truncate(time.Second)) {
				t.Errorf("claims %+v; want user %d, admin:read and admin:write, 2h from now", claims, u.ID)
			}
			if want := "token " + claims.ID + " for ops@example.com expires "; !strings.Contains(stderr, want) {
				t.Errorf("stderr %q lacks %q", stderr, want)
			}

			var recs []models.APIToken
			if err := db.NewSelect().Model(&recs).Scan(ctx); err != nil {
				t.Fatal(err)
			}
			if len(recs) != 1 {
				t.Fatalf("%d api_tokens rows, want 1: %+v", len(recs), recs)
			}
			rec := recs[0]
			if rec.JTI != claims.ID || rec.UserID != u.ID || rec.Permissions != "admin:read,admin:write" || rec.Name != "deploy bot" ||
				rec.CreatedBy != nil || rec.RevokedAt != nil || !rec.ExpiresAt.Truncate(time.Second).Equal(claims.ExpiresAt) {
				t.Errorf("api_tokens row %+v; want the token's jti %s, user %d, its permissions and expiry %v", rec, claims.ID, u.ID, claims.ExpiresAt)
			}

			// Without JWT_SECRET the command signs with the instance's
			// generated secret, the one serve verifies with.
			code, out, stderr = runCmd(t, baseEnv(dbURL), "token", "create", "--email", "ops@example.com", "--permissions", "admin:read")
			if code != 0 {
				t.Fatalf("without JWT_SECRET: exit %d, %q %q", code, out, stderr)
			}
			var stored string
			if err := db.NewSelect().Model((*models.Setting)(nil)).Column("value").Where("key = ?", "jwt_secret").Scan(ctx, &stored); err != nil {
				t.Fatalf("read the generated jwt_secret: %v", err)
			}
			if c, err := auth.ParseToken([]byte(stored), strings.TrimSpace(out), time.Now()); err != nil || !slices.Equal(c.Permissions, []string{"admin:read"}) {
				t.Errorf("token with the generated secret: %+v, %v", c, err)
			}

			code, _, stderr = runCmd(t, vars, "token", "create", "--email", "nobody@example.com", "--permissions", "admin:read")
			if code != exitError || !strings.Contains(stderr, "no user with email nobody@example.com") {
				t.Errorf("unknown user: exit %d, %q", code, stderr)
			}
			if n, err := db.NewSelect().Model((*models.APIToken)(nil)).Count(ctx); err != nil || n != 2 {
				t.Errorf("%d api_tokens rows, %v; want 2 (none for the unknown user)", n, err)
			}
		})
	}
}

// TestTokenCreateIsTheAPIsMint: the command mints through the API's
// action: the same lifetime rule (at most 365 days, refused with the API's
// words) and an audit entry token.create by the operator, written with the
// token's record. Before, the command took any lifetime and left no entry.
func TestTokenCreateIsTheAPIsMint(t *testing.T) {
	for _, dialect := range dbtest.Dialects {
		t.Run(dialect, func(t *testing.T) {
			db, dbURL := dbtest.OpenURL(t, dialect)
			ctx := context.Background()
			vars := baseEnv(dbURL, "JWT_SECRET", "a-jwt-secret-of-at-least-32-characters")
			if code, out, stderr := runCmd(t, vars, "user", "create", "--email", "ops@example.com", "--password", "long enough pass", "--role", "admin"); code != 0 {
				t.Fatalf("user create: exit %d, %q %q", code, out, stderr)
			}
			code, out, stderr := runCmd(t, vars, "token", "create", "--email", "ops@example.com", "--permissions", "admin:read", "--ttl", "400d")
			if code != exitUsage || out != "" || !strings.Contains(stderr, "ttl must be a duration between 1m and 365d, e.g. 24h or 30d") {
				t.Errorf("a 400-day token: exit %d, stdout %q, stderr %q; want 2 and the API's rule", code, out, stderr)
			}
			code, out, stderr = runCmd(t, vars, "token", "create", "--email", "ops@example.com", "--permissions", "admin:read", "--ttl", "365d")
			if code != 0 {
				t.Fatalf("a 365-day token: exit %d, %q %q", code, out, stderr)
			}
			claims, err := auth.ParseToken([]byte("a-jwt-secret-of-at-least-32-characters"), strings.TrimSpace(out), time.Now())
			if err != nil {
				t.Fatal(err)
			}
			var entries []models.AuditEntry
			if err := db.NewSelect().Model(&entries).Where("action = ?", "token.create").Scan(ctx); err != nil {
				t.Fatal(err)
			}
			if len(entries) != 1 || entries[0].TargetType != "token" || entries[0].TargetID != claims.ID ||
				entries[0].AdminUsername != "operator" || entries[0].Details["expiresAt"] == nil {
				t.Errorf("audit entries %+v; want one token.create of token %s by the operator", entries, claims.ID)
			}
		})
	}
}

// TestTokenCreateAccountScopes: the command line gives the account scopes
// the console's form gives, to any user: a member's token that acts as the
// member.
func TestTokenCreateAccountScopes(t *testing.T) {
	for _, dialect := range dbtest.Dialects {
		t.Run(dialect, func(t *testing.T) {
			_, dbURL := dbtest.OpenURL(t, dialect)
			const secret = "a-jwt-secret-of-at-least-32-characters"
			vars := baseEnv(dbURL, "JWT_SECRET", secret)
			if code, out, stderr := runCmd(t, vars, "user", "create", "--email", "member@example.com", "--password", "long enough pass", "--role", "user"); code != 0 {
				t.Fatalf("user create: exit %d, %q %q", code, out, stderr)
			}
			code, out, stderr := runCmd(t, vars, "token", "create", "--email", "member@example.com", "--permissions", "account:write,account:read")
			if code != 0 {
				t.Fatalf("exit %d, %q %q", code, out, stderr)
			}
			claims, err := auth.ParseToken([]byte(secret), strings.TrimSpace(out), time.Now())
			if err != nil || !slices.Equal(claims.Permissions, []string{"account:read", "account:write"}) {
				t.Errorf("claims %+v, %v; want account:read and account:write", claims, err)
			}
		})
	}
}

func TestTokenCreateUsageErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no subcommand", []string{"token"}, "Usage: plaza token create"},
		{"other subcommand", []string{"token", "revoke"}, "Usage: plaza token create"},
		{"no email", []string{"token", "create", "--permissions", "admin:read"}, "--email is required"},
		{"no permissions", []string{"token", "create", "--email", "a@b.c"}, "--permissions must list"},
		{"unknown permission", []string{"token", "create", "--email", "a@b.c", "--permissions", "admin:read,admin:everything"}, "--permissions must list"},
		{"bad ttl", []string{"token", "create", "--email", "a@b.c", "--permissions", "admin:read", "--ttl", "soon"}, "--ttl must be"},
		{"ttl under a minute", []string{"token", "create", "--email", "a@b.c", "--permissions", "admin:read", "--ttl", "30s"}, "--ttl must be"},
		{"unknown flag", []string{"token", "create", "--email", "a@b.c", "--permissions", "admin:read", "--forever"}, "flag provided but not defined: -forever"},
		{"extra argument", []string{"token", "create", "--email", "a@b.c", "--permissions", "admin:read", "now"}, `unexpected argument "now"`},
	}
	// A command that got past its checks would create this database (and
	// not data/plaza.db in the source tree).
	unused := filepath.Join(t.TempDir(), "unused.db")
	vars := baseEnv("sqlite://" + unused)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, stderr := runCmd(t, vars, tt.args...)
			if code != exitUsage || out != "" || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2, nothing on stdout and %q", code, out, stderr, tt.want)
			}
			if _, err := os.Stat(unused); !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("the usage error opened the database (%v)", err)
			}
		})
	}
}

func TestVersionCommand(t *testing.T) {
	want, err := version.Resolve(versionFile)
	if err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runCmd(t, nil, "version")
	if code != exitOK || out != want+"\n" || stderr != "" {
		t.Errorf("exit %d, stdout %q, stderr %q; want 0 and %q", code, out, stderr, want+"\n")
	}
	if !regexp.MustCompile(`^\d+\.\d+\.\d+\n$`).MatchString(out) {
		t.Errorf("version %q is not major.minor.patch", out)
	}
	if code, _, stderr := runCmd(t, nil, "version", "--short"); code != exitUsage || stderr == "" {
		t.Errorf("version --short: exit %d, %q; want 2 and a usage message", code, stderr)
	}
}

func TestBackupCommand(t *testing.T) {
	for _, dialect := range dbtest.Dialects {
		t.Run(dialect, func(t *testing.T) {
			_, dbURL := dbtest.OpenURL(t, dialect)
			dir := t.TempDir()
			if code, out, stderr := runCmd(t, baseEnv(dbURL), "user", "create", "--email", "kept@example.com", "--password", "long enough pass"); code != 0 {
				t.Fatalf("user create: exit %d, %q %q", code, out, stderr)
			}
			code, out, stderr := runCmd(t, baseEnv(dbURL, "BACKUP_DIR", dir), "backup")
			path := strings.TrimSpace(out)
			if code != 0 || filepath.Dir(path) != dir {
				t.Fatalf("exit %d, printed %q, stderr %q", code, out, stderr)
			}
			if code, out, stderr := runCmd(t, baseEnv(dbURL), "user", "create", "--email", "later@example.com", "--password", "long enough pass"); code != 0 {
				t.Fatalf("user create after the backup: exit %d, %q %q", code, out, stderr)
			}
			// The backup counts only if it restores: read it back as a
			// database and find the users of the moment it was taken.
			restored := openBackup(t, dialect, path)
			var emails []string
			if err := restored.NewRaw(`SELECT email FROM users ORDER BY email`).Scan(context.Background(), &emails); err != nil {
				t.Fatalf("read users from the backup: %v", err)
			}
			if !slices.Equal(emails, []string{"kept@example.com"}) {
				t.Errorf("backup holds users %v, want only kept@example.com (created before it)", emails)
			}
		})
	}
}

// openBackup restores a backup file written by `plaza backup` into a
// database of its own and opens it: a SQLite backup is a database file,
// a PostgreSQL one a pg_dump archive for pg_restore.
func openBackup(t *testing.T, dialect, path string) *bun.DB {
	t.Helper()
	u := "sqlite://" + path
	if dialect == config.DialectPostgres {
		_, u = dbtest.OpenEmpty(t, dialect)
		out, err := exec.Command("pg_restore", "--no-owner", "--exit-on-error", "--dbname="+u, path).CombinedOutput()
		if err != nil {
			t.Fatalf("pg_restore %s: %v\n%s", path, err, out)
		}
	}
	parsed, err := config.ParseDatabaseURL(u)
	if err != nil {
		t.Fatal(err)
	}
	db, err := models.Open(context.Background(), parsed, models.OpenOptions{MaxConns: 1})
	if err != nil {
		t.Fatalf("open the backup: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestSeedCommand(t *testing.T) {
	for _, dialect := range dbtest.Dialects {
		t.Run(dialect, func(t *testing.T) {
			db, dbURL := dbtest.OpenURL(t, dialect)
			code, out, stderr := runCmd(t, baseEnv(dbURL), "seed", "--users", "120", "--posts", "300", "--events", "200")
			if code != 0 || !strings.Contains(out, "seeded 120 users, 300 posts") {
				t.Fatalf("exit %d: %q %q", code, out, stderr)
			}
			for table, want := range map[string]int64{"users": 120, "posts": 300, "analytics_events": 200} {
				n, err := db.NewSelect().Table(table).Count(context.Background())
				if err != nil || n != want {
					t.Errorf("%s: %d rows, %v; want %d", table, n, err, want)
				}
			}
			if !strings.Contains(stderr, "posts: 300/300") {
				t.Errorf("no progress lines on a non-terminal:\n%s", stderr)
			}
		})
	}
}

// TestShutdownFinishesRequestsInFlight holds a request open while the
// server is told to stop: the request completes and the server exits cleanly.
func TestShutdownFinishesRequestsInFlight(t *testing.T) {
	started := make(chan struct{})
	srv := web.Server("127.0.0.1:0", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		time.Sleep(300 * time.Millisecond)
		fmt.Fprint(w, "finished")
	}))
	ln, err := netListen()
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	got := make(chan string, 1)
	go func() {
		res, err := http.Get("http://" + ln.Addr().String())
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		got <- string(b)
	}()
	<-started
	if code := shutdown(srv, 5*time.Second, slog.New(slog.DiscardHandler)); code != 0 {
		t.Errorf("shutdown exit %d, want 0", code)
	}
	if body := <-got; body != "finished" {
		t.Errorf("request in flight got %q, want it to finish", body)
	}
}

func netListen() (net.Listener, error) { return net.Listen("tcp", "127.0.0.1:0") }

// TestRestoreCommand: back up, change the data, restore, find the old
// data, on both databases; a database a server leads is refused unless
// --force; a missing file or none is an error.
func TestRestoreCommand(t *testing.T) {
	for _, dialect := range dbtest.Dialects {
		t.Run(dialect, func(t *testing.T) {
			_, dbURL := dbtest.OpenURL(t, dialect)
			dir := t.TempDir()
			mustRun := func(env map[string]string, args ...string) string {
				t.Helper()
				code, out, stderr := runCmd(t, env, args...)
				if code != 0 {
					t.Fatalf("%v: exit %d, %q %q", args, code, out, stderr)
				}
				return strings.TrimSpace(out)
			}
			mustRun(baseEnv(dbURL), "user", "create", "--email", "kept@example.com", "--password", "long enough pass")
			path := mustRun(baseEnv(dbURL, "BACKUP_DIR", dir), "backup")
			mustRun(baseEnv(dbURL), "user", "create", "--email", "later@example.com", "--password", "long enough pass")
			leader := openURL(t, dbURL)
			if _, err := leader.ExecContext(context.Background(), `INSERT INTO river_leader (elected_at, expires_at, leader_id) VALUES (?, ?, 'web-1')`,
				time.Now(), time.Now().Add(time.Hour)); err != nil {
				t.Fatal(err)
			}
			leader.Close()
			code, _, stderr := runCmd(t, baseEnv(dbURL), "restore", path)
			if code == 0 || !strings.Contains(stderr, "web-1") || !strings.Contains(stderr, "--force") {
				t.Fatalf("restore while a server leads: exit %d, %q", code, stderr)
			}
			mustRun(baseEnv(dbURL), "restore", path, "--force")
			var emails []string
			if err := openURL(t, dbURL).NewRaw(`SELECT email FROM users ORDER BY email`).Scan(context.Background(), &emails); err != nil {
				t.Fatalf("read users after the restore: %v", err)
			}
			if !slices.Equal(emails, []string{"kept@example.com"}) {
				t.Errorf("restored users %v, want only kept@example.com", emails)
			}
			// The restored log ends with the restore, by the operator.
			var last struct {
				Action, AdminUsername, TargetID string
			}
			err := openURL(t, dbURL).NewRaw(`SELECT action, admin_username, target_id FROM audit_log ORDER BY id DESC LIMIT 1`).Scan(context.Background(), &last.Action, &last.AdminUsername, &last.TargetID)
			if err != nil || last.Action != "backup.restore" || last.AdminUsername != "operator" || last.TargetID != filepath.Base(path) {
				t.Errorf("the restored log ends with %+v (%v), want backup.restore of %s by the operator", last, err, filepath.Base(path))
			}
			stats := `SELECT count(DISTINCT tbl) FROM sqlite_stat1 WHERE tbl = 'users'`
			if dialect == config.DialectPostgres {
				stats = `SELECT count(*) FROM pg_stat_user_tables WHERE relname = 'users' AND last_analyze IS NOT NULL`
			}
			var analyzed int
			if err := openURL(t, dbURL).NewRaw(stats).Scan(context.Background(), &analyzed); err != nil || analyzed != 1 {
				t.Errorf("the restore left users without planner statistics: %d, %v", analyzed, err)
			}
			for _, args := range [][]string{{"restore"}, {"restore", filepath.Join(dir, "missing.db")}} {
				if code, _, _ := runCmd(t, baseEnv(dbURL), args...); code == 0 {
					t.Errorf("%v succeeded", args)
				}
			}
		})
	}
}

// openURL opens the database a URL names, closed when the test ends.
func openURL(t *testing.T, u string) *bun.DB {
	t.Helper()
	parsed, err := config.ParseDatabaseURL(u)
	if err != nil {
		t.Fatal(err)
	}
	db, err := models.Open(context.Background(), parsed, models.OpenOptions{MaxConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestLogicalDumpRestore: on PostgreSQL without pg_dump on the PATH,
// plaza backup writes Plaza's own dump, and plaza restore brings back the
// rows, counters, audit chain and sequences of the moment it was taken.
func TestLogicalDumpRestore(t *testing.T) {
	_, dbURL := dbtest.OpenURL(t, config.DialectPostgres)
	mustRun := func(env map[string]string, args ...string) string {
		t.Helper()
		code, out, stderr := runCmd(t, env, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d, %q %q", args, code, out, stderr)
		}
		return strings.TrimSpace(out)
	}
	mustRun(baseEnv(dbURL), "seed", "--users", "40", "--posts", "60", "--events", "30", "--seed", "3")
	mustRun(baseEnv(dbURL), "user", "create", "--email", "kept@example.com", "--password", "long enough pass")
	db := openURL(t, dbURL)
	count := func(q string) int {
		t.Helper()
		var n int
		if err := db.NewRaw(q).Scan(context.Background(), &n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	// The newest account is deleted before the backup; its ended session
	// stays, naming its id, which no account restored or made later may have.
	mustRun(baseEnv(dbURL), "user", "create", "--email", "gone@example.com", "--password", "long enough pass")
	gone := count("SELECT id FROM users WHERE email = 'gone@example.com'")
	if _, err := db.ExecContext(context.Background(), `INSERT INTO sessions (token, data, expiry, user_id) VALUES ('gone', '\x00', now(), ?)`, gone); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(context.Background(), `DELETE FROM users WHERE id = ?`, gone); err != nil {
		t.Fatal(err)
	}
	// The newest post is deleted too, its moderation history kept: no post
	// made after the restore may have its id and inherit that history.
	lastPost := count("SELECT max(id) FROM posts")
	if _, err := db.ExecContext(context.Background(), `INSERT INTO moderation_actions (post_id, action, from_status, to_status, created_at)
		VALUES (?, 'delete', 'published', 'deleted', now())`, lastPost); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(context.Background(), `DELETE FROM posts WHERE id = ?`, lastPost); err != nil {
		t.Fatal(err)
	}
	users, posts := count("SELECT count(*) FROM users"), count("SELECT count(*) FROM posts")
	events := count("SELECT count(*) FROM analytics_events")
	if events != 30 || count("SELECT count(*) FROM analytics_events_default") != 0 {
		t.Fatalf("seeded %d events, %d outside their month's partition", events, count("SELECT count(*) FROM analytics_events_default"))
	}
	t.Setenv("PATH", t.TempDir()) // no pg_dump
	path := mustRun(baseEnv(dbURL, "BACKUP_DIR", t.TempDir()), "backup")
	if !strings.HasSuffix(path, ".plzdump") {
		t.Fatalf("backup without pg_dump wrote %s", path)
	}
	mustRun(baseEnv(dbURL), "user", "create", "--email", "later@example.com", "--password", "long enough pass")
	// The oldest events' month has no partition where the dump goes back:
	// its rows land in the default partition, then move to a new one.
	var oldest string
	if err := db.NewRaw("SELECT tableoid::regclass::text FROM analytics_events ORDER BY occurred_at LIMIT 1").Scan(context.Background(), &oldest); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(context.Background(), "DROP TABLE "+oldest); err != nil {
		t.Fatal(err)
	}
	mustRun(baseEnv(dbURL), "restore", path)
	if n := count("SELECT count(*) FROM users WHERE email = 'later@example.com'"); n != 0 {
		t.Error("a user made after the backup is still there")
	}
	if u, p := count("SELECT count(*) FROM users"), count("SELECT count(*) FROM posts"); u != users || p != posts {
		t.Errorf("restored %d users and %d posts, want %d and %d", u, p, users, posts)
	}
	if n := count("SELECT count(*) FROM analytics_events"); n != events {
		t.Errorf("restored %d events, want %d", n, events)
	}
	if n := count("SELECT count(*) FROM analytics_events_default"); n != 0 || count("SELECT count(*) FROM "+oldest) == 0 {
		t.Errorf("after the restore %d events are in the default partition, none in a new %s", n, oldest)
	}
	if n := count("SELECT coalesce(sum(n), 0) FROM hourly_counts WHERE metric = 'events'"); n != events {
		t.Errorf("the hourly counters hold %d events, want %d", n, events)
	}
	if n := count("SELECT row_count FROM row_counts WHERE table_name = 'users'"); n != users {
		t.Errorf("the users counter says %d of %d", n, users)
	}
	if code, out, stderr := runCmd(t, baseEnv(dbURL), "audit", "verify"); code != 0 || !strings.Contains(out, `"valid":true`) {
		t.Errorf("the audit chain after the restore: exit %d, %q %q", code, out, stderr)
	}
	mustRun(baseEnv(dbURL), "user", "create", "--email", "after@example.com", "--password", "long enough pass") // the sequences moved on
	if after := count("SELECT id FROM users WHERE email = 'after@example.com'"); after <= gone {
		t.Errorf("the first account after the restore has id %d, not above the deleted account's %d", after, gone)
	}
	if next := count("SELECT nextval(pg_get_serial_sequence('posts', 'id'))"); next <= lastPost {
		t.Errorf("the next post after the restore has id %d, not above the deleted post's %d", next, lastPost)
	}
}

// TestLogicalDumpRestoreFromBeforeTitles: a logical dump written before
// post_titles existed holds no such table; restoring it refills the copy
// from the posts it brings back, so a title search finds what they say.
func TestLogicalDumpRestoreFromBeforeTitles(t *testing.T) {
	_, dbURL := dbtest.OpenURL(t, config.DialectPostgres)
	if code, out, stderr := runCmd(t, baseEnv(dbURL), "seed", "--users", "20", "--posts", "80", "--events", "0", "--seed", "5"); code != 0 {
		t.Fatalf("seed: exit %d, %q %q", code, out, stderr)
	}
	t.Setenv("PATH", t.TempDir()) // no pg_dump
	code, out, stderr := runCmd(t, baseEnv(dbURL, "BACKUP_DIR", t.TempDir()), "backup")
	if code != 0 {
		t.Fatalf("backup: exit %d, %q %q", code, out, stderr)
	}
	path := strings.TrimSpace(out)
	dropDumpTable(t, path, "post_titles")
	db := openURL(t, dbURL)
	ctx := context.Background()
	// After the backup, posts change and the copy follows them.
	for _, q := range []string{
		"UPDATE posts SET title = 'Changed after the backup', status = 'hidden' WHERE id % 3 = 0",
		"DELETE FROM posts WHERE id % 5 = 1",
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	if code, out, stderr := runCmd(t, baseEnv(dbURL), "restore", path); code != 0 {
		t.Fatalf("restore: exit %d, %q %q", code, out, stderr)
	}
	var posts, differ int
	if err := db.NewRaw("SELECT count(*) FROM posts").Scan(ctx, &posts); err != nil {
		t.Fatal(err)
	}
	if err := db.NewRaw(`SELECT count(*) FROM posts AS p FULL JOIN post_titles AS t USING (id)
		WHERE (p.title, p.status, p.author_id, p.report_count, p.open_reports, p.created_at, p.updated_at) IS DISTINCT FROM
			(t.title, t.status, t.author_id, t.report_count, t.open_reports, t.created_at, t.updated_at)`).Scan(ctx, &differ); err != nil {
		t.Fatal(err)
	}
	if posts != 80 || differ != 0 {
		t.Errorf("restored %d posts of 80; %d differ from their copy in post_titles", posts, differ)
	}
	page, err := models.NewStore(db).Posts.ListPostsAdmin(ctx, models.PostListFilter{Search: "changed after the backup"})
	if err != nil || page.Total != 0 {
		t.Errorf("a search for a title the backup never held found %d posts (%v)", page.Total, err)
	}
}

// dropDumpTable rewrites the logical dump at path without table, as a dump
// written before the table existed.
func dropDumpTable(t *testing.T, path, table string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(zr)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(body), "\n")
	var head map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &head); err != nil {
		t.Fatal(err)
	}
	head["tables"] = slices.DeleteFunc(head["tables"].([]any), func(v any) bool { return v.(map[string]any)["table"] == table })
	first, _ := json.Marshal(head)
	var out bytes.Buffer
	out.Write(append(first, '\n'))
	skip := false
	for i := 1; i < len(lines); i++ {
		var tbl struct{ Table string }
		if strings.HasPrefix(lines[i], "{") && json.Unmarshal([]byte(lines[i]), &tbl) == nil && tbl.Table != "" {
			skip = tbl.Table == table
		}
		if !skip {
			out.WriteString(lines[i])
		}
	}
	w, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(w)
	if _, err := zw.Write(out.Bytes()); err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(zw.Close(), w.Close()); err != nil {
		t.Fatal(err)
	}
}

// TestServeRefusesWeakAdminPassword: ADMIN_PASSWORD follows sign-up's
// password rule; a weak one stops the first start before any admin exists.
func TestServeRefusesWeakAdminPassword(t *testing.T) {
	for _, weak := range []string{"short", "eleven char", "qwertyuiop123", "boss@example.com"} {
		_, dbURL := dbtest.OpenEmpty(t, config.DialectSQLite)
		vars := baseEnv(dbURL, "ADMIN_EMAIL", "boss@example.com", "ADMIN_PASSWORD", weak, "SEED_DEMO", "false")
		code, _, stderr := runCmd(t, vars, "serve")
		if code != exitError || !strings.Contains(stderr, "ADMIN_PASSWORD") {
			t.Errorf("ADMIN_PASSWORD=%q: exit %d, %q", weak, code, stderr)
		}
	}
}
