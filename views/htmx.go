package views

// htmxConfig is the htmx 2 configuration AdminLayout publishes in its
// <meta name="htmx-config"> tag.
//
// htmx 2 swaps only 2xx/3xx responses by default. The console's forms answer
// a failed validation with 422 and the form partial carrying the field
// errors, so 422 must swap too; every other 4xx/5xx stays unswapped and
// raises htmx:responseError. includeIndicatorStyles is off because htmx would
// otherwise inject an inline <style> (blocked by a strict CSP); app.css
// carries the same .htmx-indicator rules.
//
// historyCacheSize 0 keeps no snapshot of a page in the tab's
// sessionStorage when a list pushes a new URL: console pages hold emails
// and reports that must not outlive the session in the browser. Going
// back then finds no snapshot, and refreshOnHistoryMiss reloads the page
// from the server (which asks for a session again) rather than asking
// for it as an htmx request, which the console would answer with a
// fragment.
const htmxConfig = `{"responseHandling":[` +
	`{"code":"204","swap":false},` +
	`{"code":"[23]..","swap":true},` +
	`{"code":"422","swap":true},` +
	`{"code":"[45]..","swap":false,"error":true}` +
	`],"includeIndicatorStyles":false,"historyCacheSize":0,"refreshOnHistoryMiss":true}`
