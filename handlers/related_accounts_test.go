package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// registerFrom signs name up through POST /api/users from ip and gives
// the new account's id.
func registerFrom(t *testing.T, app *apptest.App, ip, name string) string {
	t.Helper()
	body := fmt.Sprintf(`{"name":%q,"email":"%s@example.org","password":"long enough secret"}`, name, name)
	res := fromIP(t, app, ip, "POST", api.PathUsers, body)
	if res.Code != http.StatusCreated {
		t.Fatalf("register %s from %s: %d %s", name, ip, res.Code, res.Body)
	}
	return decodeAs[api.User](t, res).ID
}

// TestRelatedAccountsRoute: registration keeps the client's address and a
// sign-in its range, and GET /api/v1/admin/users/{id}/related lists the
// accounts that share them, in the v1 envelope, to admins only; the user
// page's card shows the same list.
func TestRelatedAccountsRoute(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		ctx := context.Background()
		ana := registerFrom(t, app, "203.0.113.7", "ana")
		twin := registerFrom(t, app, "203.0.113.7", "twin")
		neighbour := registerFrom(t, app, "203.0.113.99", "neighbour")
		stranger := registerFrom(t, app, "198.51.100.1", "stranger")
		lone := registerFrom(t, app, "192.0.2.77", "lone")
		if res := fromIP(t, app, "203.0.113.7", "POST", api.PathSignIn, `{"email":"stranger@example.org","password":"long enough secret"}`); res.Code != http.StatusOK {
			t.Fatalf("stranger signs in: %d %s", res.Code, res.Body)
		}

		stored, err := app.Store.Users.UserByEmail(ctx, "ana@example.org")
		if err != nil || stored.SignupIP != "203.0.113.7" || stored.SignupNet != "203.0.113.0/24" || stored.EmailCanonical != "ana@example.org" {
			t.Fatalf("registration kept %+v (%v), want its address 203.0.113.7 in 203.0.113.0/24", stored, err)
		}

		_, admin := userWith(t, app, "admin@example.com", access.RoleAdmin)
		res := apptest.Do(t, app, "GET", api.AdminV1UserRelatedPath(ana), admin)
		if res.Code != http.StatusOK || !strings.HasPrefix(res.Body.String(), `{"success":true,"data":{"user":{"id":"`+ana+`","username":"ana"},"accounts":[`) {
			t.Fatalf("related of ana: %d %s", res.Code, res.Body)
		}
		got := decodeAs[api.V1Of[api.V1RelatedAccounts]](t, res).Data
		want := map[string][]string{
			twin:      {"address", "signup"},
			neighbour: {"range", "signup"},
			stranger:  {"address"},
		}
		if len(got.Accounts) != len(want) || got.Truncated {
			t.Fatalf("related of ana: %s, want twin, neighbour and stranger", res.Body)
		}
		for _, a := range got.Accounts {
			if !slices.Equal(a.Reasons, want[a.ID]) || a.Status != "active" || a.Email != a.Username+"@example.org" {
				t.Errorf("%s: %+v, want reasons %v", a.Username, a, want[a.ID])
			}
		}
		if last := got.Accounts[2]; last.ID != stranger || !slices.Equal(last.Addresses, []string{"203.0.113.7"}) || len(last.Ranges) != 0 {
			t.Errorf("the account with one reason is not last, or shares the wrong address: %+v", got.Accounts)
		}
		if a := got.Accounts[0]; a.ID == twin && !slices.Equal(a.Addresses, []string{"203.0.113.7"}) || a.ID == neighbour && !slices.Equal(a.Ranges, []string{"203.0.113.0/24"}) {
			t.Errorf("shared %+v", a)
		}
		if !slices.Contains(auditActions(t, app), "users.related user:"+ana) {
			t.Errorf("audit entries %v, want users.related of user %s", auditActions(t, app), ana)
		}

		res = apptest.Do(t, app, "GET", api.AdminV1UserRelatedPath(ana)+"?limit=1", admin)
		if page := decodeAs[api.V1Of[api.V1RelatedAccounts]](t, res).Data; res.Code != http.StatusOK || len(page.Accounts) != 1 || !page.Truncated {
			t.Errorf("limit=1: %d %s, want one account, truncated", res.Code, res.Body)
		}
		for _, limit := range []string{"0", "501", "many"} {
			res := apptest.Do(t, app, "GET", api.AdminV1UserRelatedPath(ana)+"?limit="+limit, admin)
			wantError(t, res, http.StatusUnprocessableEntity, api.CodeValidationError, "limit")
		}
		if res := apptest.Do(t, app, "GET", api.AdminV1UserRelatedPath(lone), admin); res.Code != http.StatusOK ||
			!strings.Contains(res.Body.String(), `"accounts":[],"truncated":false`) {
			t.Errorf("an account sharing nothing: %d %s", res.Code, res.Body)
		}
		for _, id := range []string{"999999", "nope"} {
			res := apptest.Do(t, app, "GET", api.AdminV1UserRelatedPath(id), admin)
			if res.Code != http.StatusNotFound || !strings.Contains(res.Body.String(), `"success":false`) || !strings.Contains(res.Body.String(), `"NOT_FOUND"`) {
				t.Errorf("user %s: %d %s, want 404 NOT_FOUND in the v1 envelope", id, res.Code, res.Body)
			}
		}

		// Staff data: the admin role's, and a super admin's for super admins.
		_, mod := userWith(t, app, "mod@example.com", access.RoleModerator)
		_, member := userWith(t, app, "member@example.com")
		super, _ := userWith(t, app, "super@example.com", access.ImpliedRoles(access.RoleSuperAdmin)...)
		for name, h := range map[string]http.Header{"anonymous": nil, "member": member, "moderator": mod} {
			for _, path := range []string{api.AdminV1UserRelatedPath(ana), api.ConsoleUserRelatedPath(ana)} {
				res := apptest.Do(t, app, "GET", path, h)
				toSignIn := res.Code == http.StatusFound && strings.Contains(res.Header().Get("Location"), api.PathSignIn) // the console's answer to anonymous
				if res.Code != http.StatusUnauthorized && res.Code != http.StatusForbidden && !toSignIn {
					t.Errorf("%s GET %s: %d %s, want a refusal", name, path, res.Code, res.Body)
				} else if strings.Contains(res.Body.String(), "twin") {
					t.Errorf("%s GET %s: the refusal names a related account: %s", name, path, res.Body)
				}
			}
		}
		if res := apptest.Do(t, app, "GET", api.AdminV1UserRelatedPath(itoa(super.ID)), admin); res.Code != http.StatusForbidden {
			t.Errorf("an admin reads a super admin's related accounts: %d %s, want 403", res.Code, res.Body)
		}

		// The user page's card: the same list as HTML, or the empty state.
		card := apptest.Do(t, app, "GET", api.ConsoleUserRelatedPath(ana), withHeader(admin, "HX-Request", "true"))
		html := card.Body.String()
		if card.Code != http.StatusOK || !strings.Contains(html, `data-testid="related-row-`+twin+`"`) ||
			!strings.Contains(html, "Same address") || !strings.Contains(html, "Signed up together") || !strings.Contains(html, "203.0.113.0/24") {
			t.Errorf("the card: %d %s", card.Code, html)
		}
		empty := apptest.Do(t, app, "GET", api.ConsoleUserRelatedPath(lone), withHeader(admin, "HX-Request", "true")).Body.String()
		if !strings.Contains(empty, "No other account shares an address, range or email with this one.") {
			t.Errorf("the card of an account sharing nothing: %s", empty)
		}
		page := apptest.Do(t, app, "GET", api.ConsoleUserPath(mustID(t, ana)), withHeader(admin, "Accept", "text/html")).Body.String()
		if !strings.Contains(page, `hx-get="`+api.ConsoleUserRelatedPath(ana)+`"`) {
			t.Errorf("the user page does not load the related accounts card")
		}
		superPage := apptest.Do(t, app, "GET", api.ConsoleUserPath(super.ID), withHeader(admin, "Accept", "text/html")).Body.String()
		if strings.Contains(superPage, "Related accounts") {
			t.Errorf("an admin's page of a super admin offers the card the route refuses")
		}
	})
}

