// Command plaza serves Plaza, a self-hostable back office for an online
// community, and carries its maintenance sub-commands.
package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/models"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr))
}

// Exit statuses.
const (
	exitOK    = 0
	exitError = 1
	exitUsage = 2
)

const usage = `Usage: plaza [command] [flags]

Commands:
  serve                      start the server (the default)
  migrate                    apply database migrations and exit
  user create                create a user: --email E --password P [--role R] [--name N] [--username U]
  token create               mint an admin API token: --email E --permissions admin:read,admin:write [--ttl 24h] [--name N]
  seed                       add bulk data: [--users N] [--posts M] [--events K] [--seed S]
  backup                     write a consistent copy of the database into BACKUP_DIR
  version                    print the version

Configuration comes from the environment; see README.md.
`

// env is what every command reads from its surroundings.
type env struct {
	getenv func(string) string
	stdout io.Writer
	stderr io.Writer
}

// run dispatches a sub-command and returns the process exit status.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	e := env{getenv: getenv, stdout: stdout, stderr: stderr}
	cmd, rest := "serve", args
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, rest = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		return e.serve(ctx, rest)
	case "migrate":
		return e.migrate(ctx, rest)
	case "user":
		return e.user(ctx, rest)
	case "token":
		return e.token(ctx, rest)
	case "seed":
		return e.seed(ctx, rest)
	case "backup":
		return e.backup(ctx, rest)
	case "version":
		return e.version(rest)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "plaza: unknown command %q\n\n%s", cmd, usage)
	return exitUsage
}

// setup loads the configuration, builds the logger and opens the database.
func (e env) setup(ctx context.Context) (config.Config, *slog.Logger, *bun.DB, error) {
	cfg, err := config.Load(e.getenv)
	if err != nil {
		return cfg, nil, nil, fmt.Errorf("configuration: %w", err)
	}
	log := newLogger(cfg, e.stderr)
	for _, w := range cfg.Warnings {
		log.Warn(w)
	}
	dbURL, _ := config.ParseDatabaseURL(cfg.DatabaseURL) // validated by Load
	db, err := models.Open(ctx, dbURL, models.OpenOptions{DebugSQL: cfg.DebugSQL})
	if err != nil {
		return cfg, log, nil, err
	}
	return cfg, log, db, nil
}

// fail reports a command's error and gives its exit status.
func (e env) fail(err error) int {
	fmt.Fprintf(e.stderr, "plaza: %v\n", err)
	return exitError
}

func newLogger(cfg config.Config, w io.Writer) *slog.Logger {
	var level slog.Level
	_ = level.UnmarshalText([]byte(cfg.LogLevel)) // validated by Load
	opts := &slog.HandlerOptions{Level: level}
	if cfg.LogFormat == "json" || (cfg.LogFormat == "" && cfg.Production()) {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}
