// Package device names the browser and system behind a user agent in a few
// words, for a person's list of sessions ("Firefox on Windows").
package device

import (
	"sync"

	"github.com/medama-io/go-useragent"
)

// parser is built once, on first use: it reads the library's table of
// user agents into a trie, which takes a moment and some memory that an
// instance nobody asks for sessions never spends.
var parser = sync.OnceValue(useragent.NewParser)

// Label is a short readable name for the device of user agent ua: browser
// and operating system when known, "Unknown device" when neither is.
func Label(ua string) string {
	if ua == "" {
		return "Unknown device"
	}
	a := parser().Parse(ua)
	browser, os := string(a.Browser()), string(a.OS())
	if a.IsBot() {
		browser = "Script or bot" // curl, an HTTP library, a crawler
	}
	switch {
	case browser != "" && os != "":
		return browser + " on " + os
	case browser != "":
		return browser // the library's names of browsers and systems
	case os != "":
		return "A browser on " + os
	}
	return "Unknown device"
}
