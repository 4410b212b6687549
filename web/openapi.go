package web

import (
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/alexedwards/scs/v2"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/handlers"
	"github.com/plazahq/plaza/internal/metrics"
	"github.com/plazahq/plaza/internal/openapi"
)

// Outcome is an answer a route documents besides its success and its
// errors: health's 503 with its own body, or a redirect.
type Outcome struct {
	Status      int
	Body        any // nil: none (a redirect)
	Description string
}

// Security schemes of the document.
const (
	schemeBearer  = "bearerAuth"
	schemeSession = "sessionCookie"
	schemeMetrics = "metricsToken"
)

// OpenAPI is the OpenAPI 3.1 document of the route table (docs/api.md,
// "The OpenAPI document"): every route but the 404 catch-alls and the
// generated 405s, each with the errors its family, scope and needs imply.
func OpenAPI(d Deps) ([]byte, error) {
	var ops []openapi.Operation
	used := map[string]bool{}
	for _, r := range routes(d, handlerSet{}) {
		ops = append(ops, operation(r))
		used[familyTag(r.Family)] = true
	}
	var tags []openapi.Tag // the families that have routes
	for _, t := range familyTags {
		if used[t.Name] {
			tags = append(tags, t)
		}
	}
	return openapi.Build(openapi.Document{
		Title:   "Plaza API",
		Version: d.Version,
		Description: "Every route Plaza serves, generated from its route table and the types of its bodies. " +
			"Errors come in the envelope of each route's family (see the tags); rate-limited routes answer " +
			"with X-RateLimit-* headers.",
		// A relative server: clients resolve every path against the URL
		// they fetched the document from, so one document fits every
		// deployment (docs/api.md, "The OpenAPI document").
		Servers:    []openapi.Server{{URL: "/", Description: "The Plaza instance that serves this document."}},
		Tags:       tags,
		Schemes:    securitySchemes(d),
		Operations: ops,
	})
}

// OpenAPIFor builds the document without a running app, as a build step
// needs it (the Go SDK in client/ is generated from it): the given
// version, and the session cookie of an instance served over plain HTTP.
func OpenAPIFor(version string) ([]byte, error) {
	sm := scs.New()
	sm.Cookie.Name = sessionCookie
	return OpenAPI(Deps{Version: version, Sessions: sm, Metrics: metrics.New(nil), Logger: slog.New(slog.DiscardHandler)})
}

// openAPIOnce builds the document on its first request and keeps it,
// with a gzipped copy made on the first request that takes one (the
// document is some 500 KB of JSON, 34 KB gzipped), its digest, and the
// API reference (/api/docs) read from it.
func openAPIOnce(d Deps) (handlers.OpenAPI, handlers.APIDocs) {
	doc := sync.OnceValues(func() ([]byte, error) { return OpenAPI(d) })
	gz := sync.OnceValues(func() ([]byte, error) {
		b, err := doc()
		if err != nil {
			return nil, err
		}
		return gzipped(b), nil
	})
	version := sync.OnceValues(func() (string, error) {
		b, err := doc()
		if err != nil {
			return "", err
		}
		sum := sha256.Sum256(b)
		return hex.EncodeToString(sum[:6]), nil
	})
	ref := sync.OnceValues(func() (api.APIReference, error) {
		b, err := doc()
		if err != nil {
			return api.APIReference{}, err
		}
		v, _ := version()
		return api.ReadReference(b, api.PathOpenAPI+"?v="+v)
	})
	return handlers.OpenAPI{Document: doc, Gzipped: gz, Version: version}, handlers.APIDocs{Reference: ref}
}

// securitySchemes are the ways to call: an admin token, the session
// cookie (by the name the session manager gives it), the metrics token.
func securitySchemes(d Deps) []openapi.Scheme {
	return []openapi.Scheme{
		{Name: schemeBearer, BearerFormat: "JWT", Description: "An admin token (HS256 JWT), minted by `plaza token create` " +
			"or POST /api/v1/admin/tokens. Its permissions are its own intersected with what its user's roles grant now."},
		{Name: schemeSession, Cookie: d.Sessions.Cookie.Name, Description: "The session cookie sign-in sets. Unsafe methods " +
			"riding on it must come from Plaza's own origin."},
		{Name: schemeMetrics, BearerFormat: "METRICS_TOKEN", Description: "The METRICS_TOKEN value as a bearer token: " +
			"lets a scraper read /api/metrics without an admin account."},
	}
}

