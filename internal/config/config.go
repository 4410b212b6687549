// Package config reads Plaza's settings from the environment once, at start,
// and refuses to start on a value it cannot use.
package config

import (
	"errors"
	"fmt"
	"net"
	netmail "net/mail"
	"net/netip"
	"net/url"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/caarlos0/env/v11"

	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/internal/clientnet"
	"github.com/plazahq/plaza/internal/mail"
)

// Environments Plaza knows.
const (
	EnvDevelopment = "development"
	EnvProduction  = "production"
	EnvTest        = "test"
)

// Config is every setting Plaza reads from its environment. Fields that name
// env keys are documented in README.md, "Configuration".
type Config struct {
	Addr         string `env:"ADDR" envDefault:":8080"`
	DatabaseURL  string `env:"DATABASE_URL" envDefault:"sqlite://data/plaza.db"`
	PublicAppURL string `env:"PUBLIC_APP_URL"`
	Env          string `env:"PLAZA_ENV" envDefault:"development"`
	LogLevel     string `env:"LOG_LEVEL" envDefault:"info"`
	LogFormat    string `env:"LOG_FORMAT"`
	DebugSQL     bool   `env:"BUNDEBUG"`

	// DatabaseReplicaURL names a read replica of the PostgreSQL database
	// that lists, reports, analytics and exports read from.
	DatabaseReplicaURL string `env:"DATABASE_REPLICA_URL"`

	SessionSecret string `env:"SESSION_SECRET"`
	JWTSecret     string `env:"JWT_SECRET"`
	MetricsToken  string `env:"METRICS_TOKEN"`
	RedisURL      string `env:"REDIS_URL"`
	// RedisKeyPrefix starts every key Plaza writes in Redis, so that
	// several Plazas (or test runs) can share one Redis database.
	RedisKeyPrefix string `env:"REDIS_KEY_PREFIX" envDefault:"plaza"`

	AdminEmail    string `env:"ADMIN_EMAIL"`
	AdminPassword string `env:"ADMIN_PASSWORD"`
	// SeedDemo seeds a demo community (with well-known demo accounts) on an
	// empty database; its default is false in production and true
	// elsewhere (seedDemo).
	SeedDemo        bool    `env:"-"`
	SeedDemoSetting *string `env:"SEED_DEMO"`

	// RequireStaff2FA makes moderators and admins enrol in TOTP sign-in
	// before the console or a session call to an admin route works; its
	// default is true in production and false elsewhere (staff2FA).
	RequireStaff2FA bool    `env:"-"`
	Staff2FASetting *string `env:"REQUIRE_STAFF_2FA"`
	// RequireVerifiedEmail makes posting and reporting wait until the
	// acting account's address is verified.
	RequireVerifiedEmail bool `env:"REQUIRE_VERIFIED_EMAIL"`

	// PurgeConfirmAbove is how many accounts a purge bans at most
	// without a fresh confirmation of the admin's password or code
	// (docs/api.md, "Purges"); 0 asks it of every purge.
	PurgeConfirmAbove int `env:"PURGE_CONFIRM_ABOVE" envDefault:"20"`

	TrustedProxies          []netip.Prefix `env:"TRUSTED_PROXIES"`
	LinkPreviewAllowPrivate bool           `env:"LINK_PREVIEW_ALLOW_PRIVATE"`
	// LinkPreviewPorts are the only ports link previews fetch from (a URL
	// naming or implying another is refused 403).
	LinkPreviewPorts []int `env:"LINK_PREVIEW_PORTS" envDefault:"80,443"`
	// WebhookAllowPrivate lets webhook targets be private and loopback
	// addresses (an intranet's receivers). It is separate from
	// LinkPreviewAllowPrivate: previews fetch what anonymous callers ask
	// for, webhooks post where admins said.
	WebhookAllowPrivate bool `env:"WEBHOOK_ALLOW_PRIVATE"`

	// IPv6Prefix is the prefix length an IPv6 client is counted and
	// blocked by (clientnet.Of): one subscriber holds a whole /64.
	IPv6Prefix int `env:"RATE_LIMIT_IPV6_PREFIX" envDefault:"64"`

	Quotes    Quotes    `envPrefix:"QUOTE_"`
	Providers Providers `envPrefix:""`
	RateLimit RateLimit `envPrefix:"RATE_LIMIT_"`

	UploadsDir string `env:"UPLOADS_DIR" envDefault:"data/uploads"`
	BackupDir  string `env:"BACKUP_DIR" envDefault:"data/backups"`
	// BackupEvery is how often the job queue backs the database up (0:
	// never); BackupKeep how many of the newest backups are kept.
	BackupEvery time.Duration `env:"BACKUP_EVERY" envDefault:"24h"`
	BackupKeep  int           `env:"BACKUP_KEEP" envDefault:"7"`
	// AuditRetentionDays is how long audit entries stay in the log before
	// a daily job archives them into BACKUP_DIR; 0 keeps them forever.
	AuditRetentionDays int `env:"AUDIT_RETENTION_DAYS" envDefault:"0"`
	// AuditKey is the secret the audit chain's key is derived from; when
	// unset, JWT_SECRET set in the environment, else the secret in
	// AuditKeyFile (made on first use; by default beside a SQLite
	// database, else data/audit.key). Never kept in the database.
	AuditKey     string `env:"AUDIT_KEY"`
	AuditKeyFile string `env:"AUDIT_KEY_FILE"`
	// AuditAnchorEvery is how often the chain's anchor goes to the
	// webhooks subscribed to audit.anchor (0: never).
	AuditAnchorEvery time.Duration `env:"AUDIT_ANCHOR_EVERY" envDefault:"1h"`

	ShutdownTimeout time.Duration `env:"SHUTDOWN_TIMEOUT" envDefault:"30s"`

	// CommunityName is the community's name, which its mail carries.
	CommunityName string `env:"COMMUNITY_NAME" envDefault:"Plaza"`
	// SMTPURL names the mail server outgoing mail goes through
	// (docs/operations.md, "Outgoing mail"). Once loaded it holds the URL
	// with its password masked, fit to print; SMTP is the server it
	// names, password included. Without SMTP_URL, SMTP.Host is empty.
	SMTPURL string      `env:"SMTP_URL"`
	SMTP    mail.Server `env:"-"`
	// MailFrom is the From of outgoing mail; by default the community's
	// name at no-reply@ PUBLIC_APP_URL's host (defaultMailFrom).
	MailFrom string `env:"MAIL_FROM"`

	// PasswordQueue is how many requests may wait, in order, for one of
	// the argon2id slots (twice GOMAXPROCS, at most 6), and
	// PasswordQueueWait how long each may wait; beyond either a request
	// answers 503 with Retry-After.
	PasswordQueue     int           `env:"PASSWORD_QUEUE" envDefault:"256"`
	PasswordQueueWait time.Duration `env:"PASSWORD_QUEUE_WAIT" envDefault:"8s"`
	// StaffSession bounds the sessions of moderators and admins, shorter
	// than members' (docs/operations.md, "Sessions, callers and how fast
	// a change takes hold").
	StaffSession StaffSession `envPrefix:"STAFF_SESSION_"`
	// ModerationStreams caps the moderation queue's live streams on each
	// instance (docs/console.md, "The live queue").
	ModerationStreams ModerationStreams `envPrefix:"MODERATION_STREAMS_"`

	// Warnings lists settings of the server that were defaulted in a way an
	// operator should know about; plaza serve logs them once.
	Warnings []string `env:"-"`
}

