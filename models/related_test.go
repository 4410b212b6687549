package models_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// relatedWorld is a store whose clock a test sets, and the accounts it
// makes by username.
type relatedWorld struct {
	t     *testing.T
	s     *models.Store
	now   time.Time
	users map[string]*models.User
}

func newRelatedWorld(t *testing.T, db *bun.DB) *relatedWorld {
	w := &relatedWorld{t: t, s: models.NewStore(db), now: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC), users: map[string]*models.User{}}
	w.s.Now = func() time.Time { return w.now }
	return w
}

// signUp registers name with email from ip, at offset from the world's
// start; ip "" is an account made by staff, from no address.
func (w *relatedWorld) signUp(name, email, ip string, offset time.Duration) *models.User {
	w.t.Helper()
	ctx := context.Background()
	start := w.now
	w.now = start.Add(offset)
	defer func() { w.now = start }()
	var u *models.User
	err := w.s.Change(ctx, func(ctx context.Context) (err error) {
		if ip == "" {
			u, err = w.s.Users.CreateUser(ctx, models.NewUser{Username: name, Email: email})
			return err
		}
		u, err = w.s.Users.RegisterUser(ctx, models.NewRegistration{Name: name, Email: email, PasswordHash: "h", IP: ip})
		return err
	})
	if err != nil {
		w.t.Fatalf("sign up %s: %v", name, err)
	}
	w.users[name] = u
	return u
}

// signIn records sign-ins of name from each of ips.
func (w *relatedWorld) signIn(name string, ips ...string) {
	w.t.Helper()
	for _, ip := range ips {
		if err := w.s.Users.RecordLogin(context.Background(), w.users[name].ID, "password", ip, "test"); err != nil {
			w.t.Fatal(err)
		}
	}
}

// related is RelatedAccounts of name, by username.
func (w *relatedWorld) related(name string, limit int) (map[string]models.RelatedAccount, []string, bool) {
	w.t.Helper()
	r, err := w.s.Users.RelatedAccounts(context.Background(), w.users[name].ID, limit)
	if err != nil {
		w.t.Fatalf("related accounts of %s: %v", name, err)
	}
	got := map[string]models.RelatedAccount{}
	var order []string
	for _, a := range r.Accounts {
		got[a.Username] = a
		order = append(order, a.Username)
	}
	return got, order, r.Truncated
}

