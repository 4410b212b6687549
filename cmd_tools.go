package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/app"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/internal/jobs"
	"github.com/plazahq/plaza/internal/version"
	"github.com/plazahq/plaza/models"
)

// parse reads a sub-command's flags. When the command should not go on it
// returns false with the exit status: 0 after --help (the command's usage
// on stdout), 2 after a bad flag or argument (the usage on stderr).
func (e env) parse(name, synopsis string, args []string, define func(fs *flag.FlagSet)) (int, bool) {
	fs := flag.NewFlagSet("plaza "+name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: plaza %s %s\n", name, synopsis)
		if hasFlags(fs) {
			fmt.Fprintln(fs.Output(), "\nFlags:")
			fs.PrintDefaults()
		}
	}
	define(fs)
	if wantsHelp(args) {
		fs.SetOutput(e.stdout)
		fs.Usage()
		return exitOK, false
	}
	if err := fs.Parse(args); err != nil {
		return exitUsage, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(e.stderr, "plaza %s: unexpected argument %q\n", name, fs.Arg(0))
		fs.Usage()
		return exitUsage, false
	}
	return exitOK, true
}

// wantsHelp reports whether the flags ask for help before any "--".
func wantsHelp(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if isHelp(a) {
			return true
		}
	}
	return false
}

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

// subcommand checks the word after a two-word command (user create, token
// create): help prints usage and exits 0, anything else exits 2.
func (e env) subcommand(name, usage string, args []string) (int, bool) {
	switch {
	case len(args) > 0 && (args[0] == "create" || name == "user" && (args[0] == "reset-2fa" || args[0] == "reset-password")):
		return exitOK, true
	case len(args) > 0 && (isHelp(args[0]) || args[0] == "help"):
		fmt.Fprint(e.stdout, usage)
		return exitOK, false
	}
	fmt.Fprint(e.stderr, usage)
	return exitUsage, false
}

func (e env) migrate(ctx context.Context, args []string) int {
	if code, ok := e.parse("migrate", "\n\nApplies the database migrations DATABASE_URL needs, then exits.", args, func(*flag.FlagSet) {}); !ok {
		return code
	}
	rt, err := e.open(ctx, app.Options{})
	if err != nil {
		return e.fail(err)
	}
	defer rt.Close()
	for _, name := range rt.Migrated.Applied {
		fmt.Fprintln(e.stdout, "applied", name)
	}
	fmt.Fprintf(e.stdout, "schema is up to date (%d applied now, %d job-queue steps)\n", len(rt.Migrated.Applied), rt.Migrated.RiverApplied)
	return exitOK
}

const userUsage = "Usage: plaza user create --email E --password P [--role user|moderator|admin|super_admin] [--name N] [--username U]\n" +
	"       plaza user reset-2fa --email E\n" +
	"       plaza user reset-password --email E\n"

func (e env) user(ctx context.Context, args []string) int {
	if code, ok := e.subcommand("user", userUsage, args); !ok {
		return code
	}
	if args[0] == "reset-2fa" {
		return e.resetTwoFactor(ctx, args[1:])
	}
	if args[0] == "reset-password" {
		return e.resetPassword(ctx, args[1:])
	}
	var email, password, role, name, username string
	code, ok := e.parse("user create", "--email E --password P [flags]\n\nAdds a user.", args[1:], func(fs *flag.FlagSet) {
		fs.StringVar(&email, "email", "", "email address (required)")
		fs.StringVar(&password, "password", "", fmt.Sprintf("password, %d to %d characters, not a common one (required)", auth.MinPasswordLen, auth.MaxPasswordLen))
		fs.StringVar(&role, "role", models.RoleUser, "user, moderator, admin or super_admin")
		fs.StringVar(&name, "name", "", "display name")
		fs.StringVar(&username, "username", "", "username (default: from the email)")
	})
	if !ok {
		return code
	}
	in := actions.NewAccount{Email: email, Password: password, Role: role, Name: name, Username: username}
	if err := in.Check(); err != nil {
		fmt.Fprintf(e.stderr, "plaza user create: %s\n", flagWords(err))
		return exitUsage
	}
	rt, err := e.open(ctx, app.Options{})
	if err != nil {
		return e.fail(err)
	}
	defer rt.Close()
	acts := operatorActions(rt)
	var u *models.User
	err = acts.Operate(ctx, string(policy.CreateAccount), "plaza user create", func(ctx context.Context) (err error) {
		u, err = acts.CreateAccount(ctx, actions.Operator(), in)
		return err
	})
	if err != nil {
		return e.fail(errors.New(flagWords(err)))
	}
	fmt.Fprintf(e.stdout, "created user %d (%s, %s) with role %s\n", u.ID, u.Username, u.Email, role)
	return exitOK
}

