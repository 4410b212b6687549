package handlers

import (
	"bytes"
	"context"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/audit"
)

// Helpers of the general API's users and posts.

// pathID reads the :id of a general API path. Ids are positive integers,
// so anything else names nothing: 404.
func pathID(c echo.Context) (int64, error) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id < 1 {
		return 0, api.ErrNotFound
	}
	return id, nil
}

// idAndBody reads a write's path id and its JSON body, checked: the first
// steps every single-resource admin write takes.
func idAndBody(c echo.Context, body interface{ Check() error }) (int64, error) {
	id, err := pathID(c)
	if err != nil {
		return 0, err
	}
	if err := decodeJSON(c, body); err != nil {
		return 0, err
	}
	return id, body.Check()
}

// keepAudit asks for the request's Optional audit entry to be written (an
// admin or moderator acting on someone else's resource) and adds details.
func keepAudit(ctx context.Context, details map[string]any) { audit.Keep(ctx, details) }

// decodeOptionalJSON is decodeJSON for a body that may be absent: an empty
// body leaves dst as it is.
func decodeOptionalJSON(c echo.Context, dst any) error {
	body, err := io.ReadAll(c.Request().Body)
	if err != nil {
		return err // the body limit's 413 passes through
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil
	}
	c.Request().Body = io.NopCloser(bytes.NewReader(body))
	return decodeJSON(c, dst)
}

// textIssue checks a trimmed text field's length in characters, and that a
// one-line field holds no control characters (newlines, escapes) that would
// garble where it is shown.
func textIssue(field, s string, minLen, maxLen int, oneLine bool) *api.Issue {
	n := utf8.RuneCountInString(s)
	var is api.Issue
	switch {
	case n < minLen && minLen == 1:
		is = api.FieldIssue(field, "too_small", field+" is required")
	case n < minLen:
		is = api.FieldIssue(field, "too_small", field+" must be at least "+strconv.Itoa(minLen)+" characters")
	case n > maxLen:
		is = api.FieldIssue(field, "too_big", field+" must be at most "+strconv.Itoa(maxLen)+" characters")
	case oneLine && strings.IndexFunc(s, unicode.IsControl) >= 0:
		is = api.FieldIssue(field, "invalid_string", field+" must not contain control characters")
	default:
		return nil
	}
	return &is
}

// collect appends the issues that are not nil.
func collect(issues []api.Issue, found ...*api.Issue) []api.Issue {
	for _, is := range found {
		if is != nil {
			issues = append(issues, *is)
		}
	}
	return issues
}

// noFieldsIssue refuses an update that changes nothing.
func noFieldsIssue(fields string) api.Issue {
	return api.Issue{Path: []string{}, Code: "too_small", Message: "at least one of " + fields + " is required"}
}