// familyTags name the families in the document, one section each.
var familyTags = []openapi.Tag{
	{Name: "Admin (v1)", Description: "The versioned admin family under /api/v1/admin: `{success, data, meta?}`; " +
		"errors `{success:false, error:{code, message, details?}}`."},
	{Name: "Admin", Description: "The unversioned admin family under /api/admin: errors `{error, details?}` with zod-style issues."},
	{Name: "General", Description: "Sign-in, sessions and the rest of /api: errors `{error:{code, message, details?}}`."},
	{Name: "Public utilities", Description: "Link preview, og-image, version and health: errors `{error, details?}`."},
	{Name: "Analytics", Description: "Event collection: errors `{success:false, error, details?:[{path, message}]}`."},
	{Name: "Avatars", Description: "Avatar images: errors `{error, status}`."},
	{Name: "Console", Description: "HTML pages of the admin console and the og-image viewer; errors are pages."},
	{Name: "next-auth", Description: "The posts of next-auth's client (signIn): answers and errors are `{url}`; an error's " +
		"is /api/auth/error?error=<name>, and a form without json=true is redirected there instead."},
}

func familyTag(f api.Family) string {
	return map[api.Family]string{
		api.FamilyV1: "Admin (v1)", api.FamilyAdmin: "Admin", api.FamilyGeneral: "General", api.FamilyPublic: "Public utilities",
		api.FamilyCollector: "Analytics", api.FamilyAvatar: "Avatars", api.FamilyConsole: "Console", api.FamilyNextAuth: "next-auth",
	}[f]
}

// operation describes one route.
func operation(r Route) openapi.Operation {
	_, params := openapi.PathOf(r.Path)
	op := openapi.Operation{
		Method: r.Method, Path: r.Path, Tag: familyTag(r.Family), Summary: r.Doc.Summary,
		Description: describe(r), Query: r.Doc.Query, Body: r.Doc.Body, BodyOptional: r.Doc.BodyOptional,
		PathParams: paramDocs,
		Security:   security(r),
		Extensions: map[string]any{"x-rate-limit-scope": string(r.Scope)},
	}
	if len(r.Permissions) > 0 {
		op.Extensions["x-permissions"] = r.Permissions
	}
	op.Responses = append(successes(r), errorResponses(r, len(params) > 0)...)
	headers := rateHeaders(r)
	for i := range op.Responses {
		op.Responses[i].Headers = append(op.Responses[i].Headers, headers(op.Responses[i].Status)...)
		if op.Responses[i].Status == http.StatusServiceUnavailable {
			op.Responses[i].Headers = append(op.Responses[i].Headers, openapi.Header{Name: "Retry-After", Type: "integer",
				Required: true, Description: "Seconds to wait before trying again."})
		}
	}
	return op
}

// databaseAway documents the 503 of every route that reads the database.
const databaseAway = "The database cannot be reached (it refuses connections or is restarting); retry after Retry-After seconds."

// readsDatabase reports whether the pipeline reads the database for the
// route before its handler: the session or the caller's token, the audit
// entry, the blocks. Such a route answers 503 while the database is away.
func (r Route) readsDatabase() bool { return r.needsCaller() || r.Blockable }

// documents reports whether the route documents status itself.
func (r Route) documents(status int) bool {
	if _, ok := r.Doc.Errors[status]; ok {
		return true
	}
	return slices.ContainsFunc(r.Doc.Others, func(o Outcome) bool { return o.Status == status })
}

// paramDocs describe the table's path parameters by name.
var paramDocs = map[string]string{
	"id":       "The resource's id.",
	"type":     "The kind of resource: user, post or feature_flag.",
	"provider": "A sign-in provider's id: github, google, gitlab or discord (when enabled).",
	"path":     "A file's path under static/, slashes included.",
}