// TestRelatedAccounts: accounts that signed up or signed in from one of a
// user's addresses, from another address of its /24 or /64, whose email
// reaches its mailbox, or that signed up in the same minute from its
// range are related, each with why; a different range is not, nor the
// user itself.
func TestRelatedAccounts(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		w := newRelatedWorld(t, db)
		w.signUp("ana", "a.b+x@gmail.com", "203.0.113.7", 0)
		w.signIn("ana", "2001:db8:1:2::7", "203.0.113.7", "2001:DB8:1:2::7")

		w.signUp("exact", "exact@example.org", "198.51.100.1", -10*24*time.Hour)
		w.signIn("exact", "203.0.113.7", "203.0.113.7")
		w.signUp("exact6", "exact6@example.org", "", -9*24*time.Hour)
		w.signIn("exact6", "2001:db8:1:2::7")
		w.signUp("near4", "near4@example.org", "203.0.113.99", -5*24*time.Hour)
		w.signUp("near6", "near6@example.org", "", -4*24*time.Hour)
		w.signIn("near6", "2001:db8:1:2::ffff")
		w.signUp("mailbox", "ab@googlemail.com", "", -3*24*time.Hour)
		w.signUp("batch", "batch@example.org", "203.0.113.50", 30*time.Second)
		w.signUp("late", "late@example.org", "203.0.113.51", 2*time.Minute)
		w.signUp("everything", "A.B@gmail.com", "203.0.113.7", -20*time.Second)
		w.signIn("everything", "203.0.113.8")
		// Not related: the next /24, the next /64, a mailbox of its own.
		w.signUp("far4", "far4@example.org", "203.0.114.7", time.Second)
		w.signIn("far4", "203.0.114.7")
		w.signUp("far6", "far6@example.org", "", 0)
		w.signIn("far6", "2001:db8:1:3::7")
		w.signUp("other", "a.b.c@gmail.com", "192.0.2.1", -time.Hour)

		got, order, truncated := w.related("ana", 0)
		want := map[string]struct{ reasons, addresses, ranges []string }{
			"exact":      {[]string{"address"}, []string{"203.0.113.7"}, nil},
			"exact6":     {[]string{"address"}, []string{"2001:db8:1:2::7"}, nil},
			"near4":      {[]string{"range"}, nil, []string{"203.0.113.0/24"}},
			"near6":      {[]string{"range"}, nil, []string{"2001:db8:1:2::/64"}},
			"mailbox":    {[]string{"email"}, nil, nil},
			"batch":      {[]string{"range", "signup"}, nil, []string{"203.0.113.0/24"}},
			"late":       {[]string{"range"}, nil, []string{"203.0.113.0/24"}},
			"everything": {[]string{"address", "email", "range", "signup"}, []string{"203.0.113.7"}, []string{"203.0.113.0/24"}},
		}
		for name, wa := range want {
			a, ok := got[name]
			if !ok {
				t.Errorf("%s is not related to ana; want %v", name, wa.reasons)
				continue
			}
			if !slices.Equal(wa.reasons, a.Reasons) {
				t.Errorf("%s's reasons: %v, want %v", name, a.Reasons, wa.reasons)
			}
			if !slices.Equal(wa.addresses, a.Addresses) || !slices.Equal(wa.ranges, a.Ranges) {
				t.Errorf("%s shares addresses %v and ranges %v, want %v and %v", name, a.Addresses, a.Ranges, wa.addresses, wa.ranges)
			}
			if u := w.users[name]; a.ID != u.ID || a.Email != u.Email || a.Status != models.UserActive || !a.CreatedAt.Equal(u.CreatedAt) {
				t.Errorf("%s reads %+v, want id %d, email %s, active, joined %v", name, a, u.ID, u.Email, u.CreatedAt)
			}
		}
		for name := range got {
			if _, ok := want[name]; !ok {
				t.Errorf("%s is related to ana (%v); want it not", name, got[name].Reasons)
			}
		}
		// Most reasons first, then newest.
		wantOrder := []string{"everything", "batch", "late", "mailbox", "near6", "near4", "exact6", "exact"}
		if !slices.Equal(order, wantOrder) {
			t.Errorf("order %v, want %v", order, wantOrder)
		}
		if truncated {
			t.Error("truncated with every account shown")
		}

		two, order, truncated := w.related("ana", 2)
		if len(two) != 2 || !truncated || !slices.Equal(order, wantOrder[:2]) {
			t.Errorf("limit 2: %v (truncated %t), want %v truncated", order, truncated, wantOrder[:2])
		}
		if _, _, truncated := w.related("ana", len(wantOrder)); truncated {
			t.Error("limit of exactly every account: truncated")
		}

		// The relation holds both ways, through what each one kept.
		back, _, _ := w.related("near6", 0)
		if a, ok := back["ana"]; !ok || !slices.Equal(a.Reasons, []string{"range"}) || !slices.Equal(a.Ranges, []string{"2001:db8:1:2::/64"}) {
			t.Errorf("near6's related: %+v, want ana by range 2001:db8:1:2::/64", back)
		}

		if _, err := w.s.Users.RelatedAccounts(context.Background(), 1<<40, 0); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("unknown user: %v, want ErrNotFound", err)
		}
	})
}

