// Package app opens Plaza's runtime, the same way for every sub-command and
// every test: the configuration and logger (Load), then the database,
// migrations, store, secrets and job queue (Open), and for serving the
// dependencies of the web layer (Runtime.Web). Close undoes what was
// opened, in reverse order.
package app

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/internal/jobs"
	"github.com/plazahq/plaza/internal/logging"
	"github.com/plazahq/plaza/internal/mail"
	"github.com/plazahq/plaza/internal/metrics"
	"github.com/plazahq/plaza/internal/netguard"
	"github.com/plazahq/plaza/internal/ratelimit"
	"github.com/plazahq/plaza/internal/webhook"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/web"
)

// Load reads the configuration from the environment and builds the logger
// it asks for, writing to w.
func Load(getenv func(string) string, w io.Writer) (config.Config, *slog.Logger, error) {
	cfg, err := config.Load(getenv)
	if err != nil {
		return cfg, nil, fmt.Errorf("configuration: %w", err)
	}
	return cfg, NewLogger(cfg, w), nil
}

// Warn logs the configuration's warnings once. They are about the server
// (the address it tells people to open), so only serve logs them: a
// one-off command such as plaza user create has no use for them.
func Warn(cfg config.Config, log *slog.Logger) {
	for _, warning := range cfg.Warnings {
		log.Warn(warning)
	}
}

