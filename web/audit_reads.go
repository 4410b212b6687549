package web

import (
	"net/http"
	"slices"
)

// readActions are the audit actions that only plain reads write: those
// of the audited GET routes that are no door to a rule-bearing action
// (a backup's download and the audit export stay among the changes, as
// data leaving) and that no route of another method shares. The audit
// log's kind filter tells reads from changes by them.
func readActions(rs []Route) []string {
	reads, writes := map[string]bool{}, map[string]bool{}
	for _, r := range rs {
		if r.Audit.Action == "" {
			continue
		}
		if r.Method == http.MethodGet && r.Action == "" {
			reads[r.Audit.Action] = true
		} else {
			writes[r.Audit.Action] = true
		}
	}
	out := make([]string, 0, len(reads))
	for a := range reads {
		if !writes[a] {
			out = append(out, a)
		}
	}
	slices.Sort(out)
	return out
}