// TestRelatedByMailbox: a +tag reaches the same mailbox everywhere; dots
// only at Gmail.
func TestRelatedByMailbox(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		w := newRelatedWorld(t, db)
		w.signUp("x", "x@example.org", "", 0)
		w.signUp("xtag", "x+1@example.org", "", time.Hour)
		w.signUp("ab", "a.b@example.org", "", 0)
		w.signUp("anb", "ab@example.org", "", 0)
		w.signUp("loner", "loner@example.org", "", 0)
		if got, _, _ := w.related("x", 0); len(got) != 1 || !slices.Equal(got["xtag"].Reasons, []string{"email"}) {
			t.Errorf("x@example.org's related: %+v, want x+1@example.org by email", got)
		}
		if got, _, _ := w.related("ab", 0); len(got) != 0 {
			t.Errorf("a.b@example.org's related: %+v, want none (dots count outside Gmail)", got)
		}
		if got, _, truncated := w.related("loner", 0); len(got) != 0 || truncated {
			t.Errorf("an account sharing nothing: %+v (truncated %t)", got, truncated)
		}
	})
}

// TestRelatedAccountStanding: each related account comes with its status
// as the users list shows it, its posts and the reports against them.
func TestRelatedAccountStanding(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		w := newRelatedWorld(t, db)
		ctx := context.Background()
		w.signUp("ana", "ana@example.org", "198.51.100.7", 0)
		spam := w.signUp("spam", "spam@example.org", "198.51.100.7", time.Hour)
		w.signUp("reporter", "reporter@example.org", "", 0)
		err := w.s.Change(ctx, func(ctx context.Context) error {
			for range 2 {
				p, err := w.s.Posts.CreateUserPost(ctx, models.PostInput{AuthorID: spam.ID, Title: "Cheap seeds", Content: "x", Published: true})
				if err != nil {
					return err
				}
				if _, _, err := w.s.Posts.ReportPost(ctx, p.ID, w.users["reporter"].ID, "spam", ""); err != nil {
					return err
				}
			}
			_, err := w.s.Sanctions.BanUser(ctx, models.BanInput{UserID: spam.ID, AdminID: w.users["reporter"].ID, Reason: "spam"})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		got, _, _ := w.related("ana", 0)
		if a := got["spam"]; a.Status != models.UserBanned || a.PostCount != 2 || a.ReportsReceived != 2 {
			t.Errorf("spam reads %+v, want banned with 2 posts and 2 reports", a)
		}
	})
}

// TestRegistrationKeepsItsAddress: a sign-up keeps its address in one
// spelling with its range, a sign-in its range, and an email change the
// mailbox of the new address.
func TestRegistrationKeepsItsAddress(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		w := newRelatedWorld(t, db)
		ctx := context.Background()
		u := w.signUp("ana", "A.Na+Signup@GMail.com", "::ffff:203.0.113.7", 0)
		w.signIn("ana", "2001:db8:1:2::7")
		var row models.User
		if err := db.NewSelect().Model(&row).Where("u.id = ?", u.ID).Scan(ctx); err != nil {
			t.Fatal(err)
		}
		if row.SignupIP != "203.0.113.7" || row.SignupNet != "203.0.113.0/24" || row.EmailCanonical != "ana@gmail.com" {
			t.Errorf("kept signup_ip %q, signup_net %q, email_canonical %q", row.SignupIP, row.SignupNet, row.EmailCanonical)
		}
		var login models.Login
		if err := db.NewSelect().Model(&login).Where("l.user_id = ?", u.ID).Scan(ctx); err != nil {
			t.Fatal(err)
		}
		if login.IPAddress != "2001:db8:1:2::7" || login.IPNet != "2001:db8:1:2::/64" {
			t.Errorf("sign-in kept %q in %q", login.IPAddress, login.IPNet)
		}
		if err := w.s.Users.ChangeEmail(ctx, u.ID, "Ana+New@Example.org"); err != nil {
			t.Fatal(err)
		}
		if err := db.NewSelect().Model(&row).Where("u.id = ?", u.ID).Scan(ctx); err != nil {
			t.Fatal(err)
		}
		if row.Email != "ana+new@example.org" || row.EmailCanonical != "ana@example.org" {
			t.Errorf("after the change: email %q, email_canonical %q", row.Email, row.EmailCanonical)
		}
		w.signUp("other", "other@example.org", "", 0)
		if err := w.s.Users.ChangeEmail(ctx, u.ID, "other@example.org"); !errors.Is(err, models.ErrEmailTaken) {
			t.Errorf("an email another account holds: %v, want ErrEmailTaken", err)
		}
		if err := w.s.Users.ChangeEmail(ctx, 1<<40, "nobody@example.org"); !errors.Is(err, models.ErrNotFound) {
			t.Errorf("an unknown user: %v, want ErrNotFound", err)
		}
	})
}