// QuoteSourceOff, as a QUOTE_SOURCE_*_URL, turns that quote source off.
const QuoteSourceOff = "off"

// Quotes configures the og-image quote sources. An
// empty URL means the source is off.
type Quotes struct {
	ZenQuotesURL  string `env:"SOURCE_ZENQUOTES_URL" envDefault:"https://zenquotes.io/api/random"`
	QuotableURL   string `env:"SOURCE_QUOTABLE_URL" envDefault:"https://api.quotable.io/random"`
	DummyJSONURL  string `env:"SOURCE_DUMMYJSON_URL" envDefault:"https://dummyjson.com/quotes/random"`
	NinjasURL     string `env:"SOURCE_NINJAS_URL" envDefault:"https://api.api-ninjas.com/v1/quotes"`
	PremiumAPIKey string `env:"PREMIUM_API_KEY"`
}

// Providers holds the OAuth client credentials of the external sign-in
// providers; a provider is enabled when both its key and secret are set.
type Providers struct {
	GitHubKey     string `env:"GITHUB_KEY"`
	GitHubSecret  string `env:"GITHUB_SECRET"`
	GoogleKey     string `env:"GOOGLE_KEY"`
	GoogleSecret  string `env:"GOOGLE_SECRET"`
	GitLabKey     string `env:"GITLAB_KEY"`
	GitLabSecret  string `env:"GITLAB_SECRET"`
	DiscordKey    string `env:"DISCORD_KEY"`
	DiscordSecret string `env:"DISCORD_SECRET"`
}

