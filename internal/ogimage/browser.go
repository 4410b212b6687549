package ogimage

import "strings"

// botMarkers are lower-case fragments of the User-Agents of crawlers, link
// unfurlers and headless browsers. Many of them start with "Mozilla/" to be
// served like a browser; they must get the image, not the viewer.
var botMarkers = []string{
	// Search engines.
	"googlebot", "google-inspectiontool", "googleother", "adsbot-google", "mediapartners-google",
	"apis-google", "feedfetcher-google", "google-read-aloud", "storebot-google",
	"google-site-verification", "google-pagerenderer", "bingbot", "bingpreview", "msnbot",
	"adidxbot", "duckduckbot", "duckduckgo-favicons-bot", "yandexbot", "yandeximages",
	"yandexvideo", "yandexmedia", "yandexmetrika", "yandexmobilebot", "yandexfavicons",
	"baiduspider", "exabot", "seznambot", "yeti/", "qwantify", "qwantbot", "petalbot",
	"applebot", "yahoo! slurp", "mojeekbot", "coccocbot",
	// Link unfurlers of chat apps and social networks.
	"slackbot", "slack-imgproxy", "twitterbot", "facebookexternalhit", "facebookcatalog",
	"facebookbot", "meta-externalagent", "linkedinbot", "discordbot", "telegrambot", "whatsapp",
	"embedly", "pinterestbot", "pinterest/0.", "redditbot", "skypeuripreview", "vkshare",
	"flipboardproxy", "bitlybot", "iframely", "outbrain", "quora link preview", "nuzzel",
	"mastodon", "pleroma", "misskey", "akkoma", "bluesky", "cardyb", "kakaotalk-scrap",
	"snap url preview", "mattermost", "rocket.chat", "zoominfobot", "chrome-lighthouse",
	"xing-contenttabreceiver",
	// SEO, archive and AI crawlers.
	"ahrefsbot", "semrushbot", "mj12bot", "dotbot", "rogerbot", "screaming frog", "ia_archiver",
	"archive.org_bot", "gptbot", "chatgpt-user", "oai-searchbot", "claudebot", "claude-web",
	"anthropic-ai", "perplexitybot", "bytespider", "ccbot", "amazonbot", "diffbot",
	"dataforseobot", "w3c_validator", "validator.nu",
	// Headless browsers and scripts.
	"headlesschrome", "phantomjs", "puppeteer", "playwright", "selenium", "lighthouse",
	"python-requests", "curl/", "wget/", "go-http-client",
	// Words crawlers put in their names; browsers never carry "+http" either.
	"crawler", "spider", "scraper", "+http", "bot/", "bot;", "bot)",
}

// FromBrowser reports whether a request with this User-Agent and Accept
// header comes from a person's browser: the
// User-Agent starts with "Mozilla/", names no known bot or crawler, and
// Accept lists text/html (with a non-zero quality). Such a request is sent to
// the viewer unless it asks for the image directly.
func FromBrowser(userAgent, accept string) bool {
	ua := strings.TrimSpace(userAgent)
	if !strings.HasPrefix(ua, "Mozilla/") {
		return false
	}
	ua = strings.ToLower(ua)
	for _, m := range botMarkers {
		if strings.Contains(ua, m) {
			return false
		}
	}
	return acceptsHTML(accept)
}

// acceptsHTML reports whether an Accept header lists text/html with q > 0.
// Wildcards (*/*, text/*) do not count: a browser navigating to a page asks
// for text/html by name, while fetchers of images send */*.
func acceptsHTML(accept string) bool {
	for _, part := range strings.Split(accept, ",") {
		typ, params, _ := strings.Cut(part, ";")
		if !strings.EqualFold(strings.TrimSpace(typ), "text/html") {
			continue
		}
		if qZero(params) {
			continue
		}
		return true
	}
	return false
}

// qZero reports whether media-type parameters set q to zero.
func qZero(params string) bool {
	for _, p := range strings.Split(params, ";") {
		k, v, ok := strings.Cut(p, "=")
		if !ok || !strings.EqualFold(strings.TrimSpace(k), "q") {
			continue
		}
		v = strings.TrimSpace(v)
		if v == "" {
			return false
		}
		// q is 0 or 1 with up to three decimals; zero means only zeros.
		return strings.Trim(v, "0.") == "" && strings.Count(v, ".") <= 1
	}
	return false
}
