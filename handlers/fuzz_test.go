package handlers_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// unfuzzed are the routes FuzzEndpoints leaves alone: link-preview fetches
// the URL it is given, which may be anywhere (its engine has FuzzExtract),
// and og-image draws a PNG per request, too slow to fuzz through HTTP (its
// query parser is exercised by its own tests); the moderation queue's
// stream reads no input and never ends by itself, so a staff caller's
// request would hang the fuzzer (TestQueueEvents drives it over HTTP).
var unfuzzed = map[string]bool{api.PathLinkPreview: true, api.PathOGImage: true, api.PathConsoleModerationEvents: true}

// fuzzTarget is one app the fuzzer sends to, with its callers.
type fuzzTarget struct {
	app     *apptest.App
	callers map[string]http.Header
	routes  []web.Route
}

func newFuzzTarget(f testing.TB, dialect string) fuzzTarget {
	app := apptest.New(f, dbtest.Open(f, dialect), func(d *web.Deps) {
		l := &d.Config.RateLimit // the fuzzer sends far more than any limit allows
		l.AdminGeneral, l.AdminSuper, l.APIAuthed, l.APIAnonymous, l.EventsPerMin = 1<<30, 1<<30, 1<<30, 1<<30, 1<<30
		l.SignInByEmail, l.SignInByIP, l.Avatar = 1<<30, 1<<30, 1<<30
		l.Register = 1 << 30
	})
	super := app.User(f, "super@example.com", access.ImpliedRoles(access.RoleSuperAdmin)...)
	token, _ := app.TokenFor(f, super.ID, access.AllPermissions()...)
	session := app.SessionFor(f, super.ID)
	session.Set("Origin", app.Deps.Config.PublicAppURL)
	var routes []web.Route
	for _, r := range web.Routes(app.Deps) {
		if !unfuzzed[r.Path] {
			routes = append(routes, r)
		}
	}
	return fuzzTarget{app: app, routes: routes,
		callers: map[string]http.Header{"anonymous": nil, "token": token, "session": session}}
}

var param = regexp.MustCompile(`:[a-z]+`)

// hostile are inputs that have broken such services before: NUL
// characters, lone surrogates, invalid UTF-8, huge numbers, deep nesting.
var hostile = []struct{ body, query, segment string }{
	{`{"email":"a\u0000b@x.y","password":"x"}`, "", "1"},
	{`{"permissions":["admin:read"],"ttl":"1h","name":"\ud800"}`, "limit=1&offset=0", "user"},
	{`{"type":"user","id":"\udfff\u0000"}`, "action=%00&adminId=99999999999999999999", "%00"},
	{`{"events":[{"event_type":"click","event_data":{"x":1e999}}]}`, "startDate=2026-13-45", "\xff"},
	{`{"event_type":"page_view","event_data":{"\u0000":[[[[[[{}]]]]]]},"timestamp":"9999-12-31T23:59:59Z"}`, "seed=%ff&size=1e9", "x"},
	{strings.Repeat("[", 100000), "q=" + strings.Repeat("%5B", 1000), strings.Repeat("a", 5000)},
	{`{"ttl":"99999999999999999999d","permissions":[1.5e308]}`, "callbackUrl=//evil.example", ".."},
	{"\xff\xfe\x00", "%zz=1", ""},
	{"null", "", "0"},
}

var callerNames = []string{"anonymous", "token", "session"}

// send sends one input to one route of one app as one caller and fails
// the test on a 5xx or on an answer the OpenAPI document does not allow.
func send(t *testing.T, tg fuzzTarget, r web.Route, name, body, query, segment string) {
	t.Helper()
	if name == "session" && r.Path == api.PathSignOut && r.Method == http.MethodPost {
		name = "token" // signing out would end the session the other inputs ride on
	}
	target := param.ReplaceAllString(r.Path, url.PathEscape(segment)) + "?" + query
	req, err := http.NewRequest(r.Method, target, strings.NewReader(body))
	if err != nil {
		return // not a request a client could send
	}
	req.Header = tg.callers[name].Clone()
	if req.Header == nil {
		req.Header = http.Header{}
	}
	req.Header.Set("Content-Type", "application/json")
	res := httptest.NewRecorder()
	tg.app.ServeHTTP(res, req)
	if res.Code >= 500 {
		t.Fatalf("%s %s as %s with body %q: %d %s", r.Method, target, name, body, res.Code, res.Body)
	}
	tg.app.CheckDocumented(t, req, res) // hostile input is answered as the document says, too
}

// TestHostileInputs sends every hostile input to every route as every
// caller on both databases: none may answer 5xx.
func TestHostileInputs(t *testing.T) {
	for _, dialect := range dbtest.Dialects {
		t.Run(dialect, func(t *testing.T) {
			tg := newFuzzTarget(t, dialect)
			for _, in := range hostile {
				for _, r := range tg.routes {
					for _, name := range callerNames {
						send(t, tg, r, name, in.body, in.query, in.segment)
					}
				}
			}
		})
	}
}

// FuzzEndpoints sends random bodies, query strings and path segments to
// the routes, as a super admin's token, a super admin's session or
// anonymously, on SQLite or on PostgreSQL (the input picks route, caller
// and database): no input from outside may answer 5xx.
//
// Run: go test -run '^$' -fuzz FuzzEndpoints -fuzztime 30s ./handlers
func FuzzEndpoints(f *testing.F) {
	var targets []fuzzTarget
	for _, dialect := range dbtest.Dialects {
		if dbtest.Available(f, dialect) {
			targets = append(targets, newFuzzTarget(f, dialect))
		}
	}
	for i, in := range hostile {
		f.Add(uint8(i), uint8(i*7), uint8(i), in.body, in.query, in.segment)
	}
	f.Fuzz(func(t *testing.T, db, route, caller uint8, body, query, segment string) {
		tg := targets[int(db)%len(targets)]
		send(t, tg, tg.routes[int(route)%len(tg.routes)], callerNames[int(caller)%len(callerNames)], body, query, segment)
	})
}