// describe adds to the route's own description who may call it and what
// it counts against.
func describe(r Route) string {
	var parts []string
	if r.Doc.Description != "" {
		parts = append(parts, r.Doc.Description)
	}
	switch {
	case r.Gate != "":
		parts = append(parts, "Needs the admin role and "+r.Gate+".")
	case len(r.Permissions) > 0 && r.MetricsToken:
		parts = append(parts, "Needs "+strings.Join(r.Permissions, " and ")+", or the METRICS_TOKEN as a bearer token.")
	case len(r.Permissions) > 0:
		parts = append(parts, "Needs "+strings.Join(r.Permissions, " and ")+".")
	case r.SignIn:
		parts = append(parts, "Needs a signed-in caller.")
	}
	if r.asksConfirmation() {
		parts = append(parts, confirmationNote(r))
	}
	if r.Scope != ScopeExempt {
		parts = append(parts, "Rate limit scope: "+string(r.Scope)+".")
	}
	if r.Meter != "" {
		parts = append(parts, "The handler also counts against: "+string(r.Meter)+".")
	}
	return strings.Join(parts, " ")
}

// confirmationNote says who must have confirmed recently on a route that
// asks for it, as the policy rule of its action has it.
func confirmationNote(r Route) string {
	rule := policy.Table[r.Action]
	who := "A session caller"
	if rule.Confirm == policy.ConfirmOthers {
		who = "A session caller acting on what is not its own"
	}
	tokens := " (bearer tokens need not)."
	if rule.SessionOnly {
		tokens = "; a bearer token cannot do this at all."
	}
	return who + " must have confirmed its password or code within 10 minutes" + tokens
}

// security lists who may call the route: a bearer token or the session
// when it needs permissions or a signed-in caller (or the metrics token
// where allowed); a caller optionally when the route reads one (its rate
// limit counts per user); nobody in particular otherwise.
func security(r Route) [][]string {
	switch {
	case r.Doc.SessionOnly || policy.Table[r.Action].SessionOnly:
		return [][]string{{schemeSession}}
	case len(r.Permissions) > 0 || r.SignIn:
		alts := [][]string{{schemeBearer}, {schemeSession}}
		if r.MetricsToken {
			alts = append(alts, []string{schemeMetrics})
		}
		return alts
	case r.needsCaller():
		return [][]string{{}, {schemeSession}, {schemeBearer}}
	}
	return nil
}

// successes are the route's success and its other documented outcomes.
func successes(r Route) []openapi.Response {
	status := r.Doc.Status
	if status == 0 {
		status = http.StatusOK
	}
	var out []openapi.Response
	if r.Doc.Response != nil {
		out = append(out, openapi.Response{Status: status, Description: http.StatusText(status), Body: r.Doc.Response})
	}
	for ct := range strings.SplitSeq(r.Doc.ContentType, ",") {
		if ct = strings.TrimSpace(ct); ct != "" {
			out = append(out, openapi.Response{Status: status, Description: http.StatusText(status), ContentType: ct,
				Schema: mediaSchema(ct, r.Doc.Lines)})
		}
	}
	if len(out) == 0 {
		out = append(out, openapi.Response{Status: status, Description: http.StatusText(status)})
	}
	for _, o := range r.Doc.Others {
		out = append(out, openapi.Response{Status: o.Status, Description: o.Description, Body: o.Body})
	}
	for i, res := range out {
		if res.Status >= 300 && res.Status < 400 {
			out[i].Headers = append(out[i].Headers, openapi.Header{Name: "Location", Type: "string", Required: true,
				Description: "Where to go next."})
		}
	}
	return out
}

// mediaSchema describes a success that is not JSON: images (SVG too: a
// client shows or saves them, never parses them) and downloads as bytes,
// text as text, and a stream of JSON lines with the schema of each line
// (lines, a type of api) beside it, as OpenAPI 3.2 will have it
// (itemSchema); a generator that knows neither reads bytes.
func mediaSchema(contentType string, lines any) map[string]any {
	switch {
	case strings.HasPrefix(contentType, "image/"), contentType == "application/octet-stream":
		return map[string]any{"type": "string", "format": "binary", "contentMediaType": contentType}
	case contentType == "text/csv":
		return map[string]any{"type": "string", "contentMediaType": contentType,
			"description": "CSV (RFC 4180) with a header row; the JSON rendering's rows, one a line."}
	case contentType == "application/x-ndjson":
		schema := map[string]any{"type": "string", "format": "binary", "contentMediaType": contentType,
			"description": "Newline-delimited JSON: one object a line."}
		if lines != nil {
			name := reflect.TypeOf(lines).Name()
			schema["description"] = "Newline-delimited JSON: one " + name + " a line."
			schema["x-itemSchema"] = map[string]any{"$ref": "#/components/schemas/" + name}
		}
		return schema
	}
	return map[string]any{"type": "string", "contentMediaType": contentType}
}

