package views

import (
	"fmt"
	"strconv"
	"strings"
)

// jobNames is what each maintenance job is called in the jobs list.
var jobNames = map[string]string{
	"cache_clear":     "Cache clearing",
	"rebuild_search":  "Search rebuild",
	"cleanup_uploads": "Uploads clean-up",
	"backup_database": "Database backup",
}

// jobName is a job's action as people say it: "Database backup".
func jobName(action string) string {
	if n, ok := jobNames[action]; ok {
		return n
	}
	return stateLabel(action)
}

// jobScope is what a job covered, in words; nothing when it covered
// everything an action has.
func jobScope(scope string) string {
	if scope == "" || scope == "all" {
		return ""
	}
	return stateLabel(scope) + " only"
}

// jobResult is what a finished job did, in a sentence or two, rather than
// its result's JSON.
func jobResult(action string, r map[string]any) string {
	var parts []string
	switch action {
	case "cache_clear":
		parts = cacheClearResult(r)
	case "rebuild_search":
		parts = []string{"Rebuilt " + indexes(len(list(r["rebuilt"]))) + seconds(r)}
	case "cleanup_uploads":
		parts = []string{fmt.Sprintf("Removed %s of %s checked; freed %s",
			plural(number(r["removed"]), "file"), count(number(r["scanned"])), bytesText(int64(number(r["bytesFreed"]))))}
	case "backup_database":
		parts = backupResult(r)
	default:
		return resultText(r)
	}
	out := strings.Join(parts, ". ")
	if strings.HasSuffix(out, "…") {
		return out // a shortened checksum ends the sentence already
	}
	return out + "."
}

func cacheClearResult(r map[string]any) []string {
	var parts []string
	if n, ok := r["sessions"]; ok {
		parts = append(parts, "Signed out "+plural(number(n), "session"))
	}
	if n, ok := r["expiredSessions"]; ok {
		parts = append(parts, "Removed "+plural(number(n), "expired session"))
	}
	if _, ok := r["queries"]; ok {
		parts = append(parts, "Cleared cached callers and flags on every instance")
	}
	if len(parts) == 0 {
		parts = append(parts, "Nothing to clear")
	}
	return parts
}

func backupResult(r map[string]any) []string {
	parts := []string{fmt.Sprintf("Wrote %s (%s)%s", jsonText(r["file"]), bytesText(int64(number(r["sizeBytes"]))), seconds(r))}
	if sum, ok := r["sha256"].(string); ok && len(sum) >= 12 {
		parts = append(parts, "SHA-256 "+sum[:12]+"…")
	}
	if n := len(list(r["pruned"])); n > 0 {
		parts = append(parts, "Removed "+plural(n, "old backup"))
	}
	return parts
}

// seconds is " in 1.2 s" from a result's "seconds", or nothing.
func seconds(r map[string]any) string {
	s, ok := r["seconds"].(float64)
	if !ok {
		return ""
	}
	return " in " + strconv.FormatFloat(s, 'f', -1, 64) + " s"
}

// number reads a result's count, whether it came from JSON (float64) or
// straight from the job (an integer).
func number(v any) int {
	switch n := v.(type) {
	case float64:
		return int(n)
	case int64:
		return int(n)
	case int:
		return n
	}
	return 0
}

// list reads a result's list of names.
func list(v any) []string {
	var out []string
	switch l := v.(type) {
	case []any:
		for _, x := range l {
			out = append(out, jsonText(x))
		}
	case []string:
		out = l
	}
	return out
}

// indexes is "1 search index" or "n search indexes".
func indexes(n int) string {
	if n == 1 {
		return "1 search index"
	}
	return count(n) + " search indexes"
}
