package api

// Query parameters of the routes, as the OpenAPI document lists them
// (web.Doc.Query). The handlers read and check them themselves; the
// response checks of the tests hold the two together.

// LinkPreviewQuery is the query of GET /api/link-preview.
type LinkPreviewQuery struct {
	URL string `query:"url" required:"true" description:"The page to preview: an absolute http or https URL, or a path starting with / resolved against PUBLIC_APP_URL."`
}

// AvatarQuery is the query of GET /api/avatar-image.
type AvatarQuery struct {
	Seed string `query:"seed" required:"true" description:"Any text, case sensitive: the same seed always draws the same face."`
	Size int    `query:"size" minimum:"50" maximum:"1000" default:"200" description:"Width and height in pixels."`
}

// AvatarSheetQuery is the query of the console's avatar sheet.
type AvatarSheetQuery struct {
	Seeds string `query:"seeds" required:"true" description:"Up to 100 seeds, separated by commas; the i-th avatar is the symbol a<i>."`
}

// OGImageParams is the query of GET /api/og-image.
type OGImageParams struct {
	Seed   string `query:"seed" description:"Seed of the avatar and the background pattern; random when absent. Only its first 200 characters count."`
	Quote  string `query:"quote" description:"The quote; fetched from a quote source when absent. Beyond 500 characters it is cut at a word and ends in …."`
	Author string `query:"author" description:"The quote's author. Beyond 80 characters, or wider than its line, it is cut and ends in …."`
	Random bool   `query:"random" description:"true draws a random seed even when seed is given; any value but true is false."`
	Type   string `query:"type" enum:"png,svg" default:"png" description:"The image format; any value but svg is PNG."`
	Direct bool   `query:"direct" description:"true sends the image even to a browser, which is otherwise sent to the viewer; any value but true is false."`
}

// OGViewerQuery is the query of GET /og-image-viewer.
type OGViewerQuery struct {
	Seed   string `query:"seed" description:"The image's seed; random when absent."`
	Quote  string `query:"quote" description:"The quote; fetched when absent."`
	Author string `query:"author" description:"The quote's author."`
	Random bool   `query:"random" description:"true draws a random seed even when seed is given."`
}

// CallbackQuery is the query of the sign-in page and of starting an
// external sign-in: where to go once signed in.
type CallbackQuery struct {
	CallbackURL string `query:"callbackUrl" description:"Where to go once signed in: a path or a URL of this site (anything else is ignored)."`
}

// SignInPageQuery is what GET /api/auth/signin reads.
type SignInPageQuery struct {
	CallbackURL string `query:"callbackUrl" description:"Where to go once signed in: a path or a URL of this site (anything else is ignored)."`
	Notice      string `query:"notice" enum:"reset" description:"reset: open with the notice that the password was just reset."`
}

// ResetPasswordQuery is what GET /reset-password reads: the token of the
// reset mail's link.
type ResetPasswordQuery struct {
	Token string `query:"token" description:"The token of the reset mail's link."`
}

// VerifyEmailQuery is what GET /verify-email reads: the token of the
// verification mail's link.
type VerifyEmailQuery struct {
	Token string `query:"token" description:"The token of the verification mail's link."`
}

// OAuthCallbackQuery is what a provider sends back to GET /api/auth/callback/{provider}.
type OAuthCallbackQuery struct {
	State string `query:"state" description:"The state the sign-in began with."`
	Code  string `query:"code" description:"The provider's authorization code."`
	Error string `query:"error" description:"The provider's refusal, instead of a code."`
}

// AuditLogQuery is the query of GET /api/v1/admin/audit-logs.
type AuditLogQuery struct {
	AdminID    string `query:"adminId" description:"Only entries of this admin (a user id)."`
	Action     string `query:"action" description:"Only entries of this action, e.g. user.ban."`
	TargetType string `query:"targetType" description:"Only entries about this kind of resource, e.g. user (Plaza's addition)."`
	TargetID   string `query:"targetId" description:"Only entries about the resource with this id; with targetType, that one resource (Plaza's addition)."`
	Kind       string `query:"kind" enum:"all,changes,reads" description:"changes: the entries of every action but reads; reads: those of reads (the audited GET routes); all: both. The API's default is all, the console page's changes (Plaza's addition)."`
	StartDate  string `query:"startDate" description:"Entries from this RFC 3339 time or ISO date on."`
	EndDate    string `query:"endDate" description:"Entries up to this RFC 3339 time, or to the end of this ISO date."`
	Limit      int    `query:"limit" minimum:"1" maximum:"100" default:"50" description:"Entries per page."`
	Offset     int    `query:"offset" minimum:"0" default:"0" description:"Entries to skip."`
}

// OpenAPIQuery is the query of GET /api/openapi.json.
type OpenAPIQuery struct {
	V string `query:"v" description:"The document's version, as the API reference links it: with the current one the answer may be cached for good (immutable); any other value, or none, is answered with no-cache and an ETag."`
}

// ConsoleAuditKind is the kind of entry the console's audit page shows:
// the one asked for; else every kind when it filters by action (an admin
// who names a read wants to see it); else changes, which reads would bury.
func ConsoleAuditKind(kind, action string) string {
	switch {
	case kind != "":
		return kind
	case action != "":
		return "all"
	}
	return "changes"
}
