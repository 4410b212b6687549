package web_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/auth"
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
		m.walkReads(t)
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
	who    *access.Principal
	strict bool // sent to the instance with REQUIRE_STAFF_2FA on
	owner  bool // the owner or author of the target
	scopes []string
}

type matrix struct {
	app, strict *apptest.App
	callers     []caller
	staff       int64 // who places the bans the matrix's unbans lift
	session     func(name string, strict, owner bool, roles ...string) caller
	seq         atomic.Int64
	// staffTarget are the roles of the staff person the current round
	// acts on (walk); nil is a super admin.
	staffTarget []string
}

func newMatrix(t *testing.T, db *bun.DB) *matrix {
	// Every caller registers from one address: the registration limit is
	// no part of what the matrix checks.
	setup := func(d *web.Deps) {
		d.Config.RateLimit.Register = 1000
		d.Config.SMTP.Host = "127.0.0.1" // mail is queued, as resending needs; no job runs to send it
		d.OAuthProviders = auth.OAuthProviders(auth.ProviderKeys{GitHubKey: "k", GitHubSecret: "s"}, d.Config.PublicAppURL)
	}
	m := &matrix{app: apptest.New(t, db, setup)}
	m.strict = apptest.New(t, db, setup, func(d *web.Deps) { d.Config.RequireStaff2FA = true })
	session := func(name string, strict, owner bool, roles ...string) caller {
		u := m.app.UserWithPassword(t, name+"@example.com", password, roles...)
		rs := append([]string{access.RoleUser}, roles...)
		return caller{name: name, user: u, header: m.app.SessionFor(t, u.ID), strict: strict, owner: owner,
			who: &access.Principal{UserID: u.ID, Roles: rs, Permissions: access.RolePermissions(rs), Via: access.ViaSession, ConfirmedAt: time.Now()}}
	}
	m.session = session
	token := func(name string, of caller, scopes ...string) caller { return m.token(t, name, of, scopes...) }
	admin := session("admin", false, false, access.RoleAdmin)
	super := session("super", false, false, access.ImpliedRoles(access.RoleSuperAdmin)...)
	m.callers = []caller{
		{name: "anonymous"},
		session("user", false, false),
		session("owner", false, true),
		session("moderator", false, false, access.RoleModerator),
		session("moderator-no-2fa", true, false, access.RoleModerator),
		admin,
		token("admin-token-read", admin, access.PermAdminRead),
		// The contract's versioned gate: this token bans and moderates
		// through /api/v1/admin, not through the unversioned family.
		token("admin-token-read-write", admin, access.PermAdminRead, access.PermAdminWrite),
		super,
		token("super-token-write", super, access.PermAdminWrite),
		// Staff power used to read is staff power; a token acts as its
		// user only within its account scopes.
		session("admin-no-2fa", true, false, access.RoleAdmin),
		token("owner-token-read", session("token-owner-r", false, true), access.ScopeAccountRead),
		token("owner-token-write", session("token-owner-w", false, true), access.ScopeAccountWrite),
		token("admin-owner-token-read", session("admin-owner", false, true, access.RoleAdmin), access.PermAdminRead),
	}
	m.staff = super.user.ID
	return m
}

// token is a bearer token of of's user with scopes, owning what of owns.
func (m *matrix) token(t *testing.T, name string, of caller, scopes ...string) caller {
	h, _ := m.app.TokenFor(t, of.user.ID, scopes...)
	return caller{name: name, user: of.user, header: h, owner: of.owner, scopes: scopes,
		who: &access.Principal{UserID: of.user.ID, Roles: of.who.Roles, Via: access.ViaToken,
			Permissions: access.TokenGrant(access.Permissions(scopes), of.who.Roles)}}
}

// clone is a new caller of c's kind for an action on the caller's own
// account; anonymous and token callers are refused before any change, so
// they stay as they are.
func (m *matrix) clone(t *testing.T, c caller) caller {
	if c.user == nil || c.who.Via != access.ViaSession {
		return c
	}
	return m.session(fmt.Sprintf("%s-%d", c.name, m.seq.Add(1)), c.strict, c.owner, c.who.Roles[1:]...)
}

// owner is a new caller of c's kind who owns the target: bans and
// deletions end an owner, so each request gets its own.
func (m *matrix) owner(t *testing.T, c caller) caller {
	s := m.session(fmt.Sprintf("owner-%d", m.seq.Add(1)), false, true, c.who.Roles[1:]...)
	if c.who.Via == access.ViaToken {
		return m.token(t, c.name, s, c.scopes...)
	}
	return s
}

// target is what one request of the matrix acts on.
type target struct {
	path   string // the route's path with its parameters filled in
	body   string
	policy policy.Target
	// as stands in for the caller when the action changes the caller's own
	// account (two-factor sign-in, sessions): a new one of the same kind.
	as *caller
}

// fixture makes a fresh target of a door for a caller: super asks for a
// staff member as the person acted on (of m.staffRoles), where the
// action's rule protects rank.
type fixture func(t *testing.T, m *matrix, c caller, r web.Route, super bool) target