// errorResponses are the errors a route can answer, in its family's
// shape: what its needs imply (401, 403), what the pipeline refuses for
// every route of its kind (invalid text 400/422, 413 for a body, 429 when
// counted, 404 with path parameters, 500 always), and what its handler
// answers itself (Doc.Errors).
func errorResponses(r Route, hasParams bool) []openapi.Response {
	errs := map[int]string{
		http.StatusInternalServerError: "An internal failure; the cause goes to the log (find it by X-Request-Id), never to the client.",
	}
	if r.Family == api.FamilyConsole {
		return consoleErrors(r, errs)
	}
	invalid := "Invalid input: a bad query parameter or body field, malformed JSON, or text with NUL or invalid UTF-8 " +
		"(refused on every route)."
	errs[http.StatusUnprocessableEntity] = invalid
	if len(r.Permissions) > 0 || r.SignIn {
		errs[http.StatusUnauthorized] = "No caller: no session, or a bearer token that is invalid, expired or revoked, or whose user is banned."
		errs[http.StatusForbidden] = "The caller lacks a permission the route needs" + v1Detail(r.Family, " (INSUFFICIENT_ADMIN_PERMISSIONS with requiredPermission)") + "."
	}
	if len(r.Permissions) > 0 {
		errs[http.StatusForbidden] += " Or a staff session not enrolled in two-factor sign-in while REQUIRE_STAFF_2FA is on (TWO_FACTOR_REQUIRED)."
	}
	if scope := policy.Table[r.Action].Scope; scope != "" && (len(r.Permissions) > 0 || r.SignIn) {
		errs[http.StatusForbidden] += " Or a bearer token acting as its user without " + scope + " (docs/api.md, \"Token scopes\")."
	}
	if r.asksConfirmation() {
		errs[http.StatusForbidden] += " Or a session whose last confirmation is over 10 minutes old (SUDO_REQUIRED): POST /api/auth/confirm, then retry."
	}
	if unsafe(r.Method) && r.needsCaller() && errs[http.StatusForbidden] == "" {
		errs[http.StatusForbidden] = "A cross-origin request riding on the session cookie."
	}
	if ends := r.needsCaller() && r.endsBlockedSessions(); r.Blockable || ends {
		why := " The client's address is blocked (IP_BLOCKED)"
		if !r.Blockable {
			why = " A session from a blocked address (IP_BLOCKED)"
		}
		if ends {
			why += "; a non-staff session seen from a blocked address ends"
		}
		errs[http.StatusForbidden] = strings.TrimSpace(errs[http.StatusForbidden] + why + ".")
	}
	if hasParams {
		errs[http.StatusNotFound] = "No such resource."
	}
	if unsafe(r.Method) {
		errs[http.StatusRequestEntityTooLarge] = "The body is over the limit (1 MiB)."
	}
	if r.Scope != ScopeExempt || r.Meter != "" {
		errs[http.StatusTooManyRequests] = "The rate limit is spent; Retry-After says when to come back."
	}
	if r.readsDatabase() && !r.documents(http.StatusServiceUnavailable) {
		errs[http.StatusServiceUnavailable] = databaseAway
	}
	if r.checksPasswords() {
		errs[http.StatusServiceUnavailable] = strings.TrimSpace(errs[http.StatusServiceUnavailable] +
			" Or too many passwords are being checked at once (each takes 46 MiB); Retry-After says when to try again.")
	}
	for s, why := range r.Doc.Errors {
		errs[s] = why
	}
	// Families that answer invalid input with 400 fold 422 into it.
	var out []openapi.Response
	at := map[int]int{}
	for _, s := range sortedKeys(errs) {
		status, body := errorShape(r.Family, s)
		if i, ok := at[status]; ok {
			out[i].Description += " " + errs[s]
			continue
		}
		at[status] = len(out)
		out = append(out, openapi.Response{Status: status, Description: errs[s], Body: body})
	}
	return out
}

