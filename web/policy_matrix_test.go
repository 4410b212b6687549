package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/internal/policy"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
	"github.com/plazahq/plaza/web"
)

// TestPolicyMatrix sends every caller through every door of every
// rule-bearing action (each route of the route table that names an
// action) and checks that the door answers what the policy table decides
// for that caller and target: allowed, sign-in required, forbidden, second
// factor required or confirmation required. A door with no fixture here
// fails the test, so a new door cannot skip it.
func TestPolicyMatrix(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		m := newMatrix(t, db)
		doors := 0
		for _, r := range web.Routes(m.app.Deps) {
			if r.Action == "" {
				continue
			}
			doors++
			key := r.Method + " " + r.Path
			fx, ok := doorFixtures[key]
			if !ok {
				t.Errorf("%s leads to %s but the matrix has no fixture for it", key, r.Action)
				continue
			}
			t.Run(key, func(t *testing.T) { m.walk(t, r, fx) })
		}
		if doors < len(doorFixtures) {
			t.Errorf("%d doors name an action, %d fixtures: a fixture's door is gone", doors, len(doorFixtures))
		}
	})
}

// password is every matrix caller's password.
const password = "matrix password 1"

// caller is one kind of caller of the matrix: how it calls, and the
// principal the pipeline makes of it, for the policy's own answer.
type caller struct {
	name   string
	user   *models.User // nil for the anonymous caller
	header http.Header
	who    *auth.Principal
	strict bool // sent to the instance with REQUIRE_STAFF_2FA on
	owner  bool // the owner or author of the target
}

type matrix struct {
	app, strict *apptest.App
	callers     []caller
	staff       int64 // who places the bans the matrix's unbans lift
	session     func(name string, strict, owner bool, roles ...string) caller
	seq         atomic.Int64
}

func newMatrix(t *testing.T, db *bun.DB) *matrix {
	m := &matrix{app: apptest.New(t, db)}
	m.strict = apptest.New(t, db, func(d *web.Deps) { d.Config.RequireStaff2FA = true })
	session := func(name string, strict, owner bool, roles ...string) caller {
		u := m.app.UserWithPassword(t, name+"@example.com", password, roles...)
		rs := append([]string{auth.RoleUser}, roles...)
		return caller{name: name, user: u, header: m.app.SessionFor(t, u.ID), strict: strict, owner: owner,
			who: &auth.Principal{UserID: u.ID, Roles: rs, Permissions: auth.RolePermissions(rs), Via: auth.ViaSession, ConfirmedAt: time.Now()}}
	}
	token := func(name string, of caller, scope string) caller {
		h, _ := m.app.TokenFor(t, of.user.ID, scope)
		return caller{name: name, user: of.user, header: h,
			who: &auth.Principal{UserID: of.user.ID, Roles: of.who.Roles, Via: auth.ViaToken,
				Permissions: auth.Permissions{scope}.Intersect(of.who.Permissions)}}
	}
	m.session = session
	admin := session("admin", false, false, auth.RoleAdmin)
	super := session("super", false, false, auth.ImpliedRoles(auth.RoleSuperAdmin)...)
	m.callers = []caller{
		{name: "anonymous"},
		session("user", false, false),
		session("owner", false, true),
		session("moderator", false, false, auth.RoleModerator),
		session("moderator-no-2fa", true, false, auth.RoleModerator),
		admin,
		token("admin-token-read", admin, auth.PermAdminRead),
		super,
		token("super-token-write", super, auth.PermAdminWrite),
	}
	m.staff = super.user.ID
	return m
}

func (m *matrix) owner(t *testing.T) caller {
	return m.session(fmt.Sprintf("owner-%d", m.seq.Add(1)), false, true)
}

// target is what one request of the matrix acts on.
type target struct {
	path   string // the route's path with its parameters filled in
	body   string
	policy policy.Target
}

// fixture makes a fresh target of a door for a caller: super asks for a
// super admin as the person acted on, where the action's rule protects
// rank.
type fixture func(t *testing.T, m *matrix, c caller, r web.Route, super bool) target

