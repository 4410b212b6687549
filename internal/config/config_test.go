package config

import (
	"fmt"
	"maps"
	"net/netip"
	"strconv"
	"strings"
	"testing"

	"github.com/plazahq/plaza/internal/mail"
)

func load(vars map[string]string) (Config, error) {
	return Load(func(k string) string { return vars[k] })
}

func TestLoadDefaults(t *testing.T) {
	c, err := load(nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != ":8080" || c.DatabaseURL != "sqlite://data/plaza.db" || c.Env != EnvDevelopment || !c.SeedDemo {
		t.Errorf("defaults: %+v", c)
	}
	if c.PublicAppURL != "http://localhost:8080" || len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], "PUBLIC_APP_URL") {
		t.Errorf("PUBLIC_APP_URL default %q with warnings %v", c.PublicAppURL, c.Warnings)
	}
	if c.RateLimit.AdminGeneral != 5000 || c.RateLimit.AdminUsers != 100 || c.RateLimit.OGImage != 120 {
		t.Errorf("rate limits %+v", c.RateLimit)
	}
}

func TestLoadValues(t *testing.T) {
	c, err := load(map[string]string{
		"ADDR":                   "127.0.0.1:9000",
		"PUBLIC_APP_URL":         "https://plaza.example.com/",
		"TRUSTED_PROXIES":        "10.0.0.0/8, 192.0.2.1",
		"SEED_DEMO":              "false",
		"RATE_LIMIT_ADMIN_USERS": "7",
		"GITHUB_KEY":             "k", "GITHUB_SECRET": "s",
	})
	if err != nil {
		t.Fatal(err)
	}
	if c.PublicAppURL != "https://plaza.example.com" || c.SeedDemo || c.RateLimit.AdminUsers != 7 || len(c.Warnings) != 0 {
		t.Errorf("got %+v", c)
	}
	want := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("192.0.2.1/32")}
	if len(c.TrustedProxies) != 2 || c.TrustedProxies[0] != want[0] || c.TrustedProxies[1] != want[1] {
		t.Errorf("TRUSTED_PROXIES = %v, want %v", c.TrustedProxies, want)
	}
}

func TestLoadQuoteSourceOff(t *testing.T) {
	c, err := load(map[string]string{"QUOTE_SOURCE_ZENQUOTES_URL": "off", "QUOTE_SOURCE_NINJAS_URL": "OFF",
		"QUOTE_SOURCE_QUOTABLE_URL": "http://127.0.0.1:9/random"})
	if err != nil {
		t.Fatal(err)
	}
	q := c.Quotes
	if q.ZenQuotesURL != "" || q.NinjasURL != "" || q.QuotableURL != "http://127.0.0.1:9/random" || q.DummyJSONURL != "https://dummyjson.com/quotes/random" {
		t.Errorf("got %+v, want zenquotes and ninjas off, quotable overridden, dummyjson default", q)
	}
}