// TestRelatedAccountsByMailbox: accounts whose emails reach one mailbox
// are related whatever their addresses (an OAuth sign-up keeps its
// address too).
func TestRelatedAccountsByMailbox(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		ctx := context.Background()
		a := app.User(t, "a.b+one@gmail.com")
		b := app.User(t, "ab@googlemail.com")
		app.User(t, "a.b@example.org")
		u, err := app.Store.Users.LinkOAuthUser(ctx, models.OAuthIdentity{Provider: "github", ProviderUserID: "1", Email: "A.B+gh@gmail.com",
			EmailVerified: true, IP: "2001:db8:1:2::7"})
		if err != nil || u.SignupIP != "2001:db8:1:2::7" || u.SignupNet != "2001:db8:1:2::/64" {
			t.Fatalf("OAuth sign-up kept %+v (%v)", u, err)
		}
		_, admin := userWith(t, app, "admin@example.com", access.RoleAdmin)
		got := decodeAs[api.V1Of[api.V1RelatedAccounts]](t, apptest.Do(t, app, "GET", api.AdminV1UserRelatedPath(itoa(a.ID)), admin)).Data
		var ids []string
		for _, acc := range got.Accounts {
			ids = append(ids, acc.ID)
			if !slices.Equal(acc.Reasons, []string{"email"}) {
				t.Errorf("%s: reasons %v, want email", acc.Username, acc.Reasons)
			}
		}
		slices.Sort(ids)
		want := []string{itoa(b.ID), itoa(u.ID)}
		slices.Sort(want)
		if !slices.Equal(ids, want) {
			t.Errorf("related of a.b+one@gmail.com: %v, want ab@googlemail.com and the GitHub account %v", ids, want)
		}
	})
}
