package views

import "context"

// AssetVersions gives the version of a static file by its path
// ("/static/css/app.css"): a digest of its content, so that a page's link
// to it changes whenever the file does and browsers may keep it for good.
type AssetVersions interface {
	Version(path string) string
}

type assetsKey struct{}

// WithAssets returns ctx carrying the static files' versions.
func WithAssets(ctx context.Context, a AssetVersions) context.Context {
	return context.WithValue(ctx, assetsKey{}, a)
}

// Asset is the URL a page links a static file by: its path with its
// version, or the bare path when ctx carries no versions (or the file has
// none).
func Asset(ctx context.Context, path string) string {
	a, _ := ctx.Value(assetsKey{}).(AssetVersions)
	if a == nil {
		return path
	}
	if v := a.Version(path); v != "" {
		return path + "?v=" + v
	}
	return path
}
