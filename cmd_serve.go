package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/internal/jobs"
	"github.com/plazahq/plaza/internal/metrics"
	"github.com/plazahq/plaza/internal/ratelimit"
	"github.com/plazahq/plaza/internal/version"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/seed"
	"github.com/plazahq/plaza/web"
)

// serve runs Plaza until ctx ends (SIGINT/SIGTERM), then stops accepting
// connections and lets requests in flight finish.
func (e env) serve(ctx context.Context, args []string) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	started := time.Now().UTC()
	cfg, log, db, err := e.setup(ctx)
	if err != nil {
		return e.fail(err)
	}
	defer db.Close()
	if _, err := models.Migrate(ctx, db, log); err != nil {
		return e.fail(err)
	}
	store := models.NewStore(db)
	if err := ensureSecrets(ctx, store, &cfg); err != nil {
		return e.fail(err)
	}
	if err := firstStart(ctx, store, cfg, log); err != nil {
		return e.fail(err)
	}
	ver, verErr := version.Resolve(versionFile)
	if verErr != nil {
		log.Error("cannot tell the running version", "error", verErr)
	}
	limiter, err := newLimiter(ctx, cfg.RedisURL)
	if err != nil {
		return e.fail(err)
	}
	auditor := store.NewAuditBatcher(log)
	defer auditor.Close() // after the server has stopped: writes what requests queued
	mets := metrics.New(db.DB)
	collector := web.NewCollector(store, log, mets)
	defer collector.Close() // after the server has stopped, before the audit writer and the database: writes every accepted event
	runner, err := jobs.New(db.DB, store.Dialect(), jobs.Deps{Sweeper: store, Analytics: store, Metrics: mets, Log: log})
	if err != nil {
		return e.fail(err)
	}
	if err := runner.Start(context.WithoutCancel(ctx)); err != nil { // stopped by stopJobs, not by the signal
		return e.fail(fmt.Errorf("start job queue: %w", err))
	}
	defer stopJobs(runner, cfg.ShutdownTimeout, log)
	dbURL, _ := config.ParseDatabaseURL(cfg.DatabaseURL) // validated by Load
	quotePool := web.NewQuotePool(cfg.Quotes, log)
	quotePool.Start(ctx)
	defer quotePool.Close() // cancels a fetch in flight; requests no longer need the pool
	app := web.New(web.Deps{Config: cfg, Store: store, Logger: log, Static: staticFS(),
		Version: ver, VersionErr: verErr, Started: started, Limiter: limiter, Audit: auditor,
		Sessions: web.NewSessions(store, cfg.PublicAppURL), Metrics: mets, Events: collector, Quotes: quotePool,
		Principals: web.CachePrincipals(ctx, store, dbURL, log)})
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return e.fail(fmt.Errorf("listen on %s: %w", cfg.Addr, err))
	}
	srv := web.Server(cfg.Addr, app)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	log.Info("Plaza is ready", "addr", ln.Addr().String(), "console", cfg.PublicAppURL+"/admin",
		"database", store.Dialect(), "version", ver, "startup_ms", time.Since(started).Milliseconds())
	select {
	case err := <-errc:
		return e.fail(err)
	case <-ctx.Done():
	}
	return shutdown(srv, cfg.ShutdownTimeout, log)
}

// stopJobs lets running jobs finish their current step, for up to timeout.
func stopJobs(r *jobs.Runner, timeout time.Duration, log *slog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if err := r.Stop(ctx); err != nil {
		log.Error("stop job queue", "error", err)
	}
}

// newLimiter keeps rate-limit counters in Redis when REDIS_URL is set, so
// that every instance shares them, else in memory.
func newLimiter(ctx context.Context, redisURL string) (*ratelimit.Limiter, error) {
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
	return ratelimit.NewRedis(client, "plaza:rl")
}

func shutdown(srv *http.Server, timeout time.Duration, log *slog.Logger) int {
	log.Info("shutting down: finishing requests in flight", "timeout", timeout.String())
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Error("shutdown", "error", err)
		return exitError
	}
	log.Info("stopped")
	return exitOK
}

// ensureSecrets fills missing secrets outside production with values
// generated once and kept in the database, so that every instance and every
// restart agree (DECISIONS.md section 1). Production refuses to start
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
		v, err := store.EnsureSetting(ctx, s.key, gen)
		if err != nil {
			return err
		}
		*s.dst = v
	}
	return nil
}

// defaultAdminEmail is the first admin's email when ADMIN_EMAIL is unset.
const defaultAdminEmail = "admin@localhost"

// firstStart creates the first super admin and the demo community on an
// empty database. The generated password is logged this once only.
func firstStart(ctx context.Context, store *models.Store, cfg config.Config, log *slog.Logger) error {
	n, err := store.CountUsers(ctx)
	if err != nil || n > 0 {
		return err
	}
	email, password := cfg.AdminEmail, cfg.AdminPassword
	if email == "" {
		email = defaultAdminEmail
	}
	generated := password == ""
	if generated {
		password = auth.RandomPassword()
	}
	hash, err := auth.HashPassword(password)
	if err != nil {
		return err
	}
	_, err = store.CreateUser(ctx, models.NewUser{Email: email, Username: "admin", Name: "Administrator",
		PasswordHash: hash, Roles: auth.ImpliedRoles(models.RoleSuperAdmin), IsVerified: true})
	if errors.Is(err, models.ErrConflict) {
		return nil // another instance bootstrapped at the same moment
	}
	if err != nil {
		return err
	}
	console := cfg.PublicAppURL + "/admin"
	if generated {
		log.Warn("created the first super admin; this password is shown only once", "console", console, "email", email, "password", password)
	} else {
		log.Info("created the first super admin with ADMIN_EMAIL/ADMIN_PASSWORD", "console", console, "email", email)
	}
	if !cfg.SeedDemo {
		return nil
	}
	res, err := seed.Demo(ctx, store)
	if err != nil {
		return fmt.Errorf("seed demo community: %w", err)
	}
	log.Info("seeded a demo community (SEED_DEMO=false skips this)", "users", res.Users, "posts", res.Posts, "reports", res.Reports)
	return nil
}