func (m *matrix) walk(t *testing.T, r web.Route, fx fixture) {
	variants := []bool{false}
	if policy.Table[r.Action].Rank {
		variants = append(variants, true)
	}
	for _, c := range m.callers {
		if c.owner {
			c = m.owner(t) // bans and deletions end the owner: a new one each time
		}
		for _, super := range variants {
			if super && c.owner {
				continue // an owner is a plain user, never a super admin
			}
			tg := fx(t, m, c, r, super)
			want := decision(policy.Policy{RequireStaff2FA: c.strict, Now: time.Now}.Check(c.who, r.Action, tg.policy))
			got := m.send(t, c, r.Method, tg.path, tg.body)
			if got.class != want {
				t.Errorf("%s (target super admin: %v): door answered %s (%d %.300s), the policy decides %s",
					c.name, super, got.class, got.status, got.body, want)
			}
		}
	}
}

// Decisions, as a door shows them.
const (
	allowed       = "allowed"
	signIn        = "sign-in required"
	forbidden     = "forbidden"
	secondFactor  = "second factor required"
	confirmFirst  = "confirmation required"
	unknownAnswer = "an answer that is no decision"
)

func decision(err error) string {
	switch {
	case err == nil:
		return allowed
	case err == policy.ErrSignInRequired:
		return signIn
	case err == policy.ErrNeedsSecondFactor:
		return secondFactor
	case err == policy.ErrNeedsConfirmation:
		return confirmFirst
	}
	return forbidden
}

type answer struct {
	class  string
	status int
	body   string
}