// TestLoadRejects checks that each bad value stops start-up with a message
// naming the variable and what it expected.
func TestLoadRejects(t *testing.T) {
	secret := strings.Repeat("s", 32)
	tests := []struct {
		name string
		vars map[string]string
		want string
	}{
		{"addr without port", map[string]string{"ADDR": "8080"}, `ADDR="8080": expected [host]:port`},
		{"addr bad port", map[string]string{"ADDR": ":99999"}, `ADDR=":99999": expected [host]:port`},
		{"unknown database", map[string]string{"DATABASE_URL": "mysql://x"}, `DATABASE_URL="mysql://x": expected postgres://`},
		{"empty sqlite path", map[string]string{"DATABASE_URL": "sqlite://"}, `DATABASE_URL="sqlite://": expected a file path`},
		{"sqlite replica", map[string]string{"DATABASE_URL": "postgres://db/plaza", "DATABASE_REPLICA_URL": "sqlite://copy.db"}, `DATABASE_REPLICA_URL="sqlite://copy.db": expected postgres://`},
		{"replica beside sqlite", map[string]string{"DATABASE_REPLICA_URL": "postgres://replica/plaza"}, `DATABASE_REPLICA_URL="postgres://replica/plaza": a read replica needs DATABASE_URL on PostgreSQL`},
		{"relative public url", map[string]string{"PUBLIC_APP_URL": "plaza.example.com"}, `PUBLIC_APP_URL="plaza.example.com": expected an absolute http(s) URL`},
		{"ftp public url", map[string]string{"PUBLIC_APP_URL": "ftp://x.org"}, `PUBLIC_APP_URL="ftp://x.org": expected an absolute http(s) URL`},
		{"unknown env", map[string]string{"PLAZA_ENV": "prod"}, `PLAZA_ENV="prod": expected development, production or test`},
		{"bool", map[string]string{"SEED_DEMO": "maybe"}, `SEED_DEMO="maybe": expected true or false`},
		{"nested bool", map[string]string{"LINK_PREVIEW_ALLOW_PRIVATE": "yes please"}, `LINK_PREVIEW_ALLOW_PRIVATE="yes please": expected true or false`},
		{"rate limit not a number", map[string]string{"RATE_LIMIT_ADMIN_SUPER": "lots"}, `RATE_LIMIT_ADMIN_SUPER="lots": expected an integer`},
		{"rate limit zero", map[string]string{"RATE_LIMIT_API_ANONYMOUS": "0"}, `RATE_LIMIT_API_ANONYMOUS="0": expected a positive integer`},
		{"trusted proxy", map[string]string{"TRUSTED_PROXIES": "10.0.0.0/33"}, `TRUSTED_PROXIES="10.0.0.0/33": expected a comma-separated list`},
		{"duration", map[string]string{"SHUTDOWN_TIMEOUT": "soon"}, `SHUTDOWN_TIMEOUT="soon": expected a duration`},
		{"password queue", map[string]string{"PASSWORD_QUEUE": "-1"}, `PASSWORD_QUEUE="-1": expected a whole number, 0 or more`},
		{"password queue wait", map[string]string{"PASSWORD_QUEUE_WAIT": "-1s"}, `PASSWORD_QUEUE_WAIT="-1s": expected a duration, 0 or more`},
		{"redis url", map[string]string{"REDIS_URL": "localhost:6379"}, `REDIS_URL="localhost:6379": expected redis://`},
		{"redis key prefix", map[string]string{"REDIS_KEY_PREFIX": "plaza prod"}, `REDIS_KEY_PREFIX="plaza prod": expected 1 to 64 letters`},
		{"quote url", map[string]string{"QUOTE_SOURCE_ZENQUOTES_URL": "zenquotes"}, `QUOTE_SOURCE_ZENQUOTES_URL="zenquotes": expected an absolute http(s) URL`},
		{"short secret", map[string]string{"JWT_SECRET": "short"}, `JWT_SECRET: expected at least 32 characters`},
		{"short audit key", map[string]string{"AUDIT_KEY": "short"}, `AUDIT_KEY: expected at least 32 characters`},
		{"audit anchors too often", map[string]string{"AUDIT_ANCHOR_EVERY": "10s"}, `AUDIT_ANCHOR_EVERY="10s": expected 0 (no scheduled anchors) or a duration of at least 1m`},
		{"admin email", map[string]string{"ADMIN_EMAIL": "admin"}, `ADMIN_EMAIL="admin": expected an email address`},
		{"admin password", map[string]string{"ADMIN_PASSWORD": "1234"}, `ADMIN_PASSWORD: must have at least 12 characters`},
		{"admin password too long", map[string]string{"ADMIN_PASSWORD": strings.Repeat("x", 257)}, `ADMIN_PASSWORD: must have at most 256 characters`},
		{"common admin password", map[string]string{"ADMIN_PASSWORD": "qwertyuiop123"}, `ADMIN_PASSWORD: is among the most common passwords`},
		{"admin password is the email", map[string]string{"ADMIN_EMAIL": "boss@example.com", "ADMIN_PASSWORD": "boss@example.com"}, `ADMIN_PASSWORD: must not be the email address`},
		{"provider half set", map[string]string{"GOOGLE_KEY": "k"}, `GOOGLE_SECRET: GOOGLE_KEY and GOOGLE_SECRET must be set together`},
		{"log level", map[string]string{"LOG_LEVEL": "loud"}, `LOG_LEVEL="loud": expected debug, info, warn or error`},
		{"smtp scheme", map[string]string{"SMTP_URL": "mail.example.com:587"}, `SMTP_URL="mail.example.com:587": expected smtp://`},
		{"smtp tls option", map[string]string{"SMTP_URL": "smtp://mail.example.com?tls=off"}, `SMTP_URL="smtp://mail.example.com?tls=off": tls=off: expected tls=starttls (the default), optional or none`},
		{"smtp password hidden", map[string]string{"SMTP_URL": "smtp://plaza:hunter2@mail.example.com:0"}, `SMTP_URL="smtp://xxxxx@mail.example.com:0": expected a port from 1 to 65535`},
		{"mail from", map[string]string{"MAIL_FROM": "Plaza"}, `MAIL_FROM="Plaza": expected an address`},
		{"community name on two lines", map[string]string{"COMMUNITY_NAME": "Plaza\nSubject: x"}, `COMMUNITY_NAME="Plaza\nSubject: x": expected a name of at most 100 characters on one line`},
		{"community name too long", map[string]string{"COMMUNITY_NAME": strings.Repeat("P", 101)}, `COMMUNITY_NAME="PPPP`},
		{"production without public url", map[string]string{"PLAZA_ENV": "production", "SESSION_SECRET": secret, "JWT_SECRET": secret}, `PUBLIC_APP_URL: required when PLAZA_ENV=production`},
		{"production without session secret", map[string]string{"PLAZA_ENV": "production", "PUBLIC_APP_URL": "https://x.org", "JWT_SECRET": secret}, `SESSION_SECRET: required when PLAZA_ENV=production`},
		{"production without jwt secret", map[string]string{"PLAZA_ENV": "production", "PUBLIC_APP_URL": "https://x.org", "SESSION_SECRET": secret}, `JWT_SECRET: required when PLAZA_ENV=production`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := load(tt.vars)
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("got %v, want an error starting %q", err, tt.want)
			}
		})
	}
}