// staffTargets are the roles of the staff person a door of a rank-bearing
// action acts on, round after round: a super admin, and the peers of the
// matrix's staff callers (admin on admin, moderator on moderator), which
// rank among equals refuses.
var staffTargets = [][]string{access.ImpliedRoles(access.RoleSuperAdmin), {access.RoleAdmin}, {access.RoleModerator}}

func (m *matrix) walk(t *testing.T, r web.Route, fx fixture) {
	variants := [][]string{nil}
	if rule := policy.Table[r.Action]; rule.Rank || rule.Outrank {
		variants = append(variants, staffTargets...)
	}
	for _, c := range m.callers {
		if c.owner {
			c = m.owner(t, c)
		}
		for _, roles := range variants {
			super := roles != nil
			if super && c.owner {
				continue // an owner is a plain user, never staff
			}
			m.staffTarget = roles
			tg := fx(t, m, c, r, super)
			who := c
			if tg.as != nil {
				who = *tg.as
			}
			want := expected(r, who, r.Action, tg.policy)
			got := m.send(t, who, r.Method, tg.path, tg.body)
			if got.class != want {
				t.Errorf("%s (target's staff roles: %v): door answered %s (%d %.300s), the policy decides %s",
					who.name, roles, got.class, got.status, got.body, want)
			}
		}
	}
}

// expected is what the door r should answer who taking action a on t:
// the route's own gate first (its permissions, the admin role on the
// versioned family, and staff two-factor sign-in where it asks for any),
// then the policy.
func expected(r web.Route, who caller, a policy.Action, t policy.Target) string {
	pol := policy.Policy{RequireStaff2FA: who.strict, Now: time.Now}
	if who.who != nil && len(r.Permissions) > 0 {
		for _, perm := range r.Permissions {
			if !who.who.Can(perm) {
				return forbidden
			}
		}
		if r.Gate != "" && !who.who.HasAdminRole() {
			return forbidden // the versioned family is the admin role's
		}
		if who.who.Via == access.ViaSession && pol.MustEnrol(who.who) && !who.who.TwoFactor {
			return secondFactor
		}
	}
	if who.who != nil && r.Gate != "" {
		return decision(pol.Check(who.who.Through(r.Gate), a, t)) // behind the gate, which granted its permission
	}
	return decision(pol.Check(who.who, a, t))
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
	json := strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json")
	switch {
	case strings.Contains(loc, api.PathConsoleTwoFactor) ||
		rec.Code == 403 && json && strings.Contains(a.body, api.PathConsoleTwoFactor): // the code, or the unversioned family's message
		a.class = secondFactor
	case rec.Header().Get(web.SudoHeader) != "":
		a.class = confirmFirst
	case rec.Code == 401 || strings.Contains(loc, api.PathSignIn):
		a.class = signIn
	case rec.Code == 403 || rec.Code == 423: // 423: a lock that holds against the caller
		a.class = forbidden
	case rec.Code >= 200 && rec.Code < 400:
		a.class = allowed
	default:
		a.class = unknownAnswer
	}
	return a
}

// fresh makes a new user: the owner caller itself when it is the one
// acted on, else a plain user or, with super, a staff member of this
// round's roles (a super admin, an admin or a moderator).
func (m *matrix) person(t *testing.T, c caller, super bool) *models.User {
	if c.owner {
		return c.user
	}
	n := m.seq.Add(1)
	if super {
		return m.app.UserWithPassword(t, fmt.Sprintf("target-staff-%d@example.com", n), password, m.staffRoles()...)
	}
	return m.app.User(t, fmt.Sprintf("target-%d@example.com", n))
}

func personTarget(u *models.User, roles ...string) policy.Target {
	return policy.Person(u.ID, append([]string{access.RoleUser}, roles...))
}

func (m *matrix) personOf(t *testing.T, c caller, super bool) (*models.User, policy.Target) {
	u := m.person(t, c, super)
	if super {
		return u, personTarget(u, m.staffRoles()...)
	}
	return u, personTarget(u)
}

// staffRoles are the roles of this round's staff target: a super admin's
// unless the walk says otherwise.
func (m *matrix) staffRoles() []string {
	if m.staffTarget == nil {
		return access.ImpliedRoles(access.RoleSuperAdmin)
	}
	return m.staffTarget
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
			_, err := m.app.Store.Sanctions.BanUser(ctx, models.BanInput{UserID: u.ID, AdminID: m.staff, Reason: "matrix"})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return target{path: withID(r.Path, u.ID), body: body, policy: tg}
	}
}

