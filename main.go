// Command plaza serves Plaza, a self-hostable back office for an online
// community, and carries its maintenance sub-commands.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/app"
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
  user reset-2fa             turn off a user's two-factor sign-in (a lost device): --email E
  user reset-password        print a single-use link that sets a user's new password: --email E
  token create               mint an admin API token: --email E --permissions admin:read,admin:write [--ttl 24h] [--name N]
  seed                       add bulk data: [--users N] [--posts M] [--events K] [--seed S]
  backup                     write a consistent copy of the database into BACKUP_DIR
  restore FILE [--force]     replace the database with a backup (refused while a server serves it)
  audit anchor               print the audit chain's signed anchor (count, last id and hash) as JSON
  audit verify               re-walk the audit chain: [--anchor FILE] also checks an anchor taken earlier
  version                    print the version
  help                       print this help

"plaza COMMAND --help" describes a command's flags. Configuration comes from
the environment (DATABASE_URL, PUBLIC_APP_URL, …); see README.md.
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
	if len(args) > 0 {
		cmd, rest = args[0], args[1:]
		if isFlag(cmd) && !isHelp(cmd) {
			cmd, rest = "serve", args // plaza --flag is plaza serve --flag
		}
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
	case "restore":
		return e.restore(ctx, rest)
	case "audit":
		return e.audit(ctx, rest)
	case "version":
		return e.version(rest)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "plaza: unknown command %q\n\n%s", cmd, usage)
	return exitUsage
}

func isFlag(arg string) bool { return len(arg) > 0 && arg[0] == '-' }

func isHelp(arg string) bool { return arg == "-h" || arg == "-help" || arg == "--help" }

// open loads the configuration and opens Plaza's runtime for a command.
func (e env) open(ctx context.Context, opts app.Options) (*app.Runtime, error) {
	cfg, log, err := app.Load(e.getenv, e.stderr)
	if err != nil {
		return nil, err
	}
	return app.Open(ctx, cfg, log, opts)
}

// openForUser opens Plaza's runtime and finds the user a command acts on
// by email; the caller closes the runtime.
func (e env) openForUser(ctx context.Context, email string) (*app.Runtime, *models.User, error) {
	rt, err := e.open(ctx, app.Options{})
	if err != nil {
		return nil, nil, err
	}
	u, err := rt.Store.Users.UserByEmail(ctx, email)
	if err != nil {
		rt.Close()
		return nil, nil, fmt.Errorf("no user with email %s", email)
	}
	return rt, u, nil
}

// operatorActions are the actions as the commands take them: as the
// operator, with the instance's policy. No command registers accounts
// (plaza user create makes them as the operator), so no block list is
// needed.
func operatorActions(rt *app.Runtime) *actions.Actions {
	pol := policy.Policy{RequireStaff2FA: rt.Config.RequireStaff2FA, Now: time.Now}
	acts := actions.New(rt.Store, pol, []byte(rt.Config.JWTSecret), nil)
	acts.Mail, acts.SendMail = rt.Mail, rt.MailSender != nil
	return acts
}

// fail reports a command's error and gives its exit status.
func (e env) fail(err error) int {
	fmt.Fprintf(e.stderr, "plaza: %v\n", err)
	return exitError
}
