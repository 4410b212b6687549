package views

import (
	"encoding/json"
	"net/url"
	"slices"

	"github.com/plazahq/plaza/api"
)

// auditKinds are the audit page's kinds of entry, the default first.
var auditKinds = []struct{ Value, Label string }{{"changes", "Changes"}, {"reads", "Reads"}, {"all", "Changes and reads"}}

// auditKind is the kind the page shows (api.ConsoleAuditKind).
func auditKind(q Query) string {
	return api.ConsoleAuditKind(q.Get("kind"), q.Get("action"))
}

// exportURL is the audit export of the list's filters, every page of it.
func exportURL(q Query, format string) string {
	v := url.Values{"format": {format}, "kind": {auditKind(q)}}
	for _, k := range []string{"action", "adminId", "targetType", "targetId", "startDate", "endDate"} {
		if x := q.Get(k); x != "" {
			v.Set(k, x)
		}
	}
	return api.PathAdminAuditExport + "?" + v.Encode()
}

// diffRow is one field an audit entry changed.
type diffRow struct {
	Field, Before, After string
	Changed              bool
}

// diffRows reads an entry's before and after into rows, one per field
// either names, and gives the rest of its details as indented JSON.
func diffRows(details map[string]any) ([]diffRow, string) {
	before, _ := details["before"].(map[string]any)
	after, _ := details["after"].(map[string]any)
	var fields []string
	for k := range before {
		fields = append(fields, k)
	}
	for k := range after {
		if _, ok := before[k]; !ok {
			fields = append(fields, k)
		}
	}
	slices.Sort(fields)
	rows := make([]diffRow, len(fields))
	for i, f := range fields {
		b, a := jsonText(before[f]), jsonText(after[f])
		rows[i] = diffRow{Field: f, Before: b, After: a, Changed: a != b}
	}
	rest := map[string]any{}
	for k, v := range details {
		if (k != "before" || before == nil) && (k != "after" || after == nil) {
			rest[k] = v
		}
	}
	if len(rest) == 0 {
		return rows, ""
	}
	out, _ := json.MarshalIndent(rest, "", "  ")
	return rows, string(out)
}

// jsonText is a detail's value as the diff shows it.
func jsonText(v any) string {
	if v == nil {
		return "—"
	}
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}
