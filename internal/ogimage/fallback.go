package ogimage

// fallbackSVG is the image served when generation fails:
// 1200×630, #0a0a0a, the product name at 48px and
// a tagline at 24px, centred.
const fallbackSVG = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630" role="img">` +
	`<title>Plaza</title>` +
	`<rect width="1200" height="630" fill="#0a0a0a"/>` +
	`<g font-family="'Go Medium', 'Go', 'Helvetica Neue', Arial, sans-serif" text-anchor="middle" fill="#ffffff">` +
	`<text x="600" y="303" font-size="48" font-weight="500">Plaza</text>` +
	`<text x="600" y="355" font-size="24" fill-opacity="0.7">A self-hostable community back office</text>` +
	`</g></svg>`

// FallbackSVG returns the fallback image. Each call returns a new slice.
func FallbackSVG() []byte { return []byte(fallbackSVG) }
