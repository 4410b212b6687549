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

	"github.com/plazahq/plaza/app"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/internal/gctune"
	"github.com/plazahq/plaza/internal/version"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/seed"
	"github.com/plazahq/plaza/web"
)

// serve runs Plaza until ctx ends (SIGINT/SIGTERM), then stops accepting
// connections and lets requests in flight finish.
func (e env) serve(ctx context.Context, args []string) int {
	if code, ok := e.parse("serve", "\n\nMigrates the database, then serves Plaza until SIGINT or SIGTERM.", args, func(*flag.FlagSet) {}); !ok {
		return code
	}
	started := time.Now().UTC()
	defer gctune.Start()()
	cfg, log, err := app.Load(e.getenv, e.stderr)
	if err != nil {
		return e.fail(err)
	}
	app.Warn(cfg, log)
	rt, err := app.Open(ctx, cfg, log, app.Options{})
	if err != nil {
		return e.fail(err)
	}
	defer rt.Close()
	auth.SharedPasswords().SetQueue(cfg.PasswordQueue, cfg.PasswordQueueWait)
	admin, err := firstStart(ctx, rt.Store, rt.Config)
	if err != nil {
		return e.fail(err)
	}
	ver, verErr := version.Resolve(versionFile)
	if verErr != nil {
		log.Error("cannot tell the running version", "error", verErr)
	}
	deps, err := rt.Web(ctx, app.WebOptions{Static: staticFS(), Version: ver, VersionErr: verErr,
		Started: started, FirstStart: admin != nil})
	if err != nil {
		return e.fail(err)
	}
	if err := rt.StartJobs(ctx); err != nil {
		return e.fail(err)
	}
	handler, err := web.New(deps)
	if err != nil {
		return e.fail(err)
	}
	ln, err := net.Listen("tcp", rt.Config.Addr)
	if err != nil {
		return e.fail(fmt.Errorf("listen on %s: %w", rt.Config.Addr, err))
	}
	srv := web.Server(rt.Config.Addr, handler)
	// Streams of server-sent events never finish by themselves: ending
	// them as shutdown begins lets it wait for the other requests only.
	srv.RegisterOnShutdown(deps.Moderation.Close)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	console := rt.Config.PublicAppURL + "/admin"
	log.Info("Plaza is ready", "addr", ln.Addr().String(), "console", console,
		"database", rt.Store.Dialect(), "version", ver, "startup_ms", time.Since(started).Milliseconds())
	if admin != nil {
		admin.print(e, console, rt.MailSender == nil)
	}
	select {
	case err := <-errc:
		return e.fail(err)
	case <-ctx.Done():
	}
	return shutdown(srv, rt.Config.ShutdownTimeout, log)
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

// defaultAdminEmail is the first admin's email when ADMIN_EMAIL is unset.
const defaultAdminEmail = "admin@localhost"

// firstAdmin is who a first start created, for the banner.
type firstAdmin struct {
	email, password string // password is empty when ADMIN_PASSWORD chose it
	demo            seed.Result
	seeded          bool
}

// firstStart creates the first super admin and the demo community on an
// empty database, and says whom it created (nil on any later start).
func firstStart(ctx context.Context, store *models.Store, cfg config.Config) (*firstAdmin, error) {
	n, err := store.Users.CountUsers(ctx)
	if err != nil || n > 0 {
		return nil, err
	}
	a := &firstAdmin{email: cfg.AdminEmail, password: cfg.AdminPassword}
	if a.email == "" {
		a.email = defaultAdminEmail
	}
	password := a.password
	if password == "" {
		password = auth.RandomPassword()
		a.password = password
	} else {
		a.password = ""
	}
	// Configuration checked ADMIN_PASSWORD against ADMIN_EMAIL; this
	// checks it against the address the admin really gets.
	if err := auth.CheckNewPassword(password, a.email); err != nil {
		return nil, fmt.Errorf("ADMIN_PASSWORD: %w", err)
	}
	hash, err := auth.HashPassword(password)
	if err != nil {
		return nil, err
	}
	_, err = store.Users.CreateUser(ctx, models.NewUser{Email: a.email, Username: "admin", Name: "Administrator",
		PasswordHash: hash, Roles: access.ImpliedRoles(models.RoleSuperAdmin), IsVerified: true})
	if errors.Is(err, models.ErrConflict) {
		return nil, nil // another instance bootstrapped at the same moment
	}
	if err != nil {
		return nil, err
	}
	if !cfg.SeedDemo {
		return a, nil
	}
	if a.demo, err = seed.Demo(ctx, store); err != nil {
		return nil, fmt.Errorf("seed demo community: %w", err)
	}
	a.seeded = true
	return a, nil
}

// print writes the first start's banner on stdout, after everything else;
// mailHeld says that no mail server is set.
func (a *firstAdmin) print(e env, console string, mailHeld bool) {
	fmt.Fprintf(e.stdout, "\nPlaza is ready: open %s\n", console)
	if a.password != "" {
		fmt.Fprintf(e.stdout, "Sign in as %s with password %s\n(shown this once only; set ADMIN_EMAIL and ADMIN_PASSWORD to choose them)\n", a.email, a.password)
	} else {
		fmt.Fprintf(e.stdout, "Sign in as %s with the ADMIN_PASSWORD you set\n", a.email)
	}
	if mailHeld {
		fmt.Fprintln(e.stdout, "Mail is kept in the console, not sent: SMTP_URL is not set (docs/operations.md, \"Outgoing mail\")")
	}
	if a.seeded {
		fmt.Fprintf(e.stdout, "A demo community is seeded: %d users, %d posts, %d reports (SEED_DEMO=false skips it)\n",
			a.demo.Users, a.demo.Posts, a.demo.Reports)
	}
	fmt.Fprintln(e.stdout)
}