// RateLimit holds the rate limits (docs/api.md, "Rate limits").
// Hourly limits count requests per hour; the others say their window.
type RateLimit struct {
	AdminGeneral  int `env:"ADMIN_GENERAL" envDefault:"5000"`
	AdminSuper    int `env:"ADMIN_SUPER" envDefault:"10000"`
	AdminSystem   int `env:"ADMIN_SYSTEM" envDefault:"100"`
	AdminUsers    int `env:"ADMIN_USERS" envDefault:"100"`
	APIAdmin      int `env:"API_ADMIN" envDefault:"500"`
	APIAuthed     int `env:"API_AUTHENTICATED" envDefault:"1000"`
	APIAnonymous  int `env:"API_ANONYMOUS" envDefault:"100"`
	EventsPerMin  int `env:"ANALYTICS_EVENTS_PER_MINUTE" envDefault:"100"`
	LinkPreview   int `env:"LINK_PREVIEW_PER_MINUTE" envDefault:"60"`
	OGImage       int `env:"OG_IMAGE_PER_MINUTE" envDefault:"120"`
	Avatar        int `env:"AVATAR_PER_MINUTE" envDefault:"600"`
	SignInByEmail int `env:"SIGNIN_PER_EMAIL" envDefault:"10"`
	SignInByIP    int `env:"SIGNIN_PER_IP" envDefault:"50"`
	// SignInByEmailTotal caps failures for one email from browsers without
	// its device cookie, whatever their addresses (SignInByEmail counts
	// per address, and per device cookie).
	SignInByEmailTotal int `env:"SIGNIN_PER_EMAIL_TOTAL" envDefault:"100"`
	// Register counts POST /api/users (registrations) per IP per hour.
	Register int `env:"REGISTER" envDefault:"10"`
}

// StaffSession is how long a staff member's session lasts: Lifetime after
// sign-in, Idle without a request, whichever ends it first.
type StaffSession struct {
	Lifetime time.Duration `env:"LIFETIME" envDefault:"12h"`
	Idle     time.Duration `env:"IDLE" envDefault:"30m"`
}

// ModerationStreams caps the open streams of the moderation queue's news
// on one instance: per user (their tabs and windows) and in all.
type ModerationStreams struct {
	PerUser int `env:"PER_USER" envDefault:"8"`
	Max     int `env:"MAX" envDefault:"1000"`
}