// silencedPersonDoor is personDoor for unsilences: its person is
// silenced first, for an hour.
func silencedPersonDoor(t *testing.T, m *matrix, c caller, r web.Route, super bool) target {
	u, tg := m.personOf(t, c, super)
	ctx := context.Background()
	err := m.app.Store.Change(ctx, func(ctx context.Context) error {
		return m.app.Store.Sanctions.SilenceUser(ctx, u.ID, time.Now().Add(time.Hour), "matrix")
	})
	if err != nil {
		t.Fatal(err)
	}
	return target{path: withID(r.Path, u.ID), policy: tg}
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
	"POST " + api.PathAdminUserBan:         personDoor(`{"reason":"matrix"}`),
	"POST " + api.PathAdminUserUnban:       bannedPersonDoor(``),
	"POST " + api.PathAdminV1UserBan:       personDoor(`{"action":"ban","reason":"matrix"}`),
	"POST " + api.PathAdminV1UserSilence:   personDoor(`{"duration":"1h","reason":"matrix"}`),
	"POST " + api.PathAdminV1UserUnsilence: silencedPersonDoor,
	"POST " + api.PathAdminUserSilence:     personDoor(`{"duration":"1h","reason":"matrix"}`),
	"POST " + api.PathAdminUserUnsilence:   silencedPersonDoor,
	"PUT " + api.PathAdminV1User:           personDoor(`{"notes":"matrix"}`),
	"POST " + api.PathAdminV1BulkUpdate:    bulkDoor,
	"POST " + api.PathAdminV1PurgePreview:  purgePreviewDoor,
	"POST " + api.PathAdminV1Purge:         purgeDoor,
	"POST " + api.PathAdminV1PurgeUndo:     purgeUndoDoor,
	"PUT " + api.PathUser:                  personDoor(`{"bio":"matrix"}`),
	"DELETE " + api.PathUser:               personDoor(`{"password":"` + password + `"}`),
	"POST " + api.PathUsers:                registerDoor,
	"POST " + api.PathPasswordForgot:       forgotDoor,
	"POST " + api.PathPasswordReset:        resetDoor,
	"POST " + api.PathEmailVerify:          verifyDoor,
	"POST " + api.PathEmailResend:          ownAccountDoor(``, nil), // the matrix's accounts are unverified
	"POST " + api.PathEmailChange:          ownAccountDoor(``, newAddress),
	"POST " + api.PathAdminV1Blocks:        blockDoor,
	"DELETE " + api.PathAdminV1Block:       heldBlockDoor,
	// Invitations: the versioned family's doors and the console's twins.
	// A revoke acts on the caller's own invitation (someone else's asks
	// invitation.revoke_others too, which handlers' TestInvitationPolicy
	// walks).
	"GET " + api.PathAdminV1Invitations:       platformDoor(""),
	"POST " + api.PathAdminV1Invitations:      platformDoor(`{"maxUses":2,"validFor":"1d","note":"matrix"}`),
	"GET " + api.PathAdminV1Invitation:        invitationDoor,
	"DELETE " + api.PathAdminV1Invitation:     invitationDoor,
	"GET " + api.PathConsoleInvitations:       platformDoor(""),
	"POST " + api.PathConsoleInvitations:      platformDoor(`{"maxUses":2}`),
	"GET " + api.PathConsoleInvitation:        invitationDoor,
	"POST " + api.PathConsoleInvitationRevoke: invitationDoor,
	"POST " + api.PathAdminV1MailResend:       failedMailDoor,
	"POST " + api.PathAdminV1MailTest:         platformDoor(""),
	"DELETE " + api.PathSessions:              ownAccountDoor(``, nil),
	"DELETE " + api.PathSessionOne:            ownAccountDoor(``, ownSession),
	"POST " + api.PathConfirm:                 ownAccountDoor(`{"password":"`+password+`"}`, nil),
	"POST " + api.PathTwoFactorSetup:          ownAccountDoor(`{"password":"`+password+`"}`, nil),
	"POST " + api.PathTwoFactorEnable:         ownAccountDoor(``, enableBody),
	"POST " + api.PathTwoFactorDisable:        ownAccountDoor(`{"password":"`+password+`","code":"none"}`, enrolFirst),
	"POST " + api.PathProviderLink:            ownAccountDoor(``, githubLink),
	"DELETE " + api.PathProviderLink:          ownAccountDoor(``, linkedGitHub),
	"GET " + api.PathConsoleUserRelated:       personDoor(``),
	"GET " + api.PathAdminV1UserRelated:       personDoor(``),
	"GET " + api.PathConsoleUserSessions:      personDoor(``),
	"GET " + api.PathAdminV1UserSessions:      personDoor(``),
	"DELETE " + api.PathAdminV1UserSessions:   personDoor(``),
	"DELETE " + api.PathAdminV1UserSession:    personSessionDoor,
	"POST " + api.PathAdminTokens:             platformDoor(`{"permissions":["admin:read"],"ttl":"1h","name":"matrix"}`),
	"DELETE " + api.PathAdminToken:            tokenDoor,
	"GET " + api.PathAdminV1Backup:            backupDoor,
	"DELETE " + api.PathAdminV1Backup:         backupDoor,
	"GET " + api.PathAdminAuditExport:         platformDoor(``),
	"POST " + api.PathPassword:                ownAccountDoor(`{"currentPassword":"`+password+`","newPassword":"`+password+`"}`, nil), // it renews the session and revokes the tokens
	"PUT " + api.PathPost:                     postDoor(`{"title":"matrix"}`),
	"DELETE " + api.PathPost:                  postDoor(``),
	"POST " + api.PathAdminV1Moderate:         postDoor(`{"action":"hide"}`),
	"POST " + api.PathConsoleModeratePost:     postDoor(`{"action":"hide"}`),
	"POST " + api.PathAdminV1UndoModeration:   undoDoor,
	"POST " + api.PathConsoleUndoModeration:   undoDoor,
	"POST " + api.PathAdminV1BulkModerate:     bulkModerateDoor,
	"POST " + api.PathConsoleBulkModerate:     bulkModerateDoor,
	"POST " + api.PathConsoleClaimPost:        postDoor(``),
	"DELETE " + api.PathConsoleClaimPost:      postDoor(``),

	// A reset staff open for someone: a link answered (no SMTP_URL).
	"POST " + api.PathAdminV1UserPasswordReset: personDoor(``),
}