// TestFillRelatedColumns: rows written before the columns were kept get
// them at start, in batches; rows with nothing to derive from stay, and a
// second run finds nothing to do.
func TestFillRelatedColumns(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		w := newRelatedWorld(t, db)
		ctx := context.Background()
		const many = 1001 // more than two batches
		// Written as before the columns were kept: straight into the
		// tables, the new columns left empty.
		users := make([]models.User, many)
		for i := range users {
			email := "Old.One+" + strconv.Itoa(i) + "@GoogleMail.com"
			if i%2 == 0 {
				email = "old" + strconv.Itoa(i) + "@example.org"
			}
			users[i] = models.User{Username: "old" + strconv.Itoa(i), Email: strings.ToLower(email), Status: models.UserActive,
				IsActive: true, CreatedAt: w.now, UpdatedAt: w.now}
		}
		if _, err := db.NewInsert().Model(&users).Returning("id").Exec(ctx); err != nil {
			t.Fatal(err)
		}
		logins := make([]models.Login, 0, many+1)
		for i, u := range users {
			w.users[u.Username] = &users[i]
			logins = append(logins, models.Login{UserID: u.ID, Method: "password", IPAddress: fmt.Sprintf("10.%d.%d.1", i/256, i%256), CreatedAt: w.now})
		}
		logins = append(logins, models.Login{UserID: users[0].ID, Method: "password", CreatedAt: w.now}) // no address: nothing to fill
		if _, err := db.NewInsert().Model(&logins).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		n, err := w.s.Users.FillRelatedColumns(ctx)
		if err != nil || n != 2*many {
			t.Fatalf("filled %d (%v), want %d users and %d sign-ins", n, err, many, many)
		}
		var left int
		err = db.NewRaw(`SELECT (SELECT count(*) FROM users WHERE email_canonical = '') + (SELECT count(*) FROM logins WHERE ip_net = '' AND ip_address <> '')`).Scan(ctx, &left)
		if err != nil || left != 0 {
			t.Errorf("%d rows left empty (%v)", left, err)
		}
		var canon []string
		if err := db.NewRaw(`SELECT email_canonical FROM users WHERE username IN ('old1', 'old2') ORDER BY username`).Scan(ctx, &canon); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(canon, []string{"oldone@gmail.com", "old2@example.org"}) {
			t.Errorf("filled %v, want oldone@gmail.com and old2@example.org", canon)
		}
		got, _, _ := w.related("old1", models.MaxRelatedLimit)
		if len(got) != many/2-1 {
			t.Errorf("old1 has %d related accounts after the fill, want the %d others of its mailbox", len(got), many/2-1)
		}
		if n, err := w.s.Users.FillRelatedColumns(ctx); err != nil || n != 0 {
			t.Errorf("a second run filled %d (%v), want 0", n, err)
		}
	})
}

// TestConfirmedEmailMovesTheMailbox: an address changed through its link
// is found by the mailbox it reaches now, not the one it left.
func TestConfirmedEmailMovesTheMailbox(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		w := newRelatedWorld(t, db)
		w.signUp("mover", "mover@example.org", "", 0)
		w.signUp("old", "mover+old@example.org", "", 0)
		w.signUp("new", "j.doe@gmail.com", "", 0)
		if _, err := w.s.Users.ConfirmEmail(context.Background(), w.users["mover"].ID, "JDoe+x@googlemail.com"); err != nil {
			t.Fatal(err)
		}
		if got, _, _ := w.related("mover", 0); len(got) != 1 || !slices.Equal(got["new"].Reasons, []string{"email"}) {
			t.Errorf("after the change: %+v, want j.doe@gmail.com by email only", got)
		}
	})
}