// Load builds the Config from getenv and validates it. The error names the
// first variable that is wrong and what it expected.
func Load(getenv func(string) string) (Config, error) {
	var c Config
	keys, err := env.GetFieldParams(&c)
	if err != nil {
		return c, err
	}
	environ := make(map[string]string, len(keys))
	for _, k := range keys {
		if v := getenv(k.Key); v != "" {
			environ[k.Key] = strings.TrimSpace(v)
		}
	}
	opts := env.Options{Environment: environ, FuncMap: map[reflect.Type]env.ParserFunc{
		reflect.TypeOf([]netip.Prefix{}): parsePrefixes,
	}}
	if err := env.ParseWithOptions(&c, opts); err != nil {
		return c, explain(err, environ)
	}
	if err := c.validate(); err != nil {
		return c, err
	}
	c.defaultPublicURL()
	c.defaultMailFrom()
	c.defaultAuditKeyFile()
	if err := c.seedDemo(); err != nil {
		return c, err
	}
	return c, c.staff2FA()
}

// seedDemo settles SeedDemo: as set, else false in production only.
func (c *Config) seedDemo() error {
	c.SeedDemo = !c.Production()
	if c.SeedDemoSetting == nil {
		return nil
	}
	v, err := strconv.ParseBool(*c.SeedDemoSetting)
	if err != nil {
		return &Error{"SEED_DEMO", *c.SeedDemoSetting, "expected true or false"}
	}
	c.SeedDemo = v
	return nil
}

// staff2FA settles RequireStaff2FA: as set, else true in production only.
func (c *Config) staff2FA() error {
	c.RequireStaff2FA = c.Production()
	if c.Staff2FASetting == nil {
		return nil
	}
	v, err := strconv.ParseBool(*c.Staff2FASetting)
	if err != nil {
		return &Error{"REQUIRE_STAFF_2FA", *c.Staff2FASetting, "expected true or false"}
	}
	c.RequireStaff2FA = v
	return nil
}

// Production reports whether PLAZA_ENV=production.
func (c Config) Production() bool { return c.Env == EnvProduction }