func (m *matrix) send(t *testing.T, c caller, method, path, body string) answer {
	t.Helper()
	app := m.app
	if c.strict {
		app = m.strict
	}
	req := httptest.NewRequest(method, path, strings.NewReader(body))
	for k, v := range c.header {
		req.Header[k] = v
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Origin", "http://127.0.0.1:8080")
	rec := httptest.NewRecorder()
	app.ServeHTTP(rec, req)
	a := answer{status: rec.Code, body: rec.Body.String()}
	loc := rec.Header().Get("Location") + rec.Header().Get("HX-Redirect")
	switch {
	case strings.Contains(loc, api.PathConsoleTwoFactor) || strings.Contains(a.body, api.CodeTwoFactorRequired) ||
		rec.Code == 403 && strings.Contains(a.body, api.PathConsoleTwoFactor):
		a.class = secondFactor
	case rec.Header().Get(web.SudoHeader) != "":
		a.class = confirmFirst
	case rec.Code == 401 || strings.Contains(loc, api.PathSignIn):
		a.class = signIn
	case rec.Code == 403:
		a.class = forbidden
	case rec.Code >= 200 && rec.Code < 400:
		a.class = allowed
	default:
		a.class = unknownAnswer
	}
	return a
}

// fresh makes a new user: the owner caller itself when it is the one
// acted on, else a plain user or a super admin.
func (m *matrix) person(t *testing.T, c caller, super bool) *models.User {
	if c.owner {
		return c.user
	}
	n := m.seq.Add(1)
	if super {
		return m.app.UserWithPassword(t, fmt.Sprintf("target-super-%d@example.com", n), password, auth.ImpliedRoles(auth.RoleSuperAdmin)...)
	}
	return m.app.User(t, fmt.Sprintf("target-%d@example.com", n))
}

func personTarget(u *models.User, roles ...string) policy.Target {
	return policy.Person(u.ID, append([]string{auth.RoleUser}, roles...))
}

func (m *matrix) personOf(t *testing.T, c caller, super bool) (*models.User, policy.Target) {
	u := m.person(t, c, super)
	if super {
		return u, personTarget(u, auth.ImpliedRoles(auth.RoleSuperAdmin)...)
	}
	return u, personTarget(u)
}

func withID(path string, id int64) string {
	return strings.Replace(path, ":id", fmt.Sprint(id), 1)
}

// personDoor is a door to an action on the person its :id names, with body.
func personDoor(body string) fixture {
	return func(t *testing.T, m *matrix, c caller, r web.Route, super bool) target {
		u, tg := m.personOf(t, c, super)
		return target{path: withID(r.Path, u.ID), body: body, policy: tg}
	}
}

// bannedPersonDoor is personDoor for unbans: its person is banned first.
func bannedPersonDoor(body string) fixture {
	return func(t *testing.T, m *matrix, c caller, r web.Route, super bool) target {
		u, tg := m.personOf(t, c, super)
		if c.owner {
			return target{path: withID(r.Path, u.ID), body: body, policy: tg} // a banned owner could not call at all
		}
		ctx := context.Background()
		err := m.app.Store.Change(ctx, func(ctx context.Context) error {
			_, err := m.app.Store.BanUser(ctx, models.BanInput{UserID: u.ID, AdminID: m.staff, Reason: "matrix"})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return target{path: withID(r.Path, u.ID), body: body, policy: tg}
	}
}

// selfDoor is a door to an action on the caller's own account.
func selfDoor(body string) fixture {
	return func(t *testing.T, m *matrix, c caller, r web.Route, super bool) target {
		tg := policy.Platform
		if c.user != nil {
			tg = policy.Owned(c.user.ID)
		}
		return target{path: r.Path, body: body, policy: tg}
	}
}

// doorFixtures has one fixture per door: "METHOD PATH" as the route table
// has them.
var doorFixtures = map[string]fixture{
	"POST " + api.PathAdminUserBan:      personDoor(`{"reason":"matrix"}`),
	"POST " + api.PathAdminUserUnban:    bannedPersonDoor(``),
	"POST " + api.PathAdminV1UserBan:    personDoor(`{"action":"ban","reason":"matrix"}`),
	"PUT " + api.PathAdminV1User:        personDoor(`{"notes":"matrix"}`),
	"POST " + api.PathAdminV1BulkUpdate: bulkDoor,
	"PUT " + api.PathUser:               personDoor(`{"bio":"matrix"}`),
	"DELETE " + api.PathUser:            personDoor(`{"password":"` + password + `"}`),
	"POST " + api.PathUsers:             registerDoor,
	"POST " + api.PathAdminV1Blocks:     blockDoor,
	"DELETE " + api.PathAdminV1Block:    heldBlockDoor,
	"POST " + api.PathPassword:          selfDoor(`{"currentPassword":"` + password + `","newPassword":"` + password + `"}`),
}

func bulkDoor(t *testing.T, m *matrix, c caller, r web.Route, super bool) target {
	u, tg := m.personOf(t, c, super)
	return target{path: r.Path, body: fmt.Sprintf(`{"userIds":["%d"],"changes":{"isVerified":true}}`, u.ID), policy: tg}
}

func registerDoor(t *testing.T, m *matrix, c caller, r web.Route, super bool) target {
	n := m.seq.Add(1)
	return target{path: r.Path, policy: policy.Platform,
		body: fmt.Sprintf(`{"name":"Matrix %d","email":"matrix-%d@example.com","password":"a fine matrix password"}`, n, n)}
}

// blockDoor blocks a new email domain (never an address, which would
// refuse the matrix's own callers).
func blockDoor(t *testing.T, m *matrix, c caller, r web.Route, super bool) target {
	return target{path: r.Path, policy: policy.Platform,
		body: fmt.Sprintf(`{"kind":"email_domain","value":"matrix-%d.example","reason":"matrix"}`, m.seq.Add(1))}
}

func heldBlockDoor(t *testing.T, m *matrix, c caller, r web.Route, super bool) target {
	b := &models.Block{Kind: "email_domain", Value: fmt.Sprintf("held-%d.example", m.seq.Add(1)), Reason: "matrix"}
	ctx := context.Background()
	if err := m.app.Store.Change(ctx, func(ctx context.Context) error { return m.app.Store.CreateBlock(ctx, b) }); err != nil {
		t.Fatal(err)
	}
	return target{path: withID(r.Path, b.ID), policy: policy.Platform}
}
