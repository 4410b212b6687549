package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"strconv"

	"github.com/plazahq/plaza/app"
	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/models"
)

const auditUsage = "Usage: plaza audit anchor\n" +
	"       plaza audit verify [--anchor FILE]\n"

func (e env) audit(ctx context.Context, args []string) int {
	switch {
	case len(args) > 0 && args[0] == "anchor":
		return e.auditAnchor(ctx, args[1:])
	case len(args) > 0 && args[0] == "verify":
		return e.auditVerify(ctx, args[1:])
	case len(args) > 0 && (isHelp(args[0]) || args[0] == "help"):
		fmt.Fprint(e.stdout, auditUsage)
		return exitOK
	}
	fmt.Fprint(e.stderr, auditUsage)
	return exitUsage
}

const anchorSynopsis = `

Prints the audit chain's anchor as JSON: {count, lastId, lastHash, at,
signature}, signed with the chain's key. Keep it where whoever can write
the database cannot reach; plaza audit verify --anchor FILE then shows
whether entries it covers were removed or rewritten since.`

func (e env) auditAnchor(ctx context.Context, args []string) int {
	if code, ok := e.parse("audit anchor", anchorSynopsis, args, func(*flag.FlagSet) {}); !ok {
		return code
	}
	rt, err := e.open(ctx, app.Options{})
	if err != nil {
		return e.fail(err)
	}
	defer rt.Close()
	a, err := rt.Store.Audit.AuditAnchor(ctx)
	if err != nil {
		return e.fail(err)
	}
	return e.printJSON(a)
}

const verifySynopsis = `[--anchor FILE]

Re-walks the audit chain and prints {valid, checked, firstBrokenId,
truncated, unkeyed}; exits 1 when it does not hold. With --anchor, the
anchor in FILE (as plaza audit anchor printed it, or the audit.anchor
webhook message) must still be in the chain: its entry, hash and place.`

func (e env) auditVerify(ctx context.Context, args []string) int {
	var file string
	if code, ok := e.parse("audit verify", verifySynopsis, args, func(fs *flag.FlagSet) {
		fs.StringVar(&file, "anchor", "", "an anchor taken earlier")
	}); !ok {
		return code
	}
	var anchor *audit.Anchor
	if file != "" {
		a, err := audit.ReadAnchor(file)
		if err != nil {
			return e.fail(err)
		}
		anchor = &a
	}
	rt, err := e.open(ctx, app.Options{})
	if err != nil {
		return e.fail(err)
	}
	defer rt.Close()
	v, err := rt.Store.Audit.VerifyAuditAgainst(ctx, anchor)
	if errors.Is(err, models.ErrAnchorSignature) {
		return e.fail(fmt.Errorf("%s: %w", file, err))
	}
	if err != nil {
		return e.fail(err)
	}
	if code := e.printJSON(verification(v)); code != exitOK || v.Valid {
		return code
	}
	switch {
	case v.Truncated:
		return e.fail(errors.New("the audit chain no longer holds the anchor's entry: entries were removed or rewritten since it was taken"))
	default:
		return e.fail(fmt.Errorf("the audit chain is broken at entry %d", *v.FirstBrokenID))
	}
}

type verified struct {
	Valid         bool    `json:"valid"`
	Checked       int     `json:"checked"`
	FirstBrokenID *string `json:"firstBrokenId"`
	Truncated     bool    `json:"truncated"`
	Unkeyed       int     `json:"unkeyed"`
}

// verification is the outcome as the API's verify writes it (ids as
// strings), with what the command adds.
func verification(v models.AuditVerification) verified {
	out := verified{Valid: v.Valid, Checked: v.Checked, Truncated: v.Truncated, Unkeyed: v.Unkeyed}
	if v.FirstBrokenID != nil {
		id := strconv.FormatInt(*v.FirstBrokenID, 10)
		out.FirstBrokenID = &id
	}
	return out
}

func (e env) printJSON(v any) int {
	b, err := json.Marshal(v)
	if err != nil {
		return e.fail(err)
	}
	fmt.Fprintln(e.stdout, string(b))
	return exitOK
}