func (c *Config) validate() error {
	checks := []func() error{
		c.checkEnv, c.checkAddr, c.checkDatabaseURL, c.checkReplicaURL, c.checkPublicURL,
		c.checkProductionSecrets, c.checkLog, c.checkRedisURL, c.checkRedisKeyPrefix, c.checkQuoteURLs, c.checkPreviewPorts,
		c.checkAdmin, c.checkRateLimits, c.checkIPv6Prefix, c.checkPurge, c.checkProviders, c.checkBackups,
		c.checkStaffSession, c.checkModerationStreams, c.checkMail,
	}
	for _, check := range checks {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

// Error is a configuration mistake: which variable, and what it should hold.
type Error struct {
	Key      string
	Value    string
	Expected string
}

func (e *Error) Error() string {
	if e.Value == "" {
		return fmt.Sprintf("%s: %s", e.Key, e.Expected)
	}
	return fmt.Sprintf("%s=%q: %s", e.Key, e.Value, e.Expected)
}

func (c *Config) checkBackups() error {
	if c.BackupEvery < 0 || (c.BackupEvery > 0 && c.BackupEvery < time.Hour) {
		return &Error{"BACKUP_EVERY", c.BackupEvery.String(), "expected 0 (no scheduled backups) or a duration of at least 1h, e.g. 24h"}
	}
	if c.AuditAnchorEvery < 0 || (c.AuditAnchorEvery > 0 && c.AuditAnchorEvery < time.Minute) {
		return &Error{"AUDIT_ANCHOR_EVERY", c.AuditAnchorEvery.String(), "expected 0 (no scheduled anchors) or a duration of at least 1m, e.g. 1h"}
	}
	if c.AuditRetentionDays < 0 {
		return &Error{"AUDIT_RETENTION_DAYS", strconv.Itoa(c.AuditRetentionDays), "expected 0 (keep forever) or a number of days"}
	}
	if c.PasswordQueue < 0 {
		return &Error{"PASSWORD_QUEUE", strconv.Itoa(c.PasswordQueue), "expected a whole number, 0 or more"}
	}
	if c.PasswordQueueWait < 0 {
		return &Error{"PASSWORD_QUEUE_WAIT", c.PasswordQueueWait.String(), "expected a duration, 0 or more"}
	}
	if c.BackupKeep < 1 {
		return &Error{"BACKUP_KEEP", strconv.Itoa(c.BackupKeep), "expected a whole number of at least 1"}
	}
	return nil
}

// MemberSessionLifetime and MemberSessionIdle bound a member's session;
// a staff session may be no longer.
const (
	MemberSessionLifetime = 7 * 24 * time.Hour
	MemberSessionIdle     = 24 * time.Hour
)

// minStaffIdle is the shortest idle timeout: a session's idle deadline
// moves on at most once a minute, so a shorter one would end sessions
// in use.
const minStaffIdle = 5 * time.Minute

func (c *Config) checkStaffSession() error {
	s := c.StaffSession
	if s.Lifetime < time.Hour || s.Lifetime > MemberSessionLifetime {
		return &Error{"STAFF_SESSION_LIFETIME", s.Lifetime.String(), "expected a duration from 1h to 168h (a member's 7 days), e.g. 12h"}
	}
	if s.Idle < minStaffIdle || s.Idle > MemberSessionIdle || s.Idle > s.Lifetime {
		return &Error{"STAFF_SESSION_IDLE", s.Idle.String(), "expected a duration from 5m to 24h and at most STAFF_SESSION_LIFETIME, e.g. 30m"}
	}
	return nil
}

func (c *Config) checkModerationStreams() error {
	m := c.ModerationStreams
	if m.PerUser < 1 {
		return &Error{"MODERATION_STREAMS_PER_USER", strconv.Itoa(m.PerUser), "expected a positive integer"}
	}
	if m.Max < m.PerUser {
		return &Error{"MODERATION_STREAMS_MAX", strconv.Itoa(m.Max), "expected a whole number at least MODERATION_STREAMS_PER_USER"}
	}
	return nil
}

func (c *Config) checkEnv() error {
	switch c.Env {
	case EnvDevelopment, EnvProduction, EnvTest:
		return nil
	}
	return &Error{"PLAZA_ENV", c.Env, "expected development, production or test"}
}

func (c *Config) checkAddr() error {
	_, port, err := net.SplitHostPort(c.Addr)
	if err == nil {
		if n, perr := strconv.Atoi(port); perr == nil && n >= 0 && n <= 65535 {
			return nil
		}
	}
	return &Error{"ADDR", c.Addr, `expected [host]:port, e.g. ":8080" or "127.0.0.1:8080"`}
}

func (c *Config) checkDatabaseURL() error {
	if _, err := ParseDatabaseURL(c.DatabaseURL); err != nil {
		return &Error{"DATABASE_URL", c.DatabaseURL, err.Error()}
	}
	return nil
}

// checkReplicaURL refuses a replica that is not PostgreSQL, or beside a
// SQLite database: SQLite has no replicas to read from, and reads from a
// database other than the primary's copy would show other data.
func (c *Config) checkReplicaURL() error {
	if c.DatabaseReplicaURL == "" {
		return nil
	}
	replica, err := ParseDatabaseURL(c.DatabaseReplicaURL)
	if err != nil || replica.Dialect != DialectPostgres {
		return &Error{"DATABASE_REPLICA_URL", c.DatabaseReplicaURL, "expected postgres://user@host:port/dbname, a read replica of DATABASE_URL"}
	}
	if primary, _ := ParseDatabaseURL(c.DatabaseURL); primary.Dialect != DialectPostgres {
		return &Error{"DATABASE_REPLICA_URL", c.DatabaseReplicaURL, "a read replica needs DATABASE_URL on PostgreSQL too; unset DATABASE_REPLICA_URL with SQLite"}
	}
	return nil
}

func (c *Config) checkPublicURL() error {
	if c.PublicAppURL == "" {
		if c.Production() {
			return &Error{"PUBLIC_APP_URL", "", "required when PLAZA_ENV=production (the absolute URL users reach Plaza at)"}
		}
		return nil
	}
	u, err := url.Parse(c.PublicAppURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return &Error{"PUBLIC_APP_URL", c.PublicAppURL, "expected an absolute http(s) URL, e.g. https://plaza.example.com"}
	}
	c.PublicAppURL = strings.TrimRight(c.PublicAppURL, "/")
	return nil
}

// minSecretLen keeps operators from configuring guessable secrets.
const minSecretLen = 32

func (c *Config) checkProductionSecrets() error {
	if c.AuditKey != "" && len(c.AuditKey) < minSecretLen {
		return &Error{"AUDIT_KEY", "", fmt.Sprintf("expected at least %d characters, got %d", minSecretLen, len(c.AuditKey))}
	}
	for _, s := range []struct{ key, val string }{{"SESSION_SECRET", c.SessionSecret}, {"JWT_SECRET", c.JWTSecret}} {
		if s.val == "" && c.Production() {
			return &Error{s.key, "", "required when PLAZA_ENV=production (at least 32 random characters)"}
		}
		if s.val != "" && len(s.val) < minSecretLen {
			return &Error{s.key, "", fmt.Sprintf("expected at least %d characters, got %d", minSecretLen, len(s.val))}
		}
	}
	return nil
}

func (c *Config) checkLog() error {
	switch strings.ToLower(c.LogLevel) {
	case "debug", "info", "warn", "error":
	default:
		return &Error{"LOG_LEVEL", c.LogLevel, "expected debug, info, warn or error"}
	}
	switch c.LogFormat {
	case "", "text", "json":
		return nil
	}
	return &Error{"LOG_FORMAT", c.LogFormat, "expected text or json"}
}

func (c *Config) checkPreviewPorts() error {
	for _, p := range c.LinkPreviewPorts {
		if p < 1 || p > 65535 {
			return &Error{"LINK_PREVIEW_PORTS", strconv.Itoa(p), "expected ports from 1 to 65535, comma-separated"}
		}
	}
	return nil
}

func (c *Config) checkRedisURL() error {
	if c.RedisURL == "" {
		return nil
	}
	u, err := url.Parse(c.RedisURL)
	if err != nil || (u.Scheme != "redis" && u.Scheme != "rediss") || u.Host == "" {
		return &Error{"REDIS_URL", c.RedisURL, "expected redis://[user:password@]host:port[/db] or rediss://…"}
	}
	return nil
}

// checkRedisKeyPrefix keeps the prefix to characters Redis users read
// plainly in key names.
func (c *Config) checkRedisKeyPrefix() error {
	p := c.RedisKeyPrefix
	ok := len(p) >= 1 && len(p) <= 64
	for _, r := range p {
		ok = ok && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(":_.-", r))
	}
	if !ok {
		return &Error{"REDIS_KEY_PREFIX", p, "expected 1 to 64 letters, digits, ':', '_', '.' or '-'"}
	}
	return nil
}

// checkQuoteURLs accepts an absolute http(s) URL for each quote source, or
// "off", which turns that source off (an offline install, a test): the value
// becomes empty, which internal/quotes reads as "no such source".
func (c *Config) checkQuoteURLs() error {
	for _, q := range []struct {
		key string
		val *string
	}{
		{"QUOTE_SOURCE_ZENQUOTES_URL", &c.Quotes.ZenQuotesURL},
		{"QUOTE_SOURCE_QUOTABLE_URL", &c.Quotes.QuotableURL},
		{"QUOTE_SOURCE_DUMMYJSON_URL", &c.Quotes.DummyJSONURL},
		{"QUOTE_SOURCE_NINJAS_URL", &c.Quotes.NinjasURL},
	} {
		if strings.EqualFold(*q.val, QuoteSourceOff) {
			*q.val = ""
			continue
		}
		u, err := url.Parse(*q.val)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return &Error{q.key, *q.val, `expected an absolute http(s) URL or "off"`}
		}
	}
	return nil
}

