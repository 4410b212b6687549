package web

import (
	"net/http"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/openapi"
)

// publicRoutes is the public utilities and probes: health, version, link
// previews, avatars, social images, analytics collection and metrics.
func publicRoutes(d Deps, hs handlerSet) []Route {
	general := api.FamilyGeneral
	public := api.FamilyPublic
	return []Route{
		{Method: http.MethodGet, Path: api.PathHealth, Handler: hs.health.Handle, Family: public, Scope: ScopeExempt,
			Doc: Doc{Summary: "Health", Response: api.Health{}, Others: []Outcome{healthDown}}},
		{Method: http.MethodGet, Path: api.PathVersion, Handler: hs.version.Handle, Family: public, Scope: ScopeExempt,
			Doc: Doc{Summary: "The running version", Response: api.Version{}}},
		{Method: http.MethodGet, Path: api.PathLinkPreview, Handler: hs.linkPreview.Handle, Family: public, Scope: ScopeLinkPreview,
			Doc: Doc{Summary: "A page's preview: title, description, image", Query: api.LinkPreviewQuery{}, Response: api.LinkPreview{},
				Errors: map[int]string{
					http.StatusBadRequest:     "url is missing, malformed, or not http(s).",
					http.StatusForbidden:      "The target resolves to a loopback, private, link-local, multicast or unspecified address.",
					http.StatusBadGateway:     "The target answered with an HTTP error (details: its status text) or could not be reached.",
					http.StatusGatewayTimeout: "The target did not answer in 10 seconds.",
				}}},
		{Method: http.MethodGet, Path: api.PathAvatarImage, Handler: hs.avatar.Handle, Family: api.FamilyAvatar, Scope: ScopeAvatar, Quiet: true,
			Doc: Doc{Summary: "An avatar (SVG)", Query: api.AvatarQuery{}, ContentType: "image/svg+xml",
				Errors: map[int]string{http.StatusBadRequest: "seed is missing, or size is not an integer from 50 to 1000."}}},
		{Method: http.MethodGet, Path: api.PathOGImage, Handler: hs.ogImage.Handle, Family: public, Scope: ScopeOGImage, Quiet: true,
			Doc: Doc{Summary: "A social-sharing image (1200×630)", Query: api.OGImageParams{}, ContentType: "image/png, image/svg+xml",
				Description: "PNG unless type=svg. The answer is always an image: no parameter is refused (long text is fitted, an unknown flag value is its default), and a failed drawing answers 200 with a fallback SVG.",
				Others:      []Outcome{{Status: http.StatusFound, Description: "A person's browser without direct=true: to /og-image-viewer with the same query."}}}},
		// The collector answers 403 itself without a session,
		// and counts events, not requests.
		{Method: http.MethodPost, Path: api.PathAnalyticsCollect, Handler: hs.collect.Handle, Family: api.FamilyCollector,
			Scope: ScopeExempt, Meter: ScopeAnalyticsEvents, Blockable: true,
			Doc: Doc{Summary: "Record analytics events", Description: "One event, or a batch of 1 to 100; stored before the answer. " +
				"Needs a signed-in session (the cookie; a bearer token is not a session). Bodies up to 256 KiB.",
				Body: openapi.OneOf(api.CollectEvent{}, api.CollectBatch{}), Status: http.StatusAccepted, SessionOnly: true,
				Response: openapi.OneOf(api.CollectAccepted{}, api.CollectBatchAccepted{}),
				Errors: map[int]string{
					http.StatusBadRequest:            "Malformed JSON, or events that break the schema: details name every bad path.",
					http.StatusForbidden:             "No signed-in session.",
					http.StatusRequestEntityTooLarge: "The body is over 256 KiB.",
					http.StatusServiceUnavailable:    "The events could not be stored now (the writer's queue is full, or the database cannot be reached): nothing was acknowledged; retry after Retry-After seconds.",
				}}},
		{Method: http.MethodGet, Path: api.PathMetrics, Handler: metricsHandler(d.Metrics, d.Logger), Family: general, Scope: ScopeExempt,
			Permissions: []string{access.PermAdminRead}, MetricsToken: true,
			Doc: Doc{Summary: "Prometheus metrics", ContentType: "text/plain"}},
	}
}