// consoleErrors are a page's: HTML, and a redirect to sign-in for a visitor.
func consoleErrors(r Route, errs map[int]string) []openapi.Response {
	if len(r.Permissions) > 0 || r.SignIn {
		errs[http.StatusForbidden] = "The signed-in user lacks a permission the page needs."
	}
	if r.asksConfirmation() {
		errs[http.StatusForbidden] += " Or a session whose last confirmation is over 10 minutes old (SUDO_REQUIRED)."
	}
	if unsafe(r.Method) {
		// A console action: an alert for htmx, the same JSON body as its API route.
		errs[http.StatusForbidden] = strings.TrimSpace(errs[http.StatusForbidden] + " Or a cross-origin request riding on the session cookie.")
		errs[http.StatusUnprocessableEntity] = "Invalid input: a bad body field or malformed JSON."
		errs[http.StatusRequestEntityTooLarge] = "The body is over the limit (1 MiB)."
	}
	if r.readsDatabase() && !r.documents(http.StatusServiceUnavailable) {
		errs[http.StatusServiceUnavailable] = databaseAway
	}
	for s, why := range r.Doc.Errors {
		errs[s] = why
	}
	var out []openapi.Response
	if len(r.Permissions) > 0 || r.SignIn {
		out = append(out, openapi.Response{Status: http.StatusFound, Description: "No session: to the sign-in page, coming back here after.",
			Headers: []openapi.Header{{Name: "Location", Type: "string", Required: true, Description: "The sign-in page."}}})
	}
	for _, s := range sortedKeys(errs) {
		out = append(out, openapi.Response{Status: s, Description: errs[s], ContentType: "text/html"})
	}
	return out
}

// errorShape is status s of family f as the error handler writes it
// (api.Family.ErrorBody), with the details of invalid input typed.
func errorShape(f api.Family, s int) (int, any) {
	e := &api.Error{Status: s, Code: api.CodeForStatus(s), Message: http.StatusText(s)}
	if s == http.StatusUnprocessableEntity {
		e.Details = &api.ValidationError{}
	}
	status, body := f.ErrorBody(e)
	// The type, not the value: the reflector would describe the value an
	// `any` field holds.
	body = reflect.Zero(reflect.TypeOf(body)).Interface()
	if s == http.StatusUnprocessableEntity {
		switch f {
		case api.FamilyV1:
			body = api.V1Invalid{}
		case api.FamilyGeneral:
			body = api.GeneralInvalid{}
		case api.FamilyAdmin:
			body = api.AdminInvalid{}
		}
	}
	return status, body
}

// rateHeaders gives the headers of each status of a counted route: the
// X-RateLimit-* trio (and X-Admin-Tier in the v1 family) on its successes
// and 429s, and Retry-After on 429s. (Refusals after the limiter counted,
// such as 401 and 403, carry them too; the document leaves them out there.)
func rateHeaders(r Route) func(status int) []openapi.Header {
	return func(status int) []openapi.Header {
		// A route a meter counts (events, failed sign-ins) in its handler has
		// counted them by its success; a redirect may come before.
		limited := r.Scope != ScopeExempt || r.Meter != ""
		counted := r.Scope != ScopeExempt && status < 400 || r.Meter != "" && status < 300 ||
			limited && status == http.StatusTooManyRequests
		if !limited && status == http.StatusTooManyRequests { // the handler's own bound, no window
			return []openapi.Header{{Name: "Retry-After", Type: "integer", Required: true, Description: "Seconds to wait before trying again."}}
		}
		if !counted {
			return nil
		}
		hs := []openapi.Header{
			{Name: "X-RateLimit-Limit", Type: "integer", Required: true,
				Description: "Requests (or events) the window allows. (The X-RateLimit-* headers are absent only while the limiter is unreachable.)"},
			{Name: "X-RateLimit-Remaining", Type: "integer", Required: true, Description: "What is left of the window."},
			{Name: "X-RateLimit-Reset", Type: "integer", Required: true, Description: "When the window resets, in Unix seconds."},
		}
		if r.Scope == ScopeAdminV1 || r.Scope == ScopeAdminSystem {
			hs = append(hs, openapi.Header{Name: "X-Admin-Tier", Type: "string", Required: true,
				Description: "The caller's tier: general, or super for admin:super holders."})
		}
		if status == http.StatusTooManyRequests {
			hs = append(hs, openapi.Header{Name: "Retry-After", Type: "integer", Required: true, Description: "Seconds until the window resets."})
		}
		return hs
	}
}

func v1Detail(f api.Family, s string) string {
	if f == api.FamilyV1 {
		return s
	}
	return ""
}

func unsafe(method string) bool {
	return method != http.MethodGet && method != http.MethodHead && method != http.MethodOptions
}

func sortedKeys(m map[int]string) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