func (c *Config) checkAdmin() error {
	if c.AdminEmail != "" && !strings.Contains(c.AdminEmail, "@") {
		return &Error{"ADMIN_EMAIL", c.AdminEmail, "expected an email address"}
	}
	if c.AdminPassword != "" {
		var re *auth.PasswordRuleError
		if err := auth.CheckNewPassword(c.AdminPassword, c.AdminEmail); errors.As(err, &re) {
			return &Error{"ADMIN_PASSWORD", "", re.Reason}
		}
	}
	return nil
}

func (c *Config) checkRateLimits() error {
	v := reflect.ValueOf(c.RateLimit)
	t := v.Type()
	for i := range t.NumField() {
		if v.Field(i).Int() < 1 {
			key := "RATE_LIMIT_" + t.Field(i).Tag.Get("env")
			return &Error{key, strconv.FormatInt(v.Field(i).Int(), 10), "expected a positive integer"}
		}
	}
	return nil
}

func (c *Config) checkIPv6Prefix() error {
	if c.IPv6Prefix < clientnet.MinIPv6Bits || c.IPv6Prefix > clientnet.MaxIPv6Bits {
		return &Error{"RATE_LIMIT_IPV6_PREFIX", strconv.Itoa(c.IPv6Prefix),
			fmt.Sprintf("expected a prefix length from %d to %d", clientnet.MinIPv6Bits, clientnet.MaxIPv6Bits)}
	}
	return nil
}

