package handlers

import (
	"context"
	"errors"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/views"
)

// UserFinder finds the user a console filter names.
type UserFinder interface {
	UserIDByRef(ctx context.Context, ref string) (int64, error)
}

// personFilter reads the query parameter name, which picks one person.
// The API routes keep the contract's positive integer id; the console's
// pages take what an admin knows, a username, an email or an id, and a
// name nobody has is a field error in words. An id is taken as it is,
// as the API takes it: the audit log keeps the ids of accounts since
// deleted. An empty console field means no filter.
func personFilter(c echo.Context, q url.Values, name string, users UserFinder) (*int64, []api.Issue, error) {
	if !onConsole(c) {
		id, issues := api.ParseID(q, name)
		return id, issues, nil
	}
	ref, _ := api.QueryParam(q, name)
	if ref == "" {
		return nil, nil, nil
	}
	if id, err := strconv.ParseInt(ref, 10, 64); err == nil && id > 0 {
		return &id, nil, nil // kept by the audit log after the account is gone
	}
	id, err := users.UserIDByRef(c.Request().Context(), ref)
	switch {
	case errors.Is(err, models.ErrNotFound):
		return nil, []api.Issue{api.FieldIssue(name, "custom", noUserNamed(ref))}, nil
	case err != nil:
		return nil, nil, err
	}
	return &id, nil, nil
}

// noUserNamed is the console's words for a filter naming nobody.
func noUserNamed(ref string) string {
	if strings.Contains(ref, "@") {
		return "No user has the email '" + ref + "'"
	}
	return "No user named '" + ref + "'"
}

// onConsole tells a console page's request from an API route's: both run
// the same handlers.
func onConsole(c echo.Context) bool {
	p := c.Path()
	return p == api.PathConsole || strings.HasPrefix(p, api.PathConsole+"/")
}

// idText is a resolved filter's id for links to the API (an export, a
// CSV), which take ids only.
func idText(id *int64) string {
	if id == nil {
		return ""
	}
	return itoa(*id)
}

// People turns the people a console page names into ids and usernames
// (the store's users part answers it).
type People interface {
	UserFinder
	PeopleFinder
}

// PeopleFinder looks up accounts' usernames by id, a page at a time.
type PeopleFinder interface {
	UsernamesByID(ctx context.Context, ids []int64) (map[int64]string, error)
}

// lookUpPeople is the usernames of the accounts ids name, in one query,
// for a console page that shows people by name; ids that are not numbers
// are skipped, and an account gone is absent (views.Person says so).
func lookUpPeople(ctx context.Context, store PeopleFinder, ids []string) (views.People, error) {
	nums := make([]int64, 0, len(ids))
	for _, s := range ids {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			nums = append(nums, n)
		}
	}
	found, err := store.UsernamesByID(ctx, nums)
	if err != nil {
		return nil, err
	}
	out := make(views.People, len(found))
	for id, name := range found {
		out[itoa(id)] = name
	}
	return out, nil
}
