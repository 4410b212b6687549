package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/internal/version"
	"github.com/plazahq/plaza/models"
)

// flags parses a sub-command's flags; a bad flag prints usage and gives exit status 2.
func (e env) flags(name string, args []string, define func(fs *flag.FlagSet)) (ok bool) {
	fs := flag.NewFlagSet("plaza "+name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	define(fs)
	if err := fs.Parse(args); err != nil {
		return false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(e.stderr, "plaza %s: unexpected argument %q\n", name, fs.Arg(0))
		fs.Usage()
		return false
	}
	return true
}

func (e env) migrate(ctx context.Context, args []string) int {
	if !e.flags("migrate", args, func(*flag.FlagSet) {}) {
		return exitUsage
	}
	_, log, db, err := e.setup(ctx)
	if err != nil {
		return e.fail(err)
	}
	defer db.Close()
	res, err := models.Migrate(ctx, db, log)
	if err != nil {
		return e.fail(err)
	}
	for _, name := range res.Applied {
		fmt.Fprintln(e.stdout, "applied", name)
	}
	fmt.Fprintf(e.stdout, "schema is up to date (%d applied now, %d job-queue steps)\n", len(res.Applied), res.RiverApplied)
	return exitOK
}

var roleNames = []string{models.RoleUser, models.RoleModerator, models.RoleAdmin, models.RoleSuperAdmin}

func (e env) user(ctx context.Context, args []string) int {
	if len(args) == 0 || args[0] != "create" {
		fmt.Fprint(e.stderr, "Usage: plaza user create --email E --password P [--role user|moderator|admin|super_admin] [--name N] [--username U]\n")
		return exitUsage
	}
	var email, password, role, name, username string
	ok := e.flags("user create", args[1:], func(fs *flag.FlagSet) {
		fs.StringVar(&email, "email", "", "email address (required)")
		fs.StringVar(&password, "password", "", "password, at least 8 characters (required)")
		fs.StringVar(&role, "role", models.RoleUser, "user, moderator, admin or super_admin")
		fs.StringVar(&name, "name", "", "display name")
		fs.StringVar(&username, "username", "", "username (default: from the email)")
	})
	if !ok {
		return exitUsage
	}
	if msg := checkUserFlags(email, password, role); msg != "" {
		fmt.Fprintf(e.stderr, "plaza user create: %s\n", msg)
		return exitUsage
	}
	hash, err := auth.HashPassword(password)
	if err != nil {
		return e.fail(err)
	}
	_, log, db, err := e.setup(ctx)
	if err != nil {
		return e.fail(err)
	}
	defer db.Close()
	if _, err := models.Migrate(ctx, db, log); err != nil {
		return e.fail(err)
	}
	u, err := models.NewStore(db).CreateUser(ctx, models.NewUser{Email: email, Username: username, Name: name,
		PasswordHash: hash, Roles: auth.ImpliedRoles(role), IsVerified: true})
	if errors.Is(err, models.ErrConflict) {
		return e.fail(fmt.Errorf("a user with email %s (or that username) already exists", email))
	}
	if err != nil {
		return e.fail(err)
	}
	fmt.Fprintf(e.stdout, "created user %d (%s, %s) with role %s\n", u.ID, u.Username, u.Email, role)
	return exitOK
}

func checkUserFlags(email, password, role string) string {
	switch {
	case !strings.Contains(email, "@"):
		return "--email is required and must be an email address"
	case len(password) < auth.MinPasswordLen:
		return fmt.Sprintf("--password is required and must have at least %d characters", auth.MinPasswordLen)
	case !slices.Contains(roleNames, role):
		return "--role must be one of " + strings.Join(roleNames, ", ")
	}
	return ""
}

func (e env) backup(ctx context.Context, args []string) int {
	if !e.flags("backup", args, func(*flag.FlagSet) {}) {
		return exitUsage
	}
	cfg, _, db, err := e.setup(ctx)
	if err != nil {
		return e.fail(err)
	}
	defer db.Close()
	path, err := models.NewStore(db).Backup(ctx, cfg.BackupDir, cfg.DatabaseURL)
	if err != nil {
		return e.fail(err)
	}
	fmt.Fprintln(e.stdout, path)
	return exitOK
}

func (e env) version(args []string) int {
	if !e.flags("version", args, func(*flag.FlagSet) {}) {
		return exitUsage
	}
	v, err := version.Resolve(versionFile)
	if err != nil {
		return e.fail(err)
	}
	fmt.Fprintln(e.stdout, v)
	return exitOK
}