func (c *Config) checkPurge() error {
	if c.PurgeConfirmAbove < 0 {
		return &Error{"PURGE_CONFIRM_ABOVE", strconv.Itoa(c.PurgeConfirmAbove), "expected a number of accounts, 0 or more"}
	}
	return nil
}

func (c *Config) checkProviders() error {
	p := c.Providers
	for _, pair := range [][4]string{
		{"GITHUB_KEY", p.GitHubKey, "GITHUB_SECRET", p.GitHubSecret},
		{"GOOGLE_KEY", p.GoogleKey, "GOOGLE_SECRET", p.GoogleSecret},
		{"GITLAB_KEY", p.GitLabKey, "GITLAB_SECRET", p.GitLabSecret},
		{"DISCORD_KEY", p.DiscordKey, "DISCORD_SECRET", p.DiscordSecret},
	} {
		if (pair[1] == "") != (pair[3] == "") {
			missing := pair[0]
			if pair[3] == "" {
				missing = pair[2]
			}
			return &Error{missing, "", fmt.Sprintf("%s and %s must be set together", pair[0], pair[2])}
		}
	}
	return nil
}

// MaxCommunityName bounds COMMUNITY_NAME, which every mail's subject
// carries.
const MaxCommunityName = 100

// checkMail reads SMTP_URL, MAIL_FROM and COMMUNITY_NAME. An error never
// shows SMTP_URL's password.
func (c *Config) checkMail() error {
	if n := c.CommunityName; utf8.RuneCountInString(n) > MaxCommunityName || strings.ContainsFunc(n, unicode.IsControl) {
		return &Error{"COMMUNITY_NAME", n, fmt.Sprintf("expected a name of at most %d characters on one line", MaxCommunityName)}
	}
	if c.MailFrom != "" {
		if _, err := netmail.ParseAddress(c.MailFrom); err != nil {
			return &Error{"MAIL_FROM", c.MailFrom, `expected an address, e.g. no-reply@example.com or "Plaza <no-reply@example.com>"`}
		}
	}
	if c.SMTPURL == "" {
		return nil
	}
	server, err := mail.ParseURL(c.SMTPURL)
	if err != nil {
		return &Error{"SMTP_URL", mail.Redact(c.SMTPURL), err.Error()}
	}
	c.SMTP, c.SMTPURL = server, server.String()
	return nil
}

