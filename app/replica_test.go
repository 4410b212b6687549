package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/app"
	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestReplicaServesLagTolerantReads starts Plaza with DATABASE_REPLICA_URL
// naming a second PostgreSQL database that holds other data than the
// primary: lists, reports, analytics and exports show the second
// database's, while a write's answer and a user's record show the
// primary's.
func TestReplicaServesLagTolerantReads(t *testing.T) {
	primary := dbtest.Open(t, config.DialectPostgres)
	replica, replicaURL := dbtest.OpenURL(t, config.DialectPostgres)
	fillReplica(t, models.NewStore(replica))

	cfg := apptest.Config(t)
	cfg.DatabaseReplicaURL = replicaURL
	a := apptest.NewWithConfig(t, primary, cfg, app.Options{})
	root, _ := a.Admin(t)
	mine := a.User(t, "primary.only@example.com")

	for _, path := range []string{
		"/api/v1/admin/users?limit=100",
		"/api/admin/users",
		"/api/v1/admin/posts",
		"/api/v1/admin/audit-logs",
		"/api/v1/admin/audit-logs/export",
		"/api/v1/admin/reports/user-activity",
		"/api/v1/admin/reports/user-activity?format=csv",
		"/api/v1/admin/reports/moderation",
		"/api/v1/admin/reports/moderation?format=csv",
		"/admin/users",
	} {
		res := apptest.Do(t, a, http.MethodGet, path, root)
		body := res.Body.String()
		if res.Code != http.StatusOK || !strings.Contains(body, "replica_marker") || strings.Contains(body, mine.Username) {
			t.Errorf("GET %s: %d, want the replica's replica_marker and not the primary's %s:\n%.600s", path, res.Code, mine.Username, body)
		}
	}

	var figures struct{ Data api.V1Analytics }
	decode(t, apptest.Do(t, a, http.MethodGet, "/api/v1/admin/analytics?metrics=users", root), &figures)
	if figures.Data.Users == nil || figures.Data.Users.Total != 2 {
		t.Errorf("analytics counted users %+v, want the replica's two", figures.Data.Users)
	}
	var stats api.AdminStats
	decode(t, apptest.Do(t, a, http.MethodGet, "/api/admin/stats", root), &stats)
	if stats.Users.Total != 2 {
		t.Errorf("stats counted %d users, want the replica's two", stats.Users.Total)
	}

	// A write answers with what it wrote, read in its own transaction on
	// the primary; a user's record is read there too.
	res := apptest.DoBody(t, a, http.MethodPut, fmt.Sprintf("/api/v1/admin/users/%d", mine.ID), root, `{"notes":"seen on the primary"}`)
	if res.Code != http.StatusOK || !strings.Contains(res.Body.String(), mine.Username) {
		t.Errorf("PUT answered %d %s, want the primary's user", res.Code, res.Body)
	}
	res = apptest.Do(t, a, http.MethodGet, fmt.Sprintf("/api/v1/admin/users/%d", mine.ID), root)
	if res.Code != http.StatusOK || !strings.Contains(res.Body.String(), "seen on the primary") {
		t.Errorf("GET the user answered %d %s, want the primary's record with the notes just written", res.Code, res.Body)
	}

	var health api.Health
	decode(t, apptest.Do(t, a, http.MethodGet, "/api/health", nil), &health)
	if health.Replica == nil || health.Replica.Database != api.DatabaseConnected || health.Replica.LagSeconds != nil {
		t.Errorf("health reported the replica as %+v, want connected with no lag measurable", health.Replica)
	}
}

// fillReplica gives the replica a user, a post, a report of it, its
// moderation and an audit entry the primary does not have.
func fillReplica(t *testing.T, s *models.Store) {
	t.Helper()
	ctx := context.Background()
	u, err := s.Users.CreateUser(ctx, models.NewUser{Username: "replica_marker", Email: "replica@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	reporter, err := s.Users.CreateUser(ctx, models.NewUser{Username: "replica_reporter", Email: "reporter@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	err = s.Change(ctx, func(ctx context.Context) error {
		p, err := s.Posts.CreateUserPost(ctx, models.PostInput{AuthorID: u.ID, Title: "replica_marker's post", Content: "only here", Published: true})
		if err != nil {
			return err
		}
		if _, _, err := s.Posts.ReportPost(ctx, p.ID, reporter.ID, "spam", ""); err != nil {
			return err
		}
		_, err = s.Desk.ModeratePost(ctx, models.Moderation{PostID: p.ID, AdminID: u.ID, Action: "hide", Reason: "spam"})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	e := &models.AuditEntry{AdminUsername: "replica_marker", Action: "user.update", TargetType: "user", TargetID: fmt.Sprint(u.ID), Status: 200, Details: map[string]any{}}
	if err := s.Audit.AppendAudit(ctx, s.DB, e); err != nil {
		t.Fatal(err)
	}
}

func decode(t *testing.T, res interface{ Result() *http.Response }, into any) {
	t.Helper()
	r := res.Result()
	defer r.Body.Close()
	if r.StatusCode != http.StatusOK {
		t.Fatalf("answered %d", r.StatusCode)
	}
	if err := json.NewDecoder(r.Body).Decode(into); err != nil {
		t.Fatal(err)
	}
}

// TestReplicaThatDoesNotAnswer stops start-up with a message naming the
// setting.
func TestReplicaThatDoesNotAnswer(t *testing.T) {
	primary := dbtest.Open(t, config.DialectPostgres)
	cfg := apptest.Config(t)
	cfg.DatabaseURL = dbtest.URL(t, primary)
	missing, err := url.Parse(dbtest.PostgresServerURL(t))
	if err != nil {
		t.Fatal(err)
	}
	missing.Path = "/plaza_no_such_replica"
	cfg.DatabaseReplicaURL = missing.String()
	rt, err := app.Open(context.Background(), cfg, slog.New(slog.DiscardHandler), app.Options{DB: primary})
	if err == nil {
		rt.Close()
		t.Fatal("Plaza started with a replica that does not answer")
	}
	if !strings.HasPrefix(err.Error(), "DATABASE_REPLICA_URL: ") {
		t.Errorf("start-up said %q, want a message naming DATABASE_REPLICA_URL", err)
	}
}
