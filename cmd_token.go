package main

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
)

const tokenUsage = "Usage: plaza token create --email E --permissions admin:read,admin:write[,account:read,account:write] [--ttl 24h] [--name N]\n"

// token mints an admin JWT for a user and prints it on stdout
// (alone, so scripts can capture it); the token only ever grants what the user's
// roles grant at the moment it is used, and acts as the user only within
// the account scopes it names.
func (e env) token(ctx context.Context, args []string) int {
	if code, ok := e.subcommand("token", tokenUsage, args); !ok {
		return code
	}
	var email, perms, ttlText, name string
	code, ok := e.parse("token create", "--email E --permissions P [flags]\n\nMints an admin API token and prints it on stdout.", args[1:], func(fs *flag.FlagSet) {
		fs.StringVar(&email, "email", "", "the user the token acts as (required)")
		fs.StringVar(&perms, "permissions", "", "comma-separated permissions, e.g. admin:read,admin:write (required); "+
			"account:read and account:write let the token read and act as its user on the general API")
		fs.StringVar(&ttlText, "ttl", "24h", "lifetime: a Go duration (24h) or <n>m|h|d|w (30d)")
		fs.StringVar(&name, "name", "cli", "a label to recognise the token by")
	})
	if !ok {
		return code
	}
	list, ttl, msg := checkTokenFlags(email, perms, ttlText)
	if msg != "" {
		fmt.Fprintf(e.stderr, "plaza token create: %s\n", msg)
		return exitUsage
	}
	rt, u, err := e.openForUser(ctx, email)
	if err != nil {
		return e.fail(err)
	}
	defer rt.Close()
	acts := operatorActions(rt)
	var tok *actions.NewToken
	err = acts.Operate(ctx, "token.create", "plaza token create", func(ctx context.Context) (err error) {
		tok, err = acts.MintToken(ctx, actions.Operator(), actions.TokenInput{UserID: u.ID, Permissions: list, TTL: ttl, Name: name})
		return err
	})
	if err != nil {
		return e.fail(err)
	}
	fmt.Fprintln(e.stdout, tok.Token)
	fmt.Fprintf(e.stderr, "token %s for %s expires %s\n", tok.Record.JTI, u.Email, api.Timestamp(tok.Record.ExpiresAt))
	return exitOK
}

func checkTokenFlags(email, perms, ttlText string) ([]string, time.Duration, string) {
	if !strings.Contains(email, "@") {
		return nil, 0, "--email is required"
	}
	list, err := access.ParsePermissions(strings.Split(perms, ","))
	if perms == "" || err != nil {
		return nil, 0, "--permissions must list one or more of " + strings.Join(access.AllPermissions(), ", ")
	}
	ttl, err := actions.ParseTokenTTL(ttlText)
	if err != nil {
		return nil, 0, "--ttl " + actions.TokenTTLRule // the API's rule, in its words
	}
	return list, ttl, ""
}