// defaultMailFrom makes the From of mail the community's name at
// no-reply@ the host people reach Plaza at, and warns when mail is sent
// from it: a provider may refuse an address the operator has not set up.
func (c *Config) defaultMailFrom() {
	if c.MailFrom != "" {
		return
	}
	from := netmail.Address{Name: c.CommunityName, Address: "no-reply@localhost"}
	if u, err := url.Parse(c.PublicAppURL); err == nil {
		if _, err := netmail.ParseAddress("no-reply@" + u.Hostname()); err == nil {
			from.Address = "no-reply@" + u.Hostname()
		}
	}
	c.MailFrom = from.String()
	if c.SMTP.Host != "" {
		c.Warnings = append(c.Warnings, "MAIL_FROM is not set; mail comes from "+c.MailFrom)
	}
}

func (c *Config) defaultPublicURL() {
	if c.PublicAppURL != "" {
		return
	}
	_, port, _ := net.SplitHostPort(c.Addr)
	c.PublicAppURL = "http://localhost:" + port
	c.Warnings = append(c.Warnings, "PUBLIC_APP_URL is not set; using "+c.PublicAppURL)
}

// defaultAuditKeyFile puts the audit key file beside the data: beside a
// SQLite database, else in data/.
func (c *Config) defaultAuditKeyFile() {
	if c.AuditKeyFile != "" {
		return
	}
	c.AuditKeyFile = filepath.Join("data", "audit.key")
	if db, err := ParseDatabaseURL(c.DatabaseURL); err == nil && db.Dialect == DialectSQLite {
		c.AuditKeyFile = filepath.Join(filepath.Dir(db.DSN), "audit.key")
	}
}

// parsePrefixes reads a comma-separated list of CIDR ranges and single
// addresses (a single address is its own /32 or /128).
func parsePrefixes(list string) (any, error) {
	var out []netip.Prefix
	for _, s := range strings.Split(list, ",") {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		if strings.Contains(s, "/") {
			p, err := netip.ParsePrefix(s)
			if err != nil {
				return nil, err
			}
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(s)
		if err != nil {
			return nil, err
		}
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// explain turns the env library's errors into ones that name the variable.
func explain(err error, environ map[string]string) error {
	var agg env.AggregateError
	if !errors.As(err, &agg) || len(agg.Errors) == 0 {
		return err
	}
	var pe env.ParseError
	if !errors.As(agg.Errors[0], &pe) {
		return agg.Errors[0]
	}
	key := keyOfField(reflect.TypeOf(Config{}), pe.Name, "")
	return &Error{Key: key, Value: environ[key], Expected: expectation(pe.Type)}
}

func keyOfField(t reflect.Type, name, prefix string) string {
	for i := range t.NumField() {
		f := t.Field(i)
		if sub, ok := f.Tag.Lookup("envPrefix"); ok {
			if k := keyOfField(f.Type, name, prefix+sub); k != "" {
				return k
			}
		}
		if f.Name == name && f.Tag.Get("env") != "" {
			return prefix + f.Tag.Get("env")
		}
	}
	return ""
}

func expectation(t reflect.Type) string {
	switch {
	case t.Kind() == reflect.Bool:
		return "expected true or false"
	case t.Kind() == reflect.Int:
		return "expected an integer"
	case t == reflect.TypeOf(time.Duration(0)):
		return `expected a duration such as "30s" or "5m"`
	case t == reflect.TypeOf([]netip.Prefix{}):
		return "expected a comma-separated list of IP addresses or CIDR ranges, e.g. 10.0.0.0/8,192.0.2.1"
	}
	return "invalid value"
}
