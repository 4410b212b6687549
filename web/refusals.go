package web

import (
	"net/http"
	"sync"
	"time"

	"github.com/plazahq/plaza/internal/audit"
)

// refusalWindow is how often one kind of refusal is written to the audit
// log at most (per instance).
const refusalWindow = time.Minute

// refusals keeps the audit log useful under a flood: an anonymous caller
// refused on an audited route (401, or 429 once its window is spent), and
// any caller refused for its rate, would otherwise add a permanent,
// hash-chained row per request. Such refusals are written at most once a
// window per kind (route action, status and caller, if any); the row
// written carries in its details how many of the same kind went unwritten
// since the previous one ("repeats"). The kinds are bounded by the routes,
// the statuses and the staff, never by what a client sends.
type refusals struct {
	mu    sync.Mutex
	kinds map[refusalKind]*refusalTally
}

type refusalKind struct {
	action string
	status int
	admin  int64 // 0 for an anonymous caller
}

type refusalTally struct {
	written time.Time
	repeats int64
}

// aggregated reports whether a refused request's entry is counted rather
// than written one by one.
func aggregated(d *audit.Draft, status int) bool {
	return status == http.StatusTooManyRequests || d.AdminID == nil && status >= http.StatusBadRequest
}

// admit reports whether d, refused with status at now, is to be written; if
// so, it notes in d how many of its kind were held back since the last row.
func (r *refusals) admit(d *audit.Draft, status int, now time.Time) bool {
	k := refusalKind{action: d.Action, status: status}
	if d.AdminID != nil {
		k.admin = *d.AdminID
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.kinds == nil {
		r.kinds = map[refusalKind]*refusalTally{}
	}
	t := r.kinds[k]
	if t != nil && now.Sub(t.written) < refusalWindow {
		t.repeats++
		return false
	}
	if t == nil {
		t = &refusalTally{}
		r.kinds[k] = t
	}
	if t.repeats > 0 {
		d.Set("repeats", t.repeats)
	}
	t.written, t.repeats = now, 0
	return true
}
