package views

import (
	"strconv"
	"strings"

	"github.com/plazahq/plaza/api"
)

// methodClass colours an operation's method the same way everywhere, in
// pairs that keep 4.5:1 in both schemes.
func methodClass(method string) string {
	base := "inline-block w-16 shrink-0 rounded px-1.5 py-0.5 text-center font-mono text-xs font-bold "
	switch method {
	case "GET":
		return base + "bg-sky-100 text-sky-900 dark:bg-sky-900 dark:text-sky-100"
	case "POST":
		return base + "bg-emerald-100 text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100"
	case "PUT", "PATCH":
		return base + "bg-amber-100 text-amber-900 dark:bg-amber-900 dark:text-amber-100"
	case "DELETE":
		return base + "bg-red-100 text-red-900 dark:bg-red-900 dark:text-red-100"
	}
	return base + "bg-slate-200 text-slate-900 dark:bg-slate-700 dark:text-slate-100"
}

// opFilterText is what the reference's filter matches an operation by.
func opFilterText(op api.RefOp) string {
	return strings.ToLower(op.Method + " " + op.Path + " " + op.Summary + " " + op.ID)
}

// paramWhere says where a parameter goes and whether it must be there.
func paramWhere(p api.RefParam) string {
	s := p.In
	if p.Required {
		s += ", required"
	}
	return s
}

func opsCount(n int) string {
	if n == 1 {
		return "1 operation"
	}
	return strconv.Itoa(n) + " operations"
}