// resetTwoFactor turns off a user's two-factor sign-in, for a person who
// lost their device; the user signs in with the password alone and, as
// staff under REQUIRE_STAFF_2FA, enrols again. The reset is audited.
func (e env) resetTwoFactor(ctx context.Context, args []string) int {
	rt, u, code, ok := e.userCommand(ctx, "user reset-2fa", "Turns off a user's two-factor sign-in (a lost device); audited.", args)
	if !ok {
		return code
	}
	defer rt.Close()
	var removed bool
	acts := operatorActions(rt)
	err := acts.Operate(ctx, string(policy.ResetTwoFactor), "plaza user reset-2fa", func(ctx context.Context) (err error) {
		removed, err = acts.ResetTwoFactor(ctx, actions.Operator(), u, "plaza user reset-2fa")
		return err
	})
	if err != nil {
		return e.fail(err)
	}
	if !removed {
		fmt.Fprintf(e.stdout, "%s has no two-factor sign-in; nothing changed\n", u.Email)
		return exitOK
	}
	fmt.Fprintf(e.stdout, "two-factor sign-in of %s is off; they sign in with their password and enrol again\n", u.Email)
	return exitOK
}

// resetPassword prints a password reset link for a user who cannot use
// forgot-password (no mail reaches them, or none is sent): the reset staff
// open from the console, single use and valid 60 minutes, audited. No
// mail is sent, whatever SMTP_URL says: the operator hands the link over.
func (e env) resetPassword(ctx context.Context, args []string) int {
	rt, u, code, ok := e.userCommand(ctx, "user reset-password", "Prints a single-use link, valid 60 minutes, that sets a user's new password; audited.", args)
	if !ok {
		return code
	}
	defer rt.Close()
	acts := operatorActions(rt)
	acts.SendMail = false // the link is printed, never mailed
	var res *actions.StaffReset
	err := acts.Operate(ctx, string(policy.StartPasswordReset), "plaza user reset-password", func(ctx context.Context) (err error) {
		res, err = acts.StartPasswordReset(ctx, actions.Operator(), u.ID)
		return err
	})
	if err != nil {
		return e.fail(err)
	}
	fmt.Fprintf(e.stdout, "%s\nhand this link to %s: it sets a new password once, until %s\n", res.URL, u.Email,
		res.ExpiresAt.UTC().Format(time.RFC3339))
	return exitOK
}

// userCommand reads the --email flag of a command that acts on one user
// and opens the runtime on that user; when ok is false the command has
// ended, with code. The caller closes the runtime.
func (e env) userCommand(ctx context.Context, name, synopsis string, args []string) (*app.Runtime, *models.User, int, bool) {
	var email string
	code, ok := e.parse(name, "--email E\n\n"+synopsis, args, func(fs *flag.FlagSet) {
		fs.StringVar(&email, "email", "", "the user's email address (required)")
	})
	if !ok {
		return nil, nil, code, false
	}
	if !strings.Contains(email, "@") {
		fmt.Fprintf(e.stderr, "plaza %s: --email is required and must be an email address\n", name)
		return nil, nil, exitUsage, false
	}
	rt, u, err := e.openForUser(ctx, email)
	if err != nil {
		return nil, nil, e.fail(err), false
	}
	return rt, u, exitOK, true
}

// flagWords is an action's refusal of its input in the command's terms:
// each refused field as the flag that gave it.
func flagWords(err error) string {
	var several actions.Invalid
	var one *actions.InvalidError
	switch {
	case errors.As(err, &several):
	case errors.As(err, &one):
		several = actions.Invalid{one}
	default:
		return err.Error()
	}
	words := make([]string, len(several))
	for i, ie := range several {
		words[i] = "--" + ie.Field + ": " + ie.Reason
	}
	return strings.Join(words, "; ")
}

func (e env) backup(ctx context.Context, args []string) int {
	if code, ok := e.parse("backup", "\n\nWrites a consistent copy of the database into BACKUP_DIR and prints its path.", args, func(*flag.FlagSet) {}); !ok {
		return code
	}
	rt, err := e.open(ctx, app.Options{AsIs: true})
	if err != nil {
		return e.fail(err)
	}
	defer rt.Close()
	path, err := rt.Store.Maintenance.Backup(ctx, rt.Config.BackupDir, rt.Config.DatabaseURL)
	if err != nil {
		return e.fail(err)
	}
	fmt.Fprintln(e.stdout, path)
	return exitOK
}