// TestLoadMail: without SMTP_URL nothing is sent and mail comes from
// the community at no-reply@ PUBLIC_APP_URL's host; with it, the server
// is parsed once and the URL kept with its password masked.
func TestLoadMail(t *testing.T) {
	c, err := load(nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.SMTP != (mail.Server{}) || c.SMTPURL != "" || c.CommunityName != "Plaza" || c.MailFrom != `"Plaza" <no-reply@localhost>` {
		t.Errorf("defaults: SMTP %+v, SMTP_URL %q, community %q, from %q", c.SMTP, c.SMTPURL, c.CommunityName, c.MailFrom)
	}

	c, err = load(map[string]string{
		"SMTP_URL":       "smtp://plaza:hunter2@mail.example.com?tls=optional",
		"PUBLIC_APP_URL": "https://plaza.example.com:8443/",
		"COMMUNITY_NAME": "Town Square",
	})
	if err != nil {
		t.Fatal(err)
	}
	want := mail.Server{Host: "mail.example.com", Port: 587, Username: "plaza", Password: "hunter2", Security: mail.StartTLSOptional}
	if c.SMTP != want || c.SMTPURL != "smtp://plaza:xxxxx@mail.example.com:587?tls=optional" {
		t.Errorf("SMTP %+v from %q, want %+v", c.SMTP, c.SMTPURL, want)
	}
	if c.MailFrom != `"Town Square" <no-reply@plaza.example.com>` {
		t.Errorf("MAIL_FROM default %q", c.MailFrom)
	}
	if len(c.Warnings) != 1 || !strings.Contains(c.Warnings[0], "MAIL_FROM is not set") {
		t.Errorf("warnings %q, want one about MAIL_FROM", c.Warnings)
	}
	if strings.Contains(fmt.Sprintf("%+v %v", c.SMTPURL, c.SMTP), "hunter2") {
		t.Error("the loaded settings print the SMTP password")
	}

	c, err = load(map[string]string{"SMTP_URL": "smtps://mail.example.com", "MAIL_FROM": "Plaza Staff <staff@example.com>", "PUBLIC_APP_URL": "https://x.org"})
	if err != nil || c.MailFrom != "Plaza Staff <staff@example.com>" || c.SMTP.Security != mail.ImplicitTLS || len(c.Warnings) != 0 {
		t.Errorf("MAIL_FROM %q, SMTP %+v, warnings %q, %v", c.MailFrom, c.SMTP, c.Warnings, err)
	}
}

func TestAuditKeyFileDefault(t *testing.T) {
	for url, want := range map[string]string{
		"":                                       "data/audit.key",
		"sqlite:///var/lib/plaza/p.db?_pragma=x": "/var/lib/plaza/audit.key",
		"postgres://db/plaza":                    "data/audit.key",
	} {
		vars := map[string]string{}
		if url != "" {
			vars["DATABASE_URL"] = url
		}
		if c, err := load(vars); err != nil || c.AuditKeyFile != want {
			t.Errorf("DATABASE_URL=%q: key file %q, %v; want %q", url, c.AuditKeyFile, err, want)
		}
	}
	if c, _ := load(map[string]string{"AUDIT_KEY_FILE": "/etc/plaza/audit.key"}); c.AuditKeyFile != "/etc/plaza/audit.key" {
		t.Errorf("AUDIT_KEY_FILE ignored: %q", c.AuditKeyFile)
	}
}

func TestLoadReplica(t *testing.T) {
	c, err := load(map[string]string{"DATABASE_URL": "postgres://primary/plaza", "DATABASE_REPLICA_URL": "postgres://replica/plaza"})
	if err != nil || c.DatabaseReplicaURL != "postgres://replica/plaza" {
		t.Errorf("a PostgreSQL replica beside a PostgreSQL primary: %+v, %v", c.DatabaseReplicaURL, err)
	}
}

func TestLoadProduction(t *testing.T) {
	secret := strings.Repeat("s", 32)
	c, err := load(map[string]string{"PLAZA_ENV": "production", "PUBLIC_APP_URL": "https://x.org", "SESSION_SECRET": secret, "JWT_SECRET": secret})
	if err != nil || !c.Production() {
		t.Errorf("production with everything set: %v", err)
	}
}

func TestParseDatabaseURL(t *testing.T) {
	tests := []struct{ in, dialect, dsn string }{
		{"sqlite://data/plaza.db", DialectSQLite, "data/plaza.db"},
		{"sqlite:///var/lib/plaza.db", DialectSQLite, "/var/lib/plaza.db"},
		{"file:plaza.db?mode=rwc", DialectSQLite, "plaza.db"},
		{"postgres://postgres@127.0.0.1:5432/test?sslmode=disable", DialectPostgres, "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"},
		{"postgresql://u:p@db/plaza", DialectPostgres, "postgresql://u:p@db/plaza"},
	}
	for _, tt := range tests {
		got, err := ParseDatabaseURL(tt.in)
		if err != nil || got.Dialect != tt.dialect || got.DSN != tt.dsn {
			t.Errorf("ParseDatabaseURL(%q) = %+v, %v; want %s %s", tt.in, got, err, tt.dialect, tt.dsn)
		}
	}
}

func TestRegisterRateLimit(t *testing.T) {
	c, err := load(nil)
	if err != nil || c.RateLimit.Register != 10 {
		t.Fatalf("default RATE_LIMIT_REGISTER: %d, %v; want 10", c.RateLimit.Register, err)
	}
	if c, err = load(map[string]string{"RATE_LIMIT_REGISTER": "3"}); err != nil || c.RateLimit.Register != 3 {
		t.Errorf("RATE_LIMIT_REGISTER=3: %d, %v", c.RateLimit.Register, err)
	}
	if _, err = load(map[string]string{"RATE_LIMIT_REGISTER": "0"}); err == nil || !strings.Contains(err.Error(), "RATE_LIMIT_REGISTER") {
		t.Errorf("RATE_LIMIT_REGISTER=0: %v, want an error naming it", err)
	}
}

// TestIPv6Prefix: IPv6 clients are counted per /64 unless
// RATE_LIMIT_IPV6_PREFIX says another length from 32 to 128.
func TestIPv6Prefix(t *testing.T) {
	c, err := load(nil)
	if err != nil || c.IPv6Prefix != 64 {
		t.Fatalf("default RATE_LIMIT_IPV6_PREFIX: %d, %v; want 64", c.IPv6Prefix, err)
	}
	for _, ok := range []string{"32", "56", "128"} {
		if c, err = load(map[string]string{"RATE_LIMIT_IPV6_PREFIX": ok}); err != nil || strconv.Itoa(c.IPv6Prefix) != ok {
			t.Errorf("RATE_LIMIT_IPV6_PREFIX=%s: %d, %v", ok, c.IPv6Prefix, err)
		}
	}
	for _, bad := range []string{"0", "31", "129", "-64"} {
		_, err := load(map[string]string{"RATE_LIMIT_IPV6_PREFIX": bad})
		if want := `RATE_LIMIT_IPV6_PREFIX="` + bad + `": expected a prefix length from 32 to 128`; err == nil || err.Error() != want {
			t.Errorf("RATE_LIMIT_IPV6_PREFIX=%s: %v, want %s", bad, err, want)
		}
	}
}

func TestRequireStaff2FA(t *testing.T) {
	secret := strings.Repeat("s", 32)
	prod := map[string]string{"PLAZA_ENV": "production", "PUBLIC_APP_URL": "https://x.org", "SESSION_SECRET": secret, "JWT_SECRET": secret}
	tests := []struct {
		name, env, setting string
		want               bool
	}{
		{"production by default", "production", "", true},
		{"development by default", "development", "", false},
		{"production turned off", "production", "false", false},
		{"development turned on", "development", "true", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := map[string]string{"PLAZA_ENV": tt.env}
			if tt.env == "production" {
				env = maps.Clone(prod)
			}
			if tt.setting != "" {
				env["REQUIRE_STAFF_2FA"] = tt.setting
			}
			c, err := load(env)
			if err != nil || c.RequireStaff2FA != tt.want {
				t.Errorf("got %v (%v), want %v", c.RequireStaff2FA, err, tt.want)
			}
		})
	}
	if _, err := load(map[string]string{"REQUIRE_STAFF_2FA": "maybe"}); err == nil || !strings.Contains(err.Error(), "REQUIRE_STAFF_2FA") {
		t.Errorf("REQUIRE_STAFF_2FA=maybe: %v", err)
	}
}

// TestSeedDemoDefault: a production instance seeds no demo community (with
// its well-known demo accounts) unless asked; elsewhere it does.
func TestSeedDemoDefault(t *testing.T) {
	secret := strings.Repeat("s", 32)
	prod := map[string]string{"PLAZA_ENV": "production", "PUBLIC_APP_URL": "https://x.org", "SESSION_SECRET": secret, "JWT_SECRET": secret}
	tests := []struct {
		name, env, setting string
		want               bool
	}{
		{"production by default", "production", "", false},
		{"development by default", "development", "", true},
		{"production asked", "production", "true", true},
		{"development turned off", "development", "false", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := map[string]string{"PLAZA_ENV": tt.env}
			if tt.env == "production" {
				env = maps.Clone(prod)
			}
			if tt.setting != "" {
				env["SEED_DEMO"] = tt.setting
			}
			c, err := load(env)
			if err != nil || c.SeedDemo != tt.want {
				t.Errorf("got %v (%v), want %v", c.SeedDemo, err, tt.want)
			}
		})
	}
}
