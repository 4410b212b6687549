// Package quotes supplies the quotes of the og-image: four public quote
// services picked by weight, with fall-through from one to the next, six
// built-in quotes when none answers, and a pool refilled in the background
// so that an image request never waits on the network.
package quotes

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"
)

// Quote is a quote and its author.
type Quote struct {
	Text   string
	Author string
}

// Default URLs of the sources; the environment may override each one
// (QUOTE_SOURCE_*_URL, read by internal/config).
const (
	DefaultZenQuotesURL = "https://zenquotes.io/api/random"
	DefaultQuotableURL  = "https://api.quotable.io/random"
	DefaultDummyJSONURL = "https://dummyjson.com/quotes/random"
	DefaultNinjasURL    = "https://api.api-ninjas.com/v1/quotes"
)

// DefaultTimeout bounds one call to one source.
const DefaultTimeout = 3 * time.Second

// Config says where the sources are and how to call them. The zero value
// has no source: a source takes part only when its URL is set (and, for API
// Ninjas, its key), so tests and offline installs never reach the network
// by accident. A missing source's weight is shared out among the others in
// proportion to theirs.
type Config struct {
	ZenQuotesURL string // weight 40
	QuotableURL  string // weight 30
	DummyJSONURL string // weight 20
	NinjasURL    string // weight 10, needs NinjasKey
	NinjasKey    string // sent as X-Api-Key (QUOTE_PREMIUM_API_KEY)

	// Timeout bounds each call to one source; 0 means DefaultTimeout.
	Timeout time.Duration
	// Client makes the calls; nil means a client of its own.
	Client *http.Client
	// Rand returns numbers in [0, 1) for the weighted pick and the choice
	// of built-in quote; nil means math/rand/v2.
	Rand func() float64
	// Interval is the pool's pause between two background fetches; 0
	// means 2 s. It keeps a refill from hammering the sources.
	Interval time.Duration
}

// Errors.
var (
	// ErrUnavailable means no source gave a usable quote.
	ErrUnavailable = errors.New("quotes: no source available")
	// ErrBadResponse means a source answered something that is not a quote.
	ErrBadResponse = errors.New("quotes: bad response")
)

var defaultClient = &http.Client{}

func (c Config) timeout() time.Duration {
	if c.Timeout > 0 {
		return c.Timeout
	}
	return DefaultTimeout
}

func (c Config) client() *http.Client {
	if c.Client != nil {
		return c.Client
	}
	return defaultClient
}

func (c Config) rand() float64 {
	if c.Rand != nil {
		return c.Rand()
	}
	return rand.Float64()
}

// sources returns the sources that take part, in the fixed order used for
// fall-through: ZenQuotes, Quotable, DummyJSON, API Ninjas.
func (c Config) sources() []source {
	all := []source{
		{name: "zenquotes", weight: 40, url: c.ZenQuotesURL, parse: parseZenQuotes},
		{name: "quotable", weight: 30, url: c.QuotableURL, parse: parseQuotable},
		{name: "dummyjson", weight: 20, url: c.DummyJSONURL, parse: parseDummyJSON},
		{name: "ninjas", weight: 10, url: c.NinjasURL, key: c.NinjasKey, parse: parseNinjas},
	}
	out := all[:0]
	for _, s := range all {
		if s.url == "" || (s.name == "ninjas" && s.key == "") {
			continue
		}
		out = append(out, s)
	}
	return out
}

// pick returns the index of the source that u in [0, 1) falls on, each
// source holding a share of [0, 1) proportional to its weight.
func pick(srcs []source, u float64) int {
	total := 0
	for _, s := range srcs {
		total += s.weight
	}
	x := u * float64(total)
	acc := 0.0
	for i, s := range srcs {
		acc += float64(s.weight)
		if x < acc {
			return i
		}
	}
	return len(srcs) - 1
}

// Fetch picks a source by weight and asks it for a quote; when it fails,
// the next source in order is asked, and so on until each has been asked
// once. Each call is bounded by cfg.Timeout. It returns an error wrapping
// ErrUnavailable, and every source's failure, when none answered.
func Fetch(ctx context.Context, cfg Config) (Quote, error) {
	srcs := cfg.sources()
	if len(srcs) == 0 {
		return Quote{}, fmt.Errorf("%w: none configured", ErrUnavailable)
	}
	first := pick(srcs, cfg.rand())
	errs := []error{ErrUnavailable}
	for k := range srcs {
		s := srcs[(first+k)%len(srcs)]
		q, err := s.fetch(ctx, cfg)
		if err == nil {
			return q, nil
		}
		errs = append(errs, err)
		if ctx.Err() != nil {
			break
		}
	}
	return Quote{}, failures(errs)
}

// failures is every source's failure on one line, so a log line stays one
// line; errors.Is and errors.As see each of them.
type failures []error

func (f failures) Error() string {
	msgs := make([]string, len(f))
	for i, err := range f {
		msgs[i] = err.Error()
	}
	return strings.Join(msgs, "; ")
}

func (f failures) Unwrap() []error { return f }

// builtin are the six quotes used when no source answers.
var builtin = [...]Quote{
	{"The best way to predict the future is to invent it.", "Alan Kay"},
	{"Simplicity is prerequisite for reliability.", "Edsger W. Dijkstra"},
	{"Alone we can do so little; together we can do so much.", "Helen Keller"},
	{"Well done is better than well said.", "Benjamin Franklin"},
	{"We are what we repeatedly do. Excellence, then, is not an act, but a habit.", "Will Durant"},
	{"The secret of getting ahead is getting started.", "Mark Twain"},
}

// Builtin returns the six built-in quotes.
func Builtin() []Quote {
	b := builtin
	return b[:]
}

// randomBuiltin returns one of the built-in quotes, u in [0, 1) choosing.
func randomBuiltin(u float64) Quote {
	return builtin[min(int(u*float64(len(builtin))), len(builtin)-1)]
}
