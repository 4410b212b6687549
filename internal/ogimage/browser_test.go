package ogimage

import "testing"

const (
	chrome      = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
	firefox     = "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0"
	safariIOS   = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
	htmlAccept  = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"
	imageAccept = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"
)

func TestFromBrowser(t *testing.T) {
	tests := []struct {
		name, ua, accept string
		want             bool
	}{
		{"chrome page", chrome, htmlAccept, true},
		{"firefox page", firefox, "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", true},
		{"safari ios page", safariIOS, htmlAccept, true},
		{"text/html only", chrome, "text/html", true},
		{"upper-case media type", chrome, "TEXT/HTML", true},
		{"spaces and params", chrome, " application/json , text/html ; charset=utf-8 ; q=0.5", true},
		{"chrome img tag", chrome, imageAccept, false},
		{"chrome fetch", chrome, "*/*", false},
		{"no accept", chrome, "", false},
		{"html refused with q=0", chrome, "text/html;q=0, */*", false},
		{"html refused with q=0.000", chrome, "text/html;q=0.000", false},
		{"html with q=0.001", chrome, "text/html;q=0.001", true},
		{"empty user agent", "", htmlAccept, false},
		{"curl", "curl/8.5.0", htmlAccept, false},
		{"not mozilla", "Opera/9.80 (Windows NT 6.1) Presto/2.12.388 Version/12.16", htmlAccept, false},
		{"googlebot", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", htmlAccept, false},
		{"googlebot smartphone", "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.201 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", htmlAccept, false},
		{"bingbot", "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", htmlAccept, false},
		{"slackbot", "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)", htmlAccept, false},
		{"slack mozilla", "Mozilla/5.0 (compatible; Slackbot-LinkExpanding 1.0; +https://api.slack.com/robots)", htmlAccept, false},
		{"twitterbot", "Mozilla/5.0 (compatible; Twitterbot/1.0)", htmlAccept, false},
		{"facebook", "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)", htmlAccept, false},
		{"facebook mozilla", "Mozilla/5.0 (compatible; facebookexternalhit/1.1; +http://www.facebook.com/externalhit_uatext.php)", htmlAccept, false},
		{"linkedin", "LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)", htmlAccept, false},
		{"linkedin mozilla", "Mozilla/5.0 (compatible; LinkedInBot/1.0; +http://www.linkedin.com)", htmlAccept, false},
		{"discord", "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)", htmlAccept, false},
		{"telegram", "Mozilla/5.0 (compatible; TelegramBot (like TwitterBot))", htmlAccept, false},
		{"whatsapp", "WhatsApp/2.23.20.0 A", htmlAccept, false},
		{"whatsapp mozilla", "Mozilla/5.0 (Linux) WhatsApp/2.23", htmlAccept, false},
		{"applebot", "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)", htmlAccept, false},
		{"duckduckbot", "Mozilla/5.0 (compatible; DuckDuckBot-Https/1.1; https://duckduckgo.com/duckduckbot)", htmlAccept, false},
		{"yandex", "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)", htmlAccept, false},
		{"baidu", "Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)", htmlAccept, false},
		{"embedly", "Mozilla/5.0 (compatible; Embedly/0.2; +http://support.embed.ly/)", htmlAccept, false},
		{"pinterest", "Mozilla/5.0 (compatible; Pinterestbot/1.0; +http://www.pinterest.com/bot.html)", htmlAccept, false},
		{"reddit", "Mozilla/5.0 (compatible; redditbot/1.0; +http://www.reddit.com/feedback)", htmlAccept, false},
		{"skype/teams", "Mozilla/5.0 (Windows NT 6.1; WOW64) SkypeUriPreview Preview/0.5 skype-url-preview@microsoft.com", htmlAccept, false},
		{"headless chrome", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/124.0.0.0 Safari/537.36", htmlAccept, false},
		{"gptbot", "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot", htmlAccept, false},
		{"unknown crawler", "Mozilla/5.0 (compatible; SomeNewCrawler/1.0)", htmlAccept, false},
		{"unknown bot with url", "Mozilla/5.0 (compatible; Thing/1.0; +https://thing.example/about)", htmlAccept, false},
		{"iMessage preview", "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0", htmlAccept, false},
		{"mastodon", "Mozilla/5.0 (compatible; Mastodon/4.2.0; +https://mastodon.social/)", htmlAccept, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := FromBrowser(tt.ua, tt.accept); got != tt.want {
				t.Errorf("FromBrowser(%q, %q) = %v, want %v", tt.ua, tt.accept, got, tt.want)
			}
		})
	}
}

func FuzzFromBrowser(f *testing.F) {
	f.Add(chrome, htmlAccept)
	f.Add("Mozilla/5.0 (compatible; Googlebot/2.1)", "text/html;q=0")
	f.Fuzz(func(t *testing.T, ua, accept string) {
		FromBrowser(ua, accept) // must not panic
	})
}
