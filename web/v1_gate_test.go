package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// gateApp is an instance with an admin, a moderator and a member who wrote
// a published post.
type gateApp struct {
	app                     *apptest.App
	admin, moderator, other *models.User
	member                  *models.User
	post                    int64
}

func newGateApp(t *testing.T, db *bun.DB) *gateApp {
	g := &gateApp{app: apptest.New(t, db)}
	g.admin = g.app.User(t, "gate-admin@example.com", access.RoleAdmin)
	g.other = g.app.User(t, "gate-other-admin@example.com", access.RoleAdmin)
	g.moderator = g.app.User(t, "gate-moderator@example.com", access.RoleModerator)
	g.member = g.app.User(t, "gate-member@example.com")
	g.post = g.newPost(t)
	return g
}

func (g *gateApp) newPost(t *testing.T) int64 { return g.postBy(t, g.member) }

func (g *gateApp) postBy(t *testing.T, author *models.User) int64 {
	var id int64
	err := g.app.Store.Change(context.Background(), func(ctx context.Context) error {
		p, err := g.app.Store.Posts.CreateUserPost(ctx, models.PostInput{AuthorID: author.ID, Title: "Gate", Content: "x", Published: true})
		if err == nil {
			id = p.ID
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// session is a signed-in session's header, from the console's origin.
func (g *gateApp) session(t *testing.T, u *models.User) http.Header {
	h := g.app.SessionFor(t, u.ID)
	h.Set("Origin", "http://127.0.0.1:8080")
	return h
}

func send(t *testing.T, g *gateApp, h http.Header, method, path, body string) (int, string) {
	t.Helper()
	h = h.Clone()
	h.Set("Accept", "application/json")
	rec := apptest.DoBody(t, g.app, method, path, h, body)
	return rec.Code, rec.Body.String()
}

// requiredPermission is a v1 refusal's requiredPermission.
func requiredPermission(t *testing.T, body string) string {
	var out struct {
		Error struct {
			Code               string `json:"code"`
			RequiredPermission string `json:"requiredPermission"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(body), &out); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	if out.Error.Code != api.CodeInsufficientAdminPermissions {
		t.Errorf("code %q, want %s: %s", out.Error.Code, api.CodeInsufficientAdminPermissions, body)
	}
	return out.Error.RequiredPermission
}

// TestV1GateTokenBansAndModerates: the versioned family asks the admin role
// and admin:write of a POST, never users:manage or posts:moderate, so an
// admin's token scoped admin:read,admin:write bans a member and moderates
// the member's post through it.
func TestV1GateTokenBansAndModerates(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		g := newGateApp(t, db)
		tok, _ := g.app.TokenFor(t, g.admin.ID, access.PermAdminRead, access.PermAdminWrite)
		if code, body := send(t, g, tok, http.MethodPost, fmt.Sprintf("%s/%d/moderate", api.PathAdminV1Posts, g.post), `{"action":"hide","reason":"gate"}`); code != http.StatusOK {
			t.Errorf("moderating with admin:read,admin:write: %d %s", code, body)
		}
		if code, body := send(t, g, tok, http.MethodPost, fmt.Sprintf("%s/%d/ban", api.PathAdminV1Users, g.member.ID), `{"action":"ban","reason":"gate"}`); code != http.StatusOK {
			t.Errorf("banning with admin:read,admin:write: %d %s", code, body)
		}
		// The unversioned family keeps its own permission: users:manage.
		other := g.app.User(t, "gate-member-2@example.com")
		code, body := send(t, g, tok, http.MethodPost, strings.Replace(api.PathAdminUserBan, ":id", fmt.Sprint(other.ID), 1), `{"reason":"gate"}`)
		if code != http.StatusForbidden {
			t.Errorf("the unversioned ban with a token lacking users:manage: %d %s", code, body)
		}
		code, body = send(t, g, g.session(t, g.admin), http.MethodPost, strings.Replace(api.PathAdminUserBan, ":id", fmt.Sprint(other.ID), 1), `{"reason":"gate"}`)
		if code != http.StatusOK {
			t.Errorf("the unversioned ban by an admin's session: %d %s", code, body)
		}
		// A token without admin:write is refused, naming it.
		read, _ := g.app.TokenFor(t, g.admin.ID, access.PermAdminRead)
		code, body = send(t, g, read, http.MethodPost, fmt.Sprintf("%s/%d/moderate", api.PathAdminV1Posts, g.postBy(t, g.app.User(t, "gate-author@example.com"))), `{"action":"hide"}`)
		if code != http.StatusForbidden || requiredPermission(t, body) != access.PermAdminWrite {
			t.Errorf("moderating with admin:read alone: %d %s", code, body)
		}
	})
}

// TestV1GateRefusesModerators: moderators hold no admin role, so every
// route of the versioned family refuses their session with 403 naming the
// method's permission; they moderate through the console's own routes.
func TestV1GateRefusesModerators(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		g := newGateApp(t, db)
		mod := g.session(t, g.moderator)
		for _, r := range web.Routes(g.app.Deps) {
			if r.Family != api.FamilyV1 {
				continue
			}
			path := strings.NewReplacer(":id", fmt.Sprint(g.post), ":sessionId", "x", ":deliveryId", "1", ":name", "x", ":file", "x", ":type", "post", ":jobId", "x").Replace(r.Path)
			code, body := send(t, g, mod, r.Method, path, `{}`)
			if code != http.StatusForbidden {
				t.Errorf("%s %s: a moderator's session got %d %.200s", r.Method, r.Path, code, body)
				continue
			}
			want := map[string]string{http.MethodGet: access.PermAdminRead, http.MethodDelete: access.PermAdminDelete}[r.Method]
			if want == "" {
				want = access.PermAdminWrite
			}
			if got := requiredPermission(t, body); got != want && got != access.PermAdminSuper {
				t.Errorf("%s %s: requiredPermission %q, want %s", r.Method, r.Path, got, want)
			}
		}
		code, body := send(t, g, mod, http.MethodPost, strings.Replace(api.PathConsoleModeratePost, ":id", fmt.Sprint(g.post), 1), `{"action":"hide"}`)
		if code != http.StatusOK {
			t.Errorf("a moderator moderating through the console: %d %s", code, body)
		}
	})
}

// TestRankAmongEquals: a role acts only on people of a strictly lower
// role, so an admin bans no other admin, through either admin family,
// while a super admin does.
func TestRankAmongEquals(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		g := newGateApp(t, db)
		admin := g.session(t, g.admin)
		code, body := send(t, g, admin, http.MethodPost, fmt.Sprintf("%s/%d/ban", api.PathAdminV1Users, g.other.ID), `{"action":"ban","reason":"peer"}`)
		if code != http.StatusForbidden {
			t.Errorf("an admin banning another admin through v1: %d %s", code, body)
		}
		code, body = send(t, g, admin, http.MethodPost, strings.Replace(api.PathAdminUserBan, ":id", fmt.Sprint(g.other.ID), 1), `{"reason":"peer"}`)
		if code != http.StatusForbidden {
			t.Errorf("an admin banning another admin through the unversioned family: %d %s", code, body)
		}
		peer := g.app.User(t, "gate-peer-moderator@example.com", access.RoleModerator)
		code, body = send(t, g, g.session(t, g.moderator), http.MethodPost, strings.Replace(api.PathConsoleModeratePost, ":id", fmt.Sprint(g.postBy(t, peer)), 1), `{"action":"hide"}`)
		if code != http.StatusForbidden {
			t.Errorf("a moderator hiding another moderator's post: %d %s", code, body)
		}
		super := g.app.User(t, "gate-super@example.com", access.ImpliedRoles(access.RoleSuperAdmin)...)
		code, body = send(t, g, g.session(t, super), http.MethodPost, fmt.Sprintf("%s/%d/ban", api.PathAdminV1Users, g.other.ID), `{"action":"ban","reason":"peer"}`)
		if code != http.StatusOK {
			t.Errorf("a super admin banning an admin: %d %s", code, body)
		}
	})
}