// NewLogger is the logger the configuration asks for: JSON in production
// or with LOG_FORMAT=json, text otherwise.
func NewLogger(cfg config.Config, w io.Writer) *slog.Logger {
	var level slog.Level
	_ = level.UnmarshalText([]byte(cfg.LogLevel)) // validated by config.Load
	opts := &slog.HandlerOptions{Level: level}
	if cfg.LogFormat == "json" || (cfg.LogFormat == "" && cfg.Production()) {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// Options tune Open.
type Options struct {
	// DB is an open database to use instead of opening DATABASE_URL (tests
	// hand over the database they made); Close leaves it open.
	DB *bun.DB
	// AsIs opens the database as it is: no migrations, no secrets written
	// (plaza backup copies a database without changing it).
	AsIs bool
	// RescueJobsAfter is how long a job may run before the queue takes it
	// for cut off and runs it again (default an hour); tests shorten it.
	RescueJobsAfter time.Duration
	// WebhookNet, when set, is the resolver and dialer webhook deliveries
	// use, still under the address policy: tests route a public-looking
	// name to their receiver on 127.0.0.1 with it.
	WebhookNet *WebhookNet
	// WebhookBackoff replaces the webhook retry schedule (tests shorten it).
	WebhookBackoff func(n int) time.Duration
	// MailBackoff replaces the mail retry schedule (tests shorten it).
	MailBackoff func(n int) time.Duration
}

// WebhookNet is the network webhook deliveries reach.
type WebhookNet struct {
	Resolver netguard.Resolver
	Dial     func(ctx context.Context, network, addr string) (net.Conn, error)
}

// maintainer works maintenance jobs with the runtime's folders and database.
type maintainer struct {
	store      *models.Store
	cfg        models.MaintenanceConfig
	retention  time.Duration
	archiveKey []byte
}

func (m maintainer) ArchiveAudit(ctx context.Context) error {
	_, _, err := m.store.Audit.ArchiveAudit(ctx, time.Now().Add(-m.retention), m.cfg.BackupDir, m.archiveKey)
	return err
}

// ArchiveKey is the key audit archives are signed with: an HMAC-SHA256 of
// a fixed label keyed with JWT_SECRET, so that every instance signs alike
// and the JWT secret itself signs nothing else.
func ArchiveKey(jwtSecret string) []byte {
	mac := hmac.New(sha256.New, []byte(jwtSecret))
	mac.Write([]byte("plaza audit archive"))
	return mac.Sum(nil)
}

func (m maintainer) RunMaintenance(ctx context.Context, id, keepKey string) error {
	return m.store.Maintenance.RunMaintenance(ctx, id, keepKey, m.cfg)
}

func (m maintainer) ScheduledBackup(ctx context.Context) error {
	return m.store.Maintenance.ScheduledBackup(ctx, m.cfg)
}

// Runtime is an open Plaza.
type Runtime struct {
	Config  config.Config // with the secrets filled in
	Log     *slog.Logger
	DB      *bun.DB
	Store   *models.Store
	Metrics *metrics.Metrics
	// Jobs is the job queue, not yet working; StartJobs starts it.
	Jobs *jobs.Runner
	// Webhooks sends webhook messages and checks their targets.
	Webhooks *webhook.Sender
	// Mail writes the community's messages, and MailSender delivers them
	// through SMTP_URL's server; nil without SMTP_URL, when messages are
	// kept (held) for the console instead.
	Mail       *mail.Composer
	MailSender *mail.Sender
	// Migrated lists the migrations this Open applied.
	Migrated models.MigrateResult

	closers []func()
}

// Open connects to the database, migrates it, builds the store, fills in
// missing secrets and builds the job queue. On failure, what was opened is
// closed again.
func Open(ctx context.Context, cfg config.Config, log *slog.Logger, opts Options) (*Runtime, error) {
	rt := &Runtime{Config: cfg, Log: log, DB: opts.DB}
	if err := rt.open(ctx, opts); err != nil {
		rt.Close()
		return nil, err
	}
	return rt, nil
}

func (rt *Runtime) open(ctx context.Context, opts Options) error {
	if rt.DB == nil {
		dbURL, err := config.ParseDatabaseURL(rt.Config.DatabaseURL)
		if err != nil {
			return err
		}
		db, err := models.Open(ctx, dbURL, models.OpenOptions{DebugSQL: rt.Config.DebugSQL})
		if err != nil {
			return err
		}
		rt.DB = db
		rt.onClose(func() { db.Close() })
	}
	rt.Store = models.NewStore(rt.DB)
	rt.Metrics = metrics.New(rt.DB.DB)
	if opts.AsIs {
		return nil
	}
	var err error
	if rt.Migrated, err = models.Migrate(ctx, rt.DB, rt.Log); err != nil {
		return err
	}
	// Before ensureSecrets: a JWT_SECRET it generates is kept in the
	// database and must not key the chain.
	if err := rt.keyAuditChain(ctx); err != nil {
		return err
	}
	if err := ensureSecrets(ctx, rt.Store, &rt.Config); err != nil {
		return err
	}
	// Webhook secrets are sealed as two-factor secrets are, under a key
	// derived from JWT_SECRET; those stored before sealing came are sealed
	// now.
	rt.Store.Secrets = auth.NewSecretBox(rt.Config.JWTSecret)
	if n, err := rt.Store.Hooks.SealWebhookSecrets(ctx); err != nil {
		return fmt.Errorf("seal webhook secrets: %w", err)
	} else if n > 0 {
		rt.Log.Info("sealed webhook secrets stored in the clear", "count", n)
	}
	// Related accounts are found by columns kept since 20261209120000;
	// the rows written before get them now.
	if n, err := rt.Store.Users.FillRelatedColumns(ctx); err != nil {
		return fmt.Errorf("fill related accounts' columns: %w", err)
	} else if n > 0 {
		rt.Log.Info("filled the canonical emails and address ranges of rows written before they were kept", "count", n)
	}
	rt.Webhooks = newWebhookSender(rt.Config, opts.WebhookNet)
	if rt.Mail, rt.MailSender, err = newMail(rt.Config); err != nil {
		return fmt.Errorf("mail: %w", err)
	}
	alerts := actions.AlertJob{Store: rt.Store, Mail: rt.Mail, SendMail: rt.MailSender != nil}
	rt.Store.JobFailed = alerts.JobFailed
	rt.Jobs, err = jobs.New(rt.DB.DB, rt.Store.Dialect(), jobs.Deps{Sweeper: rt.Store.Upkeep(), Analytics: rt.Store.Analytics, Broadcasts: actions.BroadcastJob{Store: rt.Store},
		Webhooks: webhookDeliverer{store: rt.Store, sender: rt.Webhooks}, WebhookBackoff: opts.WebhookBackoff,
		Mail: mailOutbox{rt.Store}, MailSender: mailSender(rt.MailSender), MailBackoff: opts.MailBackoff,
		Maintenance: maintainer{store: rt.Store, cfg: models.MaintenanceConfig{UploadsDir: rt.Config.UploadsDir,
			BackupDir: rt.Config.BackupDir, DatabaseURL: rt.Config.DatabaseURL, BackupKeep: rt.Config.BackupKeep},
			retention: time.Duration(rt.Config.AuditRetentionDays) * 24 * time.Hour, archiveKey: ArchiveKey(rt.Config.JWTSecret)},
		Digests: alerts, Metrics: rt.Metrics, Log: rt.Log, RescueAfter: opts.RescueJobsAfter, BackupEvery: rt.Config.BackupEvery,
		AuditRetention: rt.Config.AuditRetentionDays > 0, AuditAnchors: anchorer(rt.Store), AuditAnchorEvery: rt.Config.AuditAnchorEvery})
	if err != nil {
		return err
	}
	rt.Store.Queue = rt.Jobs
	rt.Metrics.WatchJobQueue(rt.Store.Maintenance.JobCounts) // River's tables exist once migrated
	return rt.openReplica(ctx)
}

// keyAuditChain keys the audit chain (AuditSecret) and records, on the
// first start with a key, where the chain becomes keyed.
func (rt *Runtime) keyAuditChain(ctx context.Context) error {
	secret, source, err := AuditSecret(rt.Config)
	if err != nil {
		return err
	}
	rt.Config.AuditKey = secret // a runtime opened again with this Config keys alike
	rt.Store.AuditKey = audit.ChainKey(secret)
	k, err := rt.Store.Audit.SealAuditChain(ctx)
	if err != nil {
		return fmt.Errorf("key the audit chain: %w", err)
	}
	switch {
	case k.OtherKey:
		rt.Log.Error("the audit chain was keyed with another key than this start's (from "+source+"): verify will report it broken; "+
			"set AUDIT_KEY to the secret the chain was keyed with", "keyedAfter", k.KeyedAfter)
	case k.Recorded && k.KeyedAfter > 0:
		rt.Log.Warn("the audit chain is keyed from now on (from "+source+"); the entries written before keep their unkeyed hash",
			"keyedAfter", k.KeyedAfter)
	}
	return nil
}

// AuditSecret is the secret the audit chain's key derives from, and where
// it came from: AUDIT_KEY; else JWT_SECRET, when the environment sets it
// (every instance of a database shares it already); else the key file
// AUDIT_KEY_FILE, made on first use. Never a secret kept in the database:
// whoever can write the database must not hold the key.
func AuditSecret(cfg config.Config) (secret, source string, err error) {
	switch {
	case cfg.AuditKey != "":
		return cfg.AuditKey, "AUDIT_KEY", nil
	case cfg.JWTSecret != "":
		return cfg.JWTSecret, "JWT_SECRET", nil
	}
	secret, err = audit.KeyFileSecret(cfg.AuditKeyFile)
	return secret, cfg.AuditKeyFile, err
}

// openReplica connects to DATABASE_REPLICA_URL, when set, for the reads
// that may lag (docs/operations.md, "Read replicas"). A replica that does
// not answer at start stops start-up, as the primary does.
func (rt *Runtime) openReplica(ctx context.Context) error {
	if rt.Config.DatabaseReplicaURL == "" {
		return nil
	}
	dbURL, err := config.ParseDatabaseURL(rt.Config.DatabaseReplicaURL)
	if err != nil {
		return fmt.Errorf("DATABASE_REPLICA_URL: %w", err)
	}
	db, err := models.Open(ctx, dbURL, models.OpenOptions{DebugSQL: rt.Config.DebugSQL})
	if err != nil {
		return fmt.Errorf("DATABASE_REPLICA_URL: %w", err)
	}
	rt.onClose(func() { db.Close() })
	rt.Store.Replica = db
	return nil
}

// StartJobs starts working the job queue until Close, which lets running
// jobs finish their current step for up to SHUTDOWN_TIMEOUT.
func (rt *Runtime) StartJobs(ctx context.Context) error {
	if err := rt.Jobs.Start(context.WithoutCancel(ctx)); err != nil { // stopped by Close, not by the signal
		return fmt.Errorf("start job queue: %w", err)
	}
	rt.onClose(func() {
		ctx, cancel := context.WithTimeout(context.Background(), rt.Config.ShutdownTimeout)
		defer cancel()
		if err := rt.Jobs.Stop(ctx); err != nil {
			rt.Log.Error("stop job queue", "error", err)
		}
	})
	rt.keepUserIndexes(ctx)
	return nil
}

// userIndexWarmth is how often each instance brings its users index up to
// date when no list has: often enough that a list never finds it stale.
const userIndexWarmth = time.Minute

// keepUserIndexes loads the users index in the background at start and
// keeps it current, so that no admin list waits for a load. Every instance
// keeps its own index, so this is not a queued job, which one instance
// would run for all.
func (rt *Runtime) keepUserIndexes(ctx context.Context) {
	ctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	rt.onClose(func() { stop(); <-done })
	go func() {
		defer close(done)
		tick := time.NewTicker(userIndexWarmth)
		defer tick.Stop()
		for {
			if err := rt.Store.Users.WarmUserIndexes(ctx); err != nil && ctx.Err() == nil {
				rt.Log.Warn("keep the users index current", "error", err)
			}
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	}()
}

// Close closes everything Open and Web opened, last opened first.
func (rt *Runtime) Close() {
	for i := len(rt.closers) - 1; i >= 0; i-- {
		rt.closers[i]()
	}
	rt.closers = nil
}

func (rt *Runtime) onClose(fn func()) { rt.closers = append(rt.closers, fn) }

// WebOptions are what the web layer needs beyond the runtime.
type WebOptions struct {
	Static     fs.FS // the static/ folder
	Version    string
	VersionErr error // why Version is empty
	Started    time.Time
	// FirstStart quiets the quote pool's reports to debug level, so that
	// the first start's banner is the last word on an offline machine.
	FirstStart bool
}

// Web builds and starts what serving needs: the rate limiter (in Redis
// with REDIS_URL), sessions, the audit writer, the analytics collector, the
// cache of checked callers with its change listener, and the og-image quote
// pool. Close stops them after the server has stopped, writing whatever
// audit entries and events were accepted.
func (rt *Runtime) Web(ctx context.Context, o WebOptions) (web.Deps, error) {
	limiter, err := newLimiter(ctx, rt.Config.RedisURL, rt.Config.RedisKeyPrefix)
	if err != nil {
		return web.Deps{}, err
	}
	limiter.SetLogger(rt.Log)
	rt.Metrics.WatchRateLimiter(func() bool { return limiter.Status() == ratelimit.StatusFallback })
	dbURL, err := config.ParseDatabaseURL(rt.Config.DatabaseURL)
	if err != nil {
		return web.Deps{}, err
	}
	d := web.Deps{Config: rt.Config, Store: rt.Store, Webhooks: rt.Webhooks, Mail: rt.Mail, Logger: rt.Log, Static: o.Static, Version: o.Version,
		VersionErr: o.VersionErr, Started: o.Started, Now: func() time.Time { return time.Now().UTC() },
		Limiter: limiter, Metrics: rt.Metrics, Sessions: web.NewSessions(rt.Store, rt.Config.PublicAppURL)}
	d.Audit = rt.Store.Audit.NewAuditBatcher(rt.Log)
	rt.onClose(d.Audit.Close)
	d.Events = web.NewCollector(rt.Store, rt.Log, rt.Metrics)
	rt.onClose(d.Events.Close) // before the audit writer and the database: every accepted event is written
	listening, stopListening := context.WithCancel(context.WithoutCancel(ctx))
	rt.onClose(stopListening)
	caches := web.NewCaches(listening, rt.Store, dbURL, rt.Log)
	d.Principals, d.Flags, d.Blocks = caches.Principals, caches.Flags, caches.Blocks
	d.Moderation = web.NewModerationFeed(listening, rt.Store, dbURL, rt.Log)
	rt.onClose(d.Moderation.Close) // ends the streams still open
	d.Streams = web.NewStreamSlots(rt.Config.ModerationStreams)
	poolLog := rt.Log
	if o.FirstStart {
		poolLog = logging.Demote(poolLog, slog.LevelError)
	}
	pool := web.NewQuotePool(rt.Config.Quotes, poolLog)
	pool.Start(ctx)
	rt.onClose(pool.Close) // cancels a fetch in flight
	d.OAuthProviders = auth.OAuthProviders(auth.ProviderKeys(rt.Config.Providers), rt.Config.PublicAppURL)
	d.Quotes = pool
	return d, nil
}

// newLimiter keeps rate-limit counters in Redis when REDIS_URL is set, so
// that every instance shares them, else in memory. Their keys start with
// REDIS_KEY_PREFIX and ":rl".
func newLimiter(ctx context.Context, redisURL, prefix string) (*ratelimit.Limiter, error) {
	if redisURL == "" {
		return ratelimit.NewMemory(), nil
	}
	opts, err := redis.ParseURL(redisURL)
	if err != nil {
		return nil, fmt.Errorf("REDIS_URL: %w", err)
	}
	client := redis.NewClient(opts)
	pingCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := client.Ping(pingCtx).Err(); err != nil {
		return nil, fmt.Errorf("connect to Redis at REDIS_URL: %w", err)
	}
	return ratelimit.NewRedis(client, prefix+":rl")
}

// ensureSecrets fills missing secrets outside production with values
// generated once and kept in the database, so that every instance and every
// restart agree. Production refuses to start
// without them (config.Load).
func ensureSecrets(ctx context.Context, store *models.Store, cfg *config.Config) error {
	gen := func() (string, error) { return auth.RandomSecret(), nil }
	for _, s := range []struct {
		key string
		dst *string
	}{{"session_secret", &cfg.SessionSecret}, {"jwt_secret", &cfg.JWTSecret}} {
		if *s.dst != "" {
			continue
		}
		v, err := store.Settings.EnsureSetting(ctx, s.key, gen)
		if err != nil {
			return err
		}
		*s.dst = v
	}
	return nil
}
