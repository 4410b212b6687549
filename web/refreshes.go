package web

import (
	"net/http"
	"sync"
	"time"

	"github.com/plazahq/plaza/internal/audit"
)

// refreshWindow is how often one console refresh of one thing by one
// admin is written to the audit log at most (per instance).
const refreshWindow = time.Minute

// refreshesKept bounds the refreshes remembered: past it, those older
// than the window are forgotten.
const refreshesKept = 4096

// refreshes keeps the console's own refreshes (htmx polling, lists
// reloaded after a change, live pages) from burying the audit log: the
// console asks for the same list or record every few seconds, and each
// ask would add a hash-chained read. A read the console makes (an htmx
// GET that succeeded) is written at most once a window per admin,
// action, target and URL; the row written carries in its details how many
// of the same went unwritten since the previous one ("repeats"). A page
// loaded in full, and every API client's read, is written each time.
type refreshes struct {
	mu    sync.Mutex
	reads map[refreshKey]*refusalTally
}

type refreshKey struct {
	admin                   int64
	action, target, id, url string
}

// consoleRefresh reports whether the request is a read the console made
// for itself rather than a page or an API client's call.
func consoleRefresh(req *http.Request, d *audit.Draft, status int) bool {
	return req.Method == http.MethodGet && req.Header.Get("HX-Request") == "true" && d.AdminID != nil && status < http.StatusBadRequest
}

// admit reports whether d, a console refresh of url at now, is to be
// written; if so, it notes in d how many of the same were held back.
func (r *refreshes) admit(d *audit.Draft, url string, now time.Time) bool {
	k := refreshKey{admin: *d.AdminID, action: d.Action, target: d.TargetType, id: d.TargetID, url: url}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.reads == nil {
		r.reads = map[refreshKey]*refusalTally{}
	}
	t := r.reads[k]
	if t != nil && now.Sub(t.written) < refreshWindow {
		t.repeats++
		return false
	}
	if t == nil {
		r.forgetOld(now)
		t = &refusalTally{}
		r.reads[k] = t
	}
	if t.repeats > 0 {
		d.Set("repeats", t.repeats)
	}
	t.written, t.repeats = now, 0
	return true
}

// forgetOld drops the refreshes older than the window once there are too
// many to keep.
func (r *refreshes) forgetOld(now time.Time) {
	if len(r.reads) < refreshesKept {
		return
	}
	for k, t := range r.reads {
		if now.Sub(t.written) >= refreshWindow {
			delete(r.reads, k)
		}
	}
}
