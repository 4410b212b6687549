package quotes

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Response limits: a quote is short; anything longer is not what we asked
// for.
const (
	maxBody       = 64 << 10
	maxQuoteRunes = 500
	maxAuthor     = 200
)

// source is one quote service.
type source struct {
	name   string
	weight int
	url    string
	key    string // API Ninjas only
	parse  func([]byte) (Quote, error)
}

func (s source) fetch(ctx context.Context, cfg Config) (Quote, error) {
	ctx, cancel := context.WithTimeout(ctx, cfg.timeout())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.url, nil)
	if err != nil {
		return Quote{}, fmt.Errorf("%s: %w", s.name, err)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "Plaza-Quotes/1.0")
	if s.key != "" {
		req.Header.Set("X-Api-Key", s.key)
	}
	res, err := cfg.client().Do(req)
	if err != nil {
		return Quote{}, fmt.Errorf("%s: %w", s.name, err)
	}
	defer res.Body.Close()
	if res.StatusCode < 200 || res.StatusCode > 299 {
		io.Copy(io.Discard, io.LimitReader(res.Body, maxBody))
		return Quote{}, fmt.Errorf("%s: %w: status %s", s.name, ErrBadResponse, res.Status)
	}
	body, err := io.ReadAll(io.LimitReader(res.Body, maxBody+1))
	if err != nil {
		return Quote{}, fmt.Errorf("%s: read: %w", s.name, err)
	}
	if len(body) > maxBody {
		return Quote{}, fmt.Errorf("%s: %w: body over %d bytes", s.name, ErrBadResponse, maxBody)
	}
	q, err := s.parse(body)
	if err != nil {
		return Quote{}, fmt.Errorf("%s: %w", s.name, err)
	}
	return q, nil
}

// decode unmarshals body into v, which must be a JSON value of v's shape.
// An HTML error page or any other non-JSON answer is a bad response.
func decode(body []byte, v any) error {
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("%w: %v", ErrBadResponse, err)
	}
	return nil
}

// parseZenQuotes reads [{"q": text, "a": author, "h": html}].
func parseZenQuotes(body []byte) (Quote, error) {
	var v []struct {
		Q string `json:"q"`
		A string `json:"a"`
	}
	if err := decode(body, &v); err != nil {
		return Quote{}, err
	}
	if len(v) == 0 {
		return Quote{}, fmt.Errorf("%w: empty list", ErrBadResponse)
	}
	// Over its rate limit ZenQuotes answers 200 with a notice in place of
	// a quote, signed by itself.
	if strings.EqualFold(strings.TrimSpace(v[0].A), "zenquotes.io") {
		return Quote{}, fmt.Errorf("%w: notice instead of a quote: %.80q", ErrBadResponse, v[0].Q)
	}
	return clean(v[0].Q, v[0].A)
}

// parseQuotable reads {"content": text, "author": author}, or a list of
// them (the /quotes/random endpoint).
func parseQuotable(body []byte) (Quote, error) {
	type item struct {
		Content string `json:"content"`
		Author  string `json:"author"`
	}
	var one item
	if t := firstToken(body); t == '[' {
		var v []item
		if err := decode(body, &v); err != nil {
			return Quote{}, err
		}
		if len(v) == 0 {
			return Quote{}, fmt.Errorf("%w: empty list", ErrBadResponse)
		}
		one = v[0]
	} else if err := decode(body, &one); err != nil {
		return Quote{}, err
	}
	return clean(one.Content, one.Author)
}

// parseDummyJSON reads {"id": n, "quote": text, "author": author}.
func parseDummyJSON(body []byte) (Quote, error) {
	var v struct {
		Quote  string `json:"quote"`
		Author string `json:"author"`
	}
	if err := decode(body, &v); err != nil {
		return Quote{}, err
	}
	return clean(v.Quote, v.Author)
}

// parseNinjas reads [{"quote": text, "author": author, "category": c}].
func parseNinjas(body []byte) (Quote, error) {
	var v []struct {
		Quote  string `json:"quote"`
		Author string `json:"author"`
	}
	if err := decode(body, &v); err != nil {
		return Quote{}, err
	}
	if len(v) == 0 {
		return Quote{}, fmt.Errorf("%w: empty list", ErrBadResponse)
	}
	return clean(v[0].Quote, v[0].Author)
}

func firstToken(b []byte) byte {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return c
		}
	}
	return 0
}

// clean checks and tidies a parsed quote: valid UTF-8, white space
// collapsed, control characters dropped, text present and not too long. A
// missing author becomes "Unknown".
func clean(text, author string) (Quote, error) {
	text, author = tidy(text), tidy(author)
	if text == "" {
		return Quote{}, fmt.Errorf("%w: empty quote", ErrBadResponse)
	}
	if n := utf8.RuneCountInString(text); n > maxQuoteRunes {
		return Quote{}, fmt.Errorf("%w: quote of %d characters", ErrBadResponse, n)
	}
	if author == "" {
		author = "Unknown"
	}
	if utf8.RuneCountInString(author) > maxAuthor {
		return Quote{}, fmt.Errorf("%w: author too long", ErrBadResponse)
	}
	return Quote{Text: text, Author: author}, nil
}

func tidy(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	s = strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return ' '
		}
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}