// post makes a fresh published post, which every caller sees: the owner
// caller's own, else a plain user's.
func (m *matrix) post(t *testing.T, c caller) (id, author int64) {
	author = m.person(t, c, false).ID
	ctx := context.Background()
	err := m.app.Store.Change(ctx, func(ctx context.Context) error {
		p, err := m.app.Store.Posts.CreateUserPost(ctx, models.PostInput{AuthorID: author, Title: "Matrix", Content: "x", Published: true})
		if err == nil {
			id = p.ID
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return id, author
}

// postDoor is a door to an action on the post its :id names, with body.
func postDoor(body string) fixture {
	return func(t *testing.T, m *matrix, c caller, r web.Route, super bool) target {
		id, tg := m.postOf(t, c, super)
		return target{path: withID(r.Path, id), body: body, policy: tg}
	}
}

// undoDoor is a door to undoing the caller's own flag of a post, made
// just before: without it an allowed caller has nothing to undo.
func undoDoor(t *testing.T, m *matrix, c caller, r web.Route, super bool) target {
	id, tg := m.postOf(t, c, super)
	if c.user != nil {
		err := m.app.Store.Change(context.Background(), func(ctx context.Context) error {
			_, err := m.app.Store.Desk.ModeratePost(ctx, models.Moderation{PostID: id, AdminID: c.user.ID, Action: "flag"})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return target{path: withID(r.Path, id), policy: tg}
}

func bulkModerateDoor(t *testing.T, m *matrix, c caller, r web.Route, super bool) target {
	id, tg := m.postOf(t, c, super)
	return target{path: r.Path, body: fmt.Sprintf(`{"postIds":["%d"],"action":"hide"}`, id), policy: tg}
}

func bulkDoor(t *testing.T, m *matrix, c caller, r web.Route, super bool) target {
	u, tg := m.personOf(t, c, super)
	return target{path: r.Path, body: fmt.Sprintf(`{"userIds":["%d"],"changes":{"isVerified":true}}`, u.ID), policy: tg}
}

// purgePreviewDoor previews the purge of a new member: it changes
// nothing, so it asks only the caller's standing.
func purgePreviewDoor(t *testing.T, m *matrix, c caller, r web.Route, super bool) target {
	u := m.app.User(t, fmt.Sprintf("preview-%d@example.com", m.seq.Add(1)))
	return target{path: r.Path, body: fmt.Sprintf(`{"userIds":["%d"],"reason":"matrix"}`, u.ID), policy: policy.Platform}
}

// purgeDoor purges one account: a member, the caller itself (the owner)
// or, with super, a staff member, whom a purge never includes.
func purgeDoor(t *testing.T, m *matrix, c caller, r web.Route, super bool) target {
	u, tg := m.personOf(t, c, super)
	return target{path: r.Path, body: fmt.Sprintf(`{"userIds":["%d"],"reason":"matrix"}`, u.ID), policy: tg}
}

// purgeUndoDoor undoes a purge of a new member made by the caller or,
// with super, by a staff member of this round's roles (undoing someone
// else's purge takes a role above theirs).
func purgeUndoDoor(t *testing.T, m *matrix, c caller, r web.Route, super bool) target {
	maker, tg := m.staff, policy.Person(m.staff, access.ImpliedRoles(access.RoleSuperAdmin))
	switch {
	case super:
		u := m.app.UserWithPassword(t, fmt.Sprintf("purger-%d@example.com", m.seq.Add(1)), password, m.staffRoles()...)
		maker, tg = u.ID, personTarget(u, m.staffRoles()...)
	case c.user != nil:
		maker, tg = c.user.ID, policy.Person(c.user.ID, c.who.Roles)
	}
	victim := m.app.User(t, fmt.Sprintf("purged-%d@example.com", m.seq.Add(1)))
	var id int64
	err := m.app.Store.Change(context.Background(), func(ctx context.Context) error {
		p, err := m.app.Store.Sanctions.PurgeUsers(ctx, models.PurgeInput{AdminID: maker, Reason: "matrix", Ban: []int64{victim.ID}})
		if p != nil {
			id = p.Purge.ID
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return target{path: withID(r.Path, id), policy: tg}
}

func registerDoor(t *testing.T, m *matrix, c caller, r web.Route, super bool) target {
	n := m.seq.Add(1)
	return target{path: r.Path, policy: policy.Platform,
		body: fmt.Sprintf(`{"name":"Matrix %d","email":"matrix-%d@example.com","password":"a fine matrix password"}`, n, n)}
}

// forgotDoor asks a reset link for a new address each time, so that the
// limit per email never answers for the policy.
func forgotDoor(t *testing.T, m *matrix, c caller, r web.Route, super bool) target {
	return target{path: r.Path, policy: policy.Platform, body: fmt.Sprintf(`{"email":"forgot-%d@example.com"}`, m.seq.Add(1))}
}

// resetDoor resets a new account's password with a link opened for it. The
// link is stored as the action stores it, by the token's SHA-256 in hex,
// so that the matrix's many callers need not ask for links past the limit.
func resetDoor(t *testing.T, m *matrix, c caller, r web.Route, super bool) target {
	n := m.seq.Add(1)
	u := m.app.User(t, fmt.Sprintf("reset-%d@example.com", n))
	token := fmt.Sprintf("MATRIXRESETTOKEN%d", n)
	sum := sha256.Sum256([]byte(token))
	ctx := context.Background()
	if err := m.app.Store.Change(ctx, func(ctx context.Context) error {
		_, err := m.app.Store.Auth.OpenPasswordReset(ctx, u.ID, hex.EncodeToString(sum[:]), time.Hour)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return target{path: r.Path, policy: policy.Platform, body: `{"token":"` + token + `","password":"a fine matrix password"}`}
}

// verifyDoor verifies a new account's address with a link opened for it,
// stored as the action stores it, by the token's SHA-256 in hex.
func verifyDoor(t *testing.T, m *matrix, c caller, r web.Route, super bool) target {
	n := m.seq.Add(1)
	u := m.app.User(t, fmt.Sprintf("verify-%d@example.com", n))
	token := fmt.Sprintf("MATRIXVERIFYTOKEN%d", n)
	sum := sha256.Sum256([]byte(token))
	ctx := context.Background()
	if err := m.app.Store.Change(ctx, func(ctx context.Context) error {
		_, err := m.app.Store.Auth.OpenEmailVerification(ctx, u.ID, u.Email, hex.EncodeToString(sum[:]), time.Hour)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return target{path: r.Path, policy: policy.Platform, body: `{"token":"` + token + `"}`}
}

// newAddress asks for a change to an address nobody has.
func newAddress(t *testing.T, m *matrix, c caller, r web.Route) (string, string) {
	return "", fmt.Sprintf(`{"email":"moved-%d@example.com","password":"%s"}`, m.seq.Add(1), password)
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
	if err := m.app.Store.Change(ctx, func(ctx context.Context) error { return m.app.Store.Blocklist.CreateBlock(ctx, b) }); err != nil {
		t.Fatal(err)
	}
	return target{path: withID(r.Path, b.ID), policy: policy.Platform}
}

// failedMailDoor is a door to a message the mail server refused.
func failedMailDoor(t *testing.T, m *matrix, c caller, r web.Route, super bool) target {
	msg := &models.MailMessage{Kind: "test", Recipient: "matrix@example.com", Subject: "Matrix", Status: models.MailFailed, CreatedAt: time.Now()}
	if _, err := m.app.Store.DB.NewInsert().Model(msg).Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
	return target{path: withID(r.Path, msg.ID), policy: policy.Platform}
}

// invitationDoor is a door to an invitation the caller made (one the
// matrix's super admin made, for the anonymous caller).
func invitationDoor(t *testing.T, m *matrix, c caller, r web.Route, super bool) target {
	maker := m.staff
	if c.user != nil {
		maker = c.user.ID
	}
	inv := &models.Invitation{TokenHash: fmt.Sprintf("matrix-%d", m.seq.Add(1)), MaxUses: 1, ExpiresAt: time.Now().Add(time.Hour), CreatedBy: &maker}
	ctx := context.Background()
	if err := m.app.Store.Change(ctx, func(ctx context.Context) error { return m.app.Store.Invitations.CreateInvitation(ctx, inv) }); err != nil {
		t.Fatal(err)
	}
	return target{path: withID(r.Path, inv.ID), policy: policy.Owned(maker)}
}

func platformDoor(body string) fixture {
	return func(t *testing.T, m *matrix, c caller, r web.Route, super bool) target {
		return target{path: r.Path, body: body, policy: policy.Platform}
	}
}

// ownAccountDoor is a door to an action on the caller's own account, as a
// new caller of the kind; prepare, when set, readies the account and may
// give the path and body.
func ownAccountDoor(body string, prepare func(t *testing.T, m *matrix, c caller, r web.Route) (path, body string)) fixture {
	return func(t *testing.T, m *matrix, c caller, r web.Route, super bool) target {
		c = m.clone(t, c)
		tg := target{path: r.Path, body: body, policy: policy.Platform, as: &c}
		if c.user != nil {
			tg.policy = policy.Owned(c.user.ID)
		}
		if prepare != nil {
			if p, b := prepare(t, m, c, r); p != "" || b != "" {
				tg.path, tg.body = cmpOr(p, tg.path), cmpOr(b, tg.body)
			}
		}
		return tg
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// sessionID opens another session for user id and gives its id.
func (m *matrix) sessionID(t *testing.T, id int64) string {
	cookie := m.app.SessionFor(t, id).Get("Cookie")
	_, token, _ := strings.Cut(cookie, "=")
	return models.SessionID(token)
}

func ownSession(t *testing.T, m *matrix, c caller, r web.Route) (string, string) {
	id := "no-such-session"
	if c.user != nil {
		id = m.sessionID(t, c.user.ID)
	}
	return strings.Replace(r.Path, ":id", id, 1), ""
}

// setUp starts enrolment for a session caller and gives the secret.
func (m *matrix) setUp(t *testing.T, c caller) string {
	res := m.send(t, c, http.MethodPost, api.PathTwoFactorSetup, `{"password":"`+password+`"}`)
	var out struct{ Secret string }
	if err := json.Unmarshal([]byte(res.body), &out); err != nil || out.Secret == "" {
		t.Fatalf("setting up two-factor sign-in for %s: %d %s", c.name, res.status, res.body)
	}
	return out.Secret
}

func (m *matrix) code(t *testing.T, secret string) string {
	code, err := auth.TOTPCode(secret, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return code
}

func enableBody(t *testing.T, m *matrix, c caller, r web.Route) (string, string) {
	if c.user == nil || c.who.Via != access.ViaSession {
		return "", `{"code":"123456"}`
	}
	return "", `{"code":"` + m.code(t, m.setUp(t, c)) + `"}`
}

func enrolFirst(t *testing.T, m *matrix, c caller, r web.Route) (string, string) {
	if c.user == nil || c.who.Via != access.ViaSession {
		return "", ""
	}
	res := m.send(t, c, http.MethodPost, api.PathTwoFactorEnable, `{"code":"`+m.code(t, m.setUp(t, c))+`"}`)
	var enabled struct{ RecoveryCodes []string }
	if err := json.Unmarshal([]byte(res.body), &enabled); res.status != 200 || err != nil || len(enabled.RecoveryCodes) == 0 {
		t.Fatalf("enabling two-factor sign-in for %s: %d %s", c.name, res.status, res.body)
	}
	return "", `{"password":"` + password + `","code":"` + enabled.RecoveryCodes[0] + `"}`
}

// githubLink is the link route of GitHub, which the matrix's instances
// enable, for a caller whose address is verified first, as a link needs.
func githubLink(t *testing.T, m *matrix, c caller, r web.Route) (string, string) {
	if c.user != nil {
		err := m.app.Store.Change(context.Background(), func(ctx context.Context) error {
			_, err := m.app.Store.Users.ConfirmEmail(ctx, c.user.ID, c.user.Email)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return api.ProviderLinkPath("github"), ""
}

// linkedGitHub links a GitHub account to a session caller first.
func linkedGitHub(t *testing.T, m *matrix, c caller, r web.Route) (string, string) {
	if c.user != nil && c.who.Via == access.ViaSession {
		id := models.OAuthIdentity{Provider: "github", ProviderUserID: fmt.Sprint("matrix-", m.seq.Add(1)), Email: c.user.Email, EmailVerified: true}
		if err := m.app.Store.Auth.LinkProvider(context.Background(), c.user.ID, id); err != nil {
			t.Fatal(err)
		}
	}
	return api.ProviderLinkPath("github"), ""
}

// personSessionDoor is a door to one session of the person acted on.
func personSessionDoor(t *testing.T, m *matrix, c caller, r web.Route, super bool) target {
	u, tg := m.personOf(t, c, super)
	path := strings.Replace(withID(r.Path, u.ID), ":sessionId", m.sessionID(t, u.ID), 1)
	return target{path: path, policy: tg}
}

// tokenDoor is a door to a token the super admin holds.
func tokenDoor(t *testing.T, m *matrix, c caller, r web.Route, super bool) target {
	_, jti := m.app.TokenFor(t, m.staff, access.PermAdminRead)
	return target{path: strings.Replace(r.Path, ":id", jti, 1), policy: policy.Platform}
}

// backupDoor is a door to a backup file in the instance's folder: bytes
// under a backup's name, which is all a download or a deletion reads.
func backupDoor(t *testing.T, m *matrix, c caller, r web.Route, super bool) target {
	name := fmt.Sprintf("plaza-20261126T120000.%06dZ.db", m.seq.Add(1))
	dir := m.app.Deps.Config.BackupDir
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte("matrix backup"), 0o600); err != nil {
		t.Fatal(err)
	}
	return target{path: strings.Replace(r.Path, ":file", name, 1), policy: policy.Platform}
}

// The doors of acting as oneself: a bearer token needs its account scope
// (account:read to read one's own data, account:write to act).
func init() {
	for door, fx := range map[string]fixture{
		"GET " + api.PathSessions:               selfDoor(``),
		"GET " + api.PathConsoleAccountSessions: selfDoor(``),
		"GET " + api.PathNotifications:          selfDoor(``),
		"GET " + api.PathConsoleInbox:           selfDoor(``),
		"POST " + api.PathNotificationRead:      inboxDoor,
		"DELETE " + api.PathNotification:        inboxDoor,
		"POST " + api.PathPosts:                 selfDoor(`{"title":"Matrix","content":"x"}`),
		"POST " + api.PathPostReport:            reportDoor,
		// One's own staff alerts: the versioned routes and the console's
		// twins, which moderators use.
		"GET " + api.PathAdminV1AccountAlerts:  selfDoor(``),
		"GET " + api.PathConsoleAccountAlerts:  selfDoor(``),
		"PUT " + api.PathAdminV1AccountAlerts:  selfDoor(`{"reports":"daily","operations":false}`),
		"POST " + api.PathConsoleAccountAlerts: selfDoor(`{"reports":"hourly"}`),
	} {
		doorFixtures[door] = fx
	}
}

// inboxDoor is a door to a notification in the caller's inbox.
func inboxDoor(t *testing.T, m *matrix, c caller, r web.Route, super bool) target {
	if c.user == nil {
		return target{path: withID(r.Path, 1), policy: policy.Platform}
	}
	n := &models.Notification{UserID: c.user.ID, Title: "Matrix", Message: "m", Type: "info", CreatedAt: time.Now()}
	if _, err := m.app.Store.DB.NewInsert().Model(n).Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
	return target{path: strings.Replace(r.Path, ":id", api.NotificationID(n.ID, false), 1), policy: policy.Owned(c.user.ID)}
}

// reportDoor is a door to reporting someone else's post: the caller acts
// as itself.
func reportDoor(t *testing.T, m *matrix, c caller, r web.Route, super bool) target {
	id, _ := m.post(t, caller{})
	tg := policy.Platform
	if c.user != nil {
		tg = policy.Owned(c.user.ID)
	}
	return target{path: withID(r.Path, id), body: `{"reason":"matrix"}`, policy: tg}
}

// memberView is a read door's answer without staff data: what a member
// sees (a list or search without it, or not found).
const memberView = "what a member sees"

// readTarget is what one request to a read door asks for.
type readTarget struct {
	path string
	// named: the request asks for staff data by name (published=false, an
	// id), so staff who may not use their power now are refused with the
	// reason rather than shown less.
	named bool
	mark  string // in the answer only when it shows the staff data
}

// readFixture makes fresh staff data for a read door: a member's hidden
// post or private profile, marked by a word of its own.
type readFixture func(t *testing.T, m *matrix) readTarget

// readFixtures has one fixture per read of a door: "METHOD PATH action".
var readFixtures = map[string]readFixture{
	"GET " + api.PathPosts + " " + string(policy.SeeUnpublishedPosts): func(t *testing.T, m *matrix) readTarget {
		_, mark := m.hiddenPost(t)
		return readTarget{path: api.PathPosts + "?published=false&limit=100", named: true, mark: mark}
	},
	"GET " + api.PathPost + " " + string(policy.SeeUnpublishedPosts): func(t *testing.T, m *matrix) readTarget {
		id, mark := m.hiddenPost(t)
		return readTarget{path: withID(api.PathPost, id), named: true, mark: mark}
	},
	"GET " + api.PathUsers + " " + string(policy.SeePrivateProfiles): func(t *testing.T, m *matrix) readTarget {
		_, mark := m.privateProfile(t)
		return readTarget{path: api.PathUsers + "?limit=100", mark: mark}
	},
	"GET " + api.PathUser + " " + string(policy.SeePrivateProfiles): func(t *testing.T, m *matrix) readTarget {
		id, mark := m.privateProfile(t)
		return readTarget{path: withID(api.PathUser, id), named: true, mark: mark}
	},
	"GET " + api.PathSearch + " " + string(policy.SeeUnpublishedPosts):      searchRead(api.PathSearch, (*matrix).hiddenPost),
	"GET " + api.PathSearch + " " + string(policy.SeePrivateProfiles):       searchRead(api.PathSearch, (*matrix).privateProfile),
	"GET " + api.PathSearchPosts + " " + string(policy.SeeUnpublishedPosts): searchRead(api.PathSearchPosts, (*matrix).hiddenPost),
	"GET " + api.PathSearchUsers + " " + string(policy.SeePrivateProfiles):  searchRead(api.PathSearchUsers, (*matrix).privateProfile),
}

func searchRead(path string, make func(*matrix, *testing.T) (int64, string)) readFixture {
	return func(t *testing.T, m *matrix) readTarget {
		_, mark := make(m, t)
		return readTarget{path: path + "?q=" + mark, mark: mark}
	}
}

// hiddenPost is a member's post that moderation hid, titled by its mark.
func (m *matrix) hiddenPost(t *testing.T) (int64, string) {
	mark := fmt.Sprintf("Quokka%dz", m.seq.Add(1))
	author := m.app.User(t, strings.ToLower(mark)+"@example.com")
	var id int64
	err := m.app.Store.Change(context.Background(), func(ctx context.Context) error {
		p, err := m.app.Store.Posts.CreateUserPost(ctx, models.PostInput{AuthorID: author.ID, Title: mark + " hidden", Content: "x", Published: true})
		if err != nil {
			return err
		}
		id = p.ID
		return nil
	})
	if err == nil {
		_, err = m.app.Store.DB.NewUpdate().Model((*models.Post)(nil)).Set("status = ?", models.PostHidden).Where("id = ?", id).Exec(context.Background())
	}
	if err != nil {
		t.Fatal(err)
	}
	return id, mark
}

// privateProfile is a member who keeps its profile private, named by its
// mark.
func (m *matrix) privateProfile(t *testing.T) (int64, string) {
	mark := fmt.Sprintf("Quokka%dz", m.seq.Add(1))
	u := m.app.User(t, strings.ToLower(mark)+"@example.com")
	private := false
	err := m.app.Store.Change(context.Background(), func(ctx context.Context) error {
		_, err := m.app.Store.Users.UpdateProfile(ctx, u.ID, models.ProfileChange{Name: &mark, ProfilePublic: &private})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return u.ID, mark
}

// walkReads sends every caller through every read door: staff data shows
// only where the policy lets the caller use its power to read; where it
// does not, a request that names staff data is refused with the policy's
// reason when only a second factor is missing, and any other sees what a
// member sees. A door whose read has no fixture fails the test.
func (m *matrix) walkReads(t *testing.T) {
	reads := 0
	for _, r := range web.Routes(m.app.Deps) {
		for _, a := range r.Reads {
			reads++
			key := r.Method + " " + r.Path + " " + string(a)
			fx, ok := readFixtures[key]
			if !ok {
				t.Errorf("%s shows what %s decides but the matrix has no fixture for it", key, a)
				continue
			}
			t.Run(key, func(t *testing.T) { m.walkRead(t, r, a, fx) })
		}
	}
	if reads < len(readFixtures) {
		t.Errorf("%d reads at doors, %d read fixtures: a fixture's door is gone", reads, len(readFixtures))
	}
}

func (m *matrix) walkRead(t *testing.T, r web.Route, a policy.Action, fx readFixture) {
	for _, c := range m.callers {
		tg := fx(t, m)
		want := expected(r, c, a, policy.Platform)
		if want != allowed && (want != secondFactor || !tg.named) {
			want = memberView
		}
		got := m.send(t, c, r.Method, tg.path, "")
		class := got.class
		if got.status == 200 || got.status == 404 {
			class = memberView
			shown := strings.ReplaceAll(got.body, `"query":"`+tg.mark+`"`, "")
			if got.status == 200 && strings.Contains(shown, tg.mark) {
				class = allowed
			}
		}
		if class != want {
			t.Errorf("%s, GET %s: door answered %s (%d %.300s), the policy decides %s", c.name, tg.path, class, got.status, got.body, want)
		}
	}
}

// TestEveryActionHasADoor: every action of the policy table is the action
// or a read of some route, so that the matrix walks it, except those no
// HTTP route takes, each named with where it is taken. An action a
// handler asks without its route naming it shows up here.
func TestEveryActionHasADoor(t *testing.T) {
	app := apptest.New(t, dbtest.Open(t, "sqlite"))
	declared := map[policy.Action]bool{}
	for _, r := range web.Routes(app.Deps) {
		declared[r.Action] = true
		for _, a := range r.Reads {
			declared[a] = true
		}
	}
	elsewhere := map[policy.Action]string{
		policy.ResetTwoFactor: "the command line: plaza user reset-2fa",
		policy.CreateAccount:  "the command line: plaza user create",
		policy.Restore:        "the command line: plaza restore",
		policy.ChangeRole:     "PUT /api/v1/admin/users/{id} with a role, the door of user.update",
		// A stream the matrix cannot wait out; its refusals are
		// handlers' TestQueueEvents.
		policy.WatchModeration: "GET /admin/moderation/events",
		// The dashboard's analytics part; the analytics route itself
		// asks admin:read of every caller alike.
		policy.SeeAnalytics: "GET /admin, the dashboard's analytics for those who may read them",
		// Asked inside another action's door: a lock of a feature flag
		// is taken through the locks route (lock.acquire), and a decision
		// that undoes a standing one through the moderation, undo and
		// general post routes (post.moderate, post.edit).
		policy.TakeFlagLock:      "POST /api/v1/admin/locks with type feature_flag, the door of lock.acquire",
		policy.ReverseModeration: "the doors of post.moderate and post.edit, when a decision undoes a standing one",
		// Asked inside the door of account.alerts when operations alerts
		// are turned on; handlers' TestAlertPreferences walks it.
		policy.SetOperationsAlerts: "PUT /api/v1/admin/account/alerts and POST /admin/account/alerts with operations true, the doors of account.alerts",
		// Asked inside the doors of invitation.revoke when the invitation
		// is someone else's; handlers' TestInvitationPolicy walks it.
		policy.RevokeOthersInvitation: "DELETE /api/v1/admin/invitations/{id} and POST /admin/invitations/{id}/revoke on someone else's invitation, the doors of invitation.revoke",
	}
	for a := range policy.Table {
		if !declared[a] && elsewhere[a] == "" {
			t.Errorf("%s has no door in the route table", a)
		}
	}
}