const restoreSynopsis = `FILE [--force]

Replaces the database DATABASE_URL names with the backup FILE, as plaza backup
or the backup_database job wrote it: a SQLite file, a pg_dump file (restored
with pg_restore in one transaction), or Plaza's own .plzdump (written where
pg_dump is missing; loaded in one transaction). It refuses while a Plaza server
is serving that database, unless --force.`

func (e env) restore(ctx context.Context, args []string) int {
	file := ""
	if len(args) > 0 && !isFlag(args[0]) {
		file, args = args[0], args[1:]
	}
	var force bool
	if code, ok := e.parse("restore", restoreSynopsis, args, func(fs *flag.FlagSet) {
		fs.BoolVar(&force, "force", false, "restore even while a server is serving the database")
	}); !ok {
		return code
	}
	if file == "" {
		fmt.Fprintln(e.stderr, "plaza restore: name the backup FILE to restore")
		return exitUsage
	}
	if _, err := os.Stat(file); err != nil {
		return e.fail(fmt.Errorf("backup file: %w", err))
	}
	rt, err := e.open(ctx, app.Options{AsIs: true})
	if err != nil {
		return e.fail(err)
	}
	defer rt.Close()
	dialect := rt.Store.Dialect()
	replace := func(ctx context.Context) error {
		rt.Close() // nothing of Plaza's may hold the database while it is replaced
		db, err := config.ParseDatabaseURL(rt.Config.DatabaseURL)
		if err != nil {
			return err
		}
		switch {
		case strings.HasSuffix(file, models.LogicalDumpExt):
			return e.restoreLogical(ctx, file)
		case dialect == config.DialectPostgres:
			return models.RestorePostgres(ctx, file, db.DSN)
		}
		return models.RestoreSQLite(file, db.DSN)
	}
	err = operatorActions(rt).Restore(ctx, actions.Operator(), actions.RestoreInput{File: file, Force: force, Replace: replace})
	var serving *actions.ServingError
	if errors.As(err, &serving) {
		return e.fail(fmt.Errorf("%w, or pass --force", err))
	}
	if err != nil {
		return e.fail(err)
	}
	if err := e.analyzeRestored(ctx, actions.RestoreInput{File: file, Force: force}); err != nil {
		return e.fail(err)
	}
	fmt.Fprintf(e.stdout, "restored %s\n", file)
	return exitOK
}

// analyzeRestored records the restore in the restored audit log, and brings the planner statistics of the restored database
// up to date: a dump carries none; and tells every instance to reload its
// users index, since the restore skipped the change log. Before, on PostgreSQL, the events a
// logical dump put in the default partition (months this database had no
// partition for) move to partitions of their months.
func (e env) analyzeRestored(ctx context.Context, in actions.RestoreInput) error {
	rt, err := e.open(ctx, app.Options{})
	if err != nil {
		return err
	}
	defer rt.Close()
	acts := operatorActions(rt)
	err = acts.Operate(ctx, string(policy.Restore), "plaza restore", func(ctx context.Context) error {
		return acts.Restored(ctx, actions.Operator(), in)
	})
	if err != nil {
		return err
	}
	if err := models.ForgetUserIndexes(ctx, rt.DB); err != nil {
		return err
	}
	if _, err := rt.Store.Analytics.EnsureEventPartitions(ctx, time.Now(), jobs.Retention); err != nil {
		return err
	}
	return models.AnalyzeAll(ctx, rt.DB)
}

// restoreLogical loads Plaza's own logical dump into the database,
// migrated first to the schema the dump's rows fit.
func (e env) restoreLogical(ctx context.Context, file string) error {
	rt, err := e.open(ctx, app.Options{})
	if err != nil {
		return err
	}
	defer rt.Close()
	return models.RestoreLogical(ctx, rt.DB, file)
}

func (e env) version(args []string) int {
	if code, ok := e.parse("version", "\n\nPrints the version.", args, func(*flag.FlagSet) {}); !ok {
		return code
	}
	v, err := version.Resolve(versionFile)
	if err != nil {
		return e.fail(err)
	}
	fmt.Fprintln(e.stdout, v)
	return exitOK
}
