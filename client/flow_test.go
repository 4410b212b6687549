package client_test

import (
	"context"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/app/apptest"
	"github.com/plazahq/plaza/client"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/models/dbtest"
)

// TestFlows drives the main general and admin flows through the generated
// SDK against the real app on a loopback server, on both databases: a
// member registers, signs in, posts and finds the post by search; an
// admin lists, filters, reads and updates the member, sets a feature flag
// the member then sees, broadcasts to the member's inbox, hides the post,
// reads analytics, runs a maintenance job to completion, bans and unbans
// the member (who can sign in again) and reads the audit trail of it all.
func TestFlows(t *testing.T) {
	dbtest.ForEach(t, func(t *testing.T, db *bun.DB) {
		app := apptest.New(t, db)
		if err := app.Runtime.StartJobs(context.Background()); err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(app)
		t.Cleanup(srv.Close)
		super := app.User(t, "root@example.com", access.ImpliedRoles(access.RoleSuperAdmin)...)
		bearer, _ := app.TokenFor(t, super.ID, access.AllPermissions()...)
		admin := newClient(t, srv.URL, func(_ context.Context, req *http.Request) error {
			req.Header.Set("Authorization", bearer.Get("Authorization"))
			return nil
		})
		member := newClient(t, srv.URL) // its session cookie goes in its jar
		f := flow{t: t, ctx: context.Background(), app: app, admin: admin, member: member}
		id := f.memberJoins()
		f.adminManages(id)
		f.memberIsTold(id)
		f.adminModerates()
		f.adminRunsTheSite()
		f.banAndUnban(id)
		f.auditTrail(id)
	})
}

// newClient is an SDK client of the server at url with its own cookie jar.
func newClient(t *testing.T, url string, editors ...client.RequestEditorFn) *client.ClientWithResponses {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	opts := []client.ClientOption{client.WithHTTPClient(&http.Client{Jar: jar})}
	for _, e := range editors {
		opts = append(opts, client.WithRequestEditorFn(e))
	}
	c, err := client.NewClientWithResponses(url, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

type flow struct {
	t             *testing.T
	ctx           context.Context
	app           *apptest.App
	admin, member *client.ClientWithResponses
	postID        string
}

const (
	memberEmail    = "ada@example.com"
	memberPassword = "runner beans up the poles"
)

// check fails the flow unless the call succeeded with status want.
func (f *flow) check(what string, err error, res interface{ StatusCode() int }, body []byte, want int) {
	f.t.Helper()
	if err != nil {
		f.t.Fatalf("%s: %v", what, err)
	}
	if res.StatusCode() != want {
		f.t.Fatalf("%s: got %d %s, want %d", what, res.StatusCode(), body, want)
	}
}

// memberJoins registers, signs in, writes a post and finds it.
func (f *flow) memberJoins() string {
	reg, err := f.member.PostApiUsersWithResponse(f.ctx, client.Registration{Name: "Ada Gardener", Email: memberEmail, Password: memberPassword})
	f.check("register", err, reg, reg.Body, http.StatusCreated)
	if reg.JSON201.Email == nil || *reg.JSON201.Email != memberEmail || reg.JSON201.Name == nil || *reg.JSON201.Name != "Ada Gardener" {
		f.t.Errorf("registered %+v", reg.JSON201)
	}
	f.signIn()
	post, err := f.member.PostApiPostsWithResponse(f.ctx, client.NewPost{Title: "Runner beans", Content: "Sow them after the last frost.",
		Tags: &[]string{"beans"}, Published: new(true)})
	f.check("write a post", err, post, post.Body, http.StatusCreated)
	if post.JSON201.Status != "published" || post.JSON201.AuthorId != reg.JSON201.Id || post.JSON201.Title != "Runner beans" {
		f.t.Errorf("post %+v", post.JSON201)
	}
	f.postID = post.JSON201.Id
	found, err := f.member.GetApiSearchWithResponse(f.ctx, &client.GetApiSearchParams{Q: "frost", Type: new(client.GetApiSearchParamsTypePosts)})
	f.check("search", err, found, found.Body, http.StatusOK)
	if found.JSON200.Total != 1 || len(found.JSON200.Results) != 1 || found.JSON200.Results[0].Id != f.postID ||
		found.JSON200.Results[0].Type != client.SearchResultTypePost {
		f.t.Errorf("search for frost: %+v", found.JSON200)
	}
	return reg.JSON201.Id
}

func (f *flow) signIn() {
	f.t.Helper()
	in, err := f.member.PostApiAuthSigninWithResponse(f.ctx, client.SignInRequest{Email: memberEmail, Password: memberPassword})
	f.check("sign in", err, in, in.Body, http.StatusOK)
	if in.JSON200.User.Email != memberEmail {
		f.t.Errorf("signed in as %+v", in.JSON200.User)
	}
}

// adminManages finds the member by filters, reads and updates it.
func (f *flow) adminManages(id string) {
	list, err := f.admin.GetApiV1AdminUsersWithResponse(f.ctx, &client.GetApiV1AdminUsersParams{Search: new("ADA@"),
		Status: new(client.GetApiV1AdminUsersParamsStatusActive), Role: new(client.GetApiV1AdminUsersParamsRoleUser), Limit: new(5)})
	f.check("list users", err, list, list.Body, http.StatusOK)
	if p := list.JSON200.Meta.Pagination; p.Total != 1 || len(list.JSON200.Data) != 1 || list.JSON200.Data[0].Id != id || list.JSON200.Data[0].PostCount != 1 {
		f.t.Errorf("filtered list: %+v %+v", p, list.JSON200.Data)
	}
	none, err := f.admin.GetApiV1AdminUsersWithResponse(f.ctx, &client.GetApiV1AdminUsersParams{Search: new("ada@"),
		Status: new(client.GetApiV1AdminUsersParamsStatusBanned)})
	f.check("list banned users", err, none, none.Body, http.StatusOK)
	if len(none.JSON200.Data) != 0 {
		f.t.Errorf("banned users: %+v", none.JSON200.Data)
	}
	every, err := f.admin.GetApiV1AdminUsersWithResponse(f.ctx, &client.GetApiV1AdminUsersParams{
		Status: new(client.GetApiV1AdminUsersParamsStatusAll), Role: new(client.GetApiV1AdminUsersParamsRoleAll)})
	f.check("list every user", err, every, every.Body, http.StatusOK)
	if every.JSON200.Meta.Pagination.Total != 2 {
		f.t.Errorf("every user: %+v", every.JSON200.Meta.Pagination)
	}
	upd, err := f.admin.PutApiV1AdminUsersIdWithResponse(f.ctx, id, client.V1UserUpdate{IsVerified: new(true), Notes: new("Met at the seed swap")})
	f.check("update the user", err, upd, upd.Body, http.StatusOK)
	if !upd.JSON200.Data.IsVerified || upd.JSON200.Data.Status != client.V1UserStatusActive {
		f.t.Errorf("updated %+v", upd.JSON200.Data)
	}
	got, err := f.admin.GetApiV1AdminUsersIdWithResponse(f.ctx, id)
	f.check("get the user", err, got, got.Body, http.StatusOK)
	u := got.JSON200.Data
	if u.Email != memberEmail || u.Notes == nil || *u.Notes != "Met at the seed swap" || !u.IsVerified ||
		len(u.RecentPosts) != 1 || u.RecentPosts[0].Id != f.postID || !slices.Contains(u.Roles, "user") {
		f.t.Errorf("user %+v", u)
	}
}

// memberIsTold: a flag set for everyone and a broadcast to the member
// reach it.
func (f *flow) memberIsTold(id string) {
	flag, err := f.admin.PutApiV1AdminFeatureFlagsNameWithResponse(f.ctx, "seed_swap", client.V1FlagUpdate{Enabled: new(true),
		RolloutPercentage: new(100), Description: new("The seed swap page")})
	f.check("create a flag", err, flag, flag.Body, http.StatusCreated)
	if !flag.JSON201.Data.Enabled || flag.JSON201.Data.RolloutPercentage != 100 {
		f.t.Errorf("flag %+v", flag.JSON201.Data)
	}
	flags, err := f.admin.GetApiV1AdminFeatureFlagsWithResponse(f.ctx, &client.GetApiV1AdminFeatureFlagsParams{})
	f.check("list flags", err, flags, flags.Body, http.StatusOK)
	if !slices.ContainsFunc(flags.JSON200.Data, func(fl client.V1FeatureFlag) bool { return fl.Name == "seed_swap" && fl.Enabled }) {
		f.t.Errorf("flags %+v", flags.JSON200.Data)
	}
	mine, err := f.member.GetApiFeatureFlagsWithResponse(f.ctx)
	f.check("the member's flags", err, mine, mine.Body, http.StatusOK)
	if !(*mine.JSON200)["seed_swap"] {
		f.t.Errorf("the member's flags: %v", *mine.JSON200)
	}
	sent, err := f.admin.PostApiV1AdminNotificationsBroadcastWithResponse(f.ctx, client.V1BroadcastRequest{Title: "Seed swap",
		Message: "Saturday at the hall", Targets: []string{"user:" + id}, Type: new(client.V1BroadcastRequestTypeSuccess)})
	f.check("broadcast", err, sent, sent.Body, http.StatusCreated)
	if sent.JSON201.Data.Status != client.V1BroadcastStatusSent || sent.JSON201.Data.Recipients != 1 {
		f.t.Errorf("broadcast %+v", sent.JSON201.Data)
	}
	// The job queue delivers it within about a second.
	var inbox *client.Inbox
	apptest.WaitFor(f.t, "the broadcast in the inbox", func() bool {
		res, err := f.member.GetApiNotificationsWithResponse(f.ctx, nil)
		f.check("read the inbox", err, res, res.Body, http.StatusOK)
		inbox = res.JSON200
		return len(inbox.Notifications) > 0
	})
	if inbox.Unread != 1 || len(inbox.Notifications) != 1 || inbox.Notifications[0].Title != "Seed swap" ||
		inbox.Notifications[0].Type != client.NotificationTypeSuccess {
		f.t.Fatalf("inbox %+v", inbox)
	}
	read, err := f.member.PostApiNotificationsIdReadWithResponse(f.ctx, inbox.Notifications[0].Id)
	f.check("mark it read", err, read, read.Body, http.StatusOK)
	if read.JSON200.ReadAt == nil {
		f.t.Errorf("read %+v", read.JSON200)
	}
}

// adminModerates hides the member's post, which then no longer shows.
func (f *flow) adminModerates() {
	mod, err := f.admin.PostApiV1AdminPostsIdModerateWithResponse(f.ctx, f.postID, client.V1ModerationRequest{
		Action: client.V1ModerationRequestActionHide, Reason: new("Off topic")})
	f.check("hide the post", err, mod, mod.Body, http.StatusOK)
	hidden, err := mod.JSON200.AsV1OfV1Post()
	if err != nil || hidden.Data.Status != client.V1PostStatusHidden || hidden.Data.Id != f.postID {
		f.t.Errorf("moderated: %+v (%v)", hidden.Data, err)
	}
	posts, err := f.admin.GetApiV1AdminPostsWithResponse(f.ctx, &client.GetApiV1AdminPostsParams{Status: new(client.GetApiV1AdminPostsParamsStatusHidden)})
	f.check("list hidden posts", err, posts, posts.Body, http.StatusOK)
	if len(posts.JSON200.Data) != 1 || posts.JSON200.Data[0].Id != f.postID {
		f.t.Errorf("hidden posts %+v", posts.JSON200.Data)
	}
	found, err := f.member.GetApiSearchWithResponse(f.ctx, &client.GetApiSearchParams{Q: "frost"})
	f.check("search again", err, found, found.Body, http.StatusOK)
	if found.JSON200.Total != 0 {
		f.t.Errorf("a hidden post is found: %+v", found.JSON200)
	}
}

// adminRunsTheSite reads analytics and runs a maintenance job to the end.
func (f *flow) adminRunsTheSite() {
	stats, err := f.admin.GetApiV1AdminAnalyticsWithResponse(f.ctx, &client.GetApiV1AdminAnalyticsParams{
		Period: new(client.GetApiV1AdminAnalyticsParamsPeriodN30d), Metrics: &[]string{"users", "content"}})
	f.check("analytics", err, stats, stats.Body, http.StatusOK)
	a := stats.JSON200.Data
	if a.Period != "30d" || a.Users == nil || a.Users.Total != 2 || a.Users.New != 2 || a.Content == nil || a.Content.TotalPosts != 1 ||
		a.Engagement != nil || a.Moderation != nil {
		f.t.Errorf("analytics %+v users %+v content %+v", a, a.Users, a.Content)
	}
	queued, err := f.admin.PostApiV1AdminSystemMaintenanceWithResponse(f.ctx, client.V1MaintenanceRequest{
		Action: client.V1MaintenanceRequestActionRebuildSearch, Scope: new("posts")})
	f.check("queue a job", err, queued, queued.Body, http.StatusAccepted)
	if queued.JSON202.Data.Status != client.V1QueuedJobStatusQueued || queued.JSON202.Data.Scope != "posts" {
		f.t.Errorf("queued %+v", queued.JSON202.Data)
	}
	var job client.V1Job
	apptest.WaitFor(f.t, "the job to finish", func() bool {
		res, err := f.admin.GetApiV1AdminSystemJobsJobIdWithResponse(f.ctx, queued.JSON202.Data.JobId)
		f.check("read the job", err, res, res.Body, http.StatusOK)
		job = res.JSON200.Data
		return job.Status == client.V1JobStatusCompleted || job.Status == client.V1JobStatusFailed
	})
	if job.Status != client.V1JobStatusCompleted || job.Progress != 100 || job.FinishedAt == nil || job.Result == nil {
		f.t.Errorf("job %+v", job)
	}
}

// banAndUnban: a banned member cannot sign in; unbanned, it can.
func (f *flow) banAndUnban(id string) {
	ban, err := f.admin.PostApiV1AdminUsersIdBanWithResponse(f.ctx, id, client.V1BanRequest{Action: client.V1BanRequestActionBan,
		Reason: new("Spam"), Duration: new("7d")})
	f.check("ban", err, ban, ban.Body, http.StatusOK)
	if ban.JSON200.Data.User.Status != client.V1UserStatusBanned || ban.JSON200.Data.Ban == nil || ban.JSON200.Data.Ban.Reason != "Spam" ||
		ban.JSON200.Data.Ban.ExpiresAt == nil {
		f.t.Errorf("ban %+v", ban.JSON200.Data)
	}
	refused, err := f.member.PostApiAuthSigninWithResponse(f.ctx, client.SignInRequest{Email: memberEmail, Password: memberPassword})
	f.check("sign in while banned", err, refused, refused.Body, http.StatusUnauthorized)
	if refused.JSON401 == nil || refused.JSON401.Error.Code != "UNAUTHORIZED" {
		f.t.Errorf("refusal %s", refused.Body)
	}
	unban, err := f.admin.PostApiV1AdminUsersIdBanWithResponse(f.ctx, id, client.V1BanRequest{Action: client.V1BanRequestActionUnban})
	f.check("unban", err, unban, unban.Body, http.StatusOK)
	if unban.JSON200.Data.User.Status != client.V1UserStatusActive || unban.JSON200.Data.Ban == nil || unban.JSON200.Data.Ban.Id != ban.JSON200.Data.Ban.Id {
		f.t.Errorf("unban %+v", unban.JSON200.Data)
	}
	f.signIn()
}

// auditTrail reads what the admin did to the member, by target.
func (f *flow) auditTrail(id string) {
	f.app.FlushAudit(f.t) // reads are audited by a group-commit writer
	log, err := f.admin.GetApiV1AdminAuditLogsWithResponse(f.ctx, &client.GetApiV1AdminAuditLogsParams{TargetType: new("user"), TargetId: new(id)})
	f.check("the member's audit trail", err, log, log.Body, http.StatusOK)
	var actions []string
	for _, e := range log.JSON200.Data {
		if e.TargetType != "user" || e.TargetId != id || e.Status != http.StatusOK {
			f.t.Errorf("entry %+v", e)
		}
		actions = append(actions, e.Action)
	}
	// Newest first: the unban, the ban, the reading and the update.
	if want := []string{"user.ban", "user.ban", "user.view", "user.update"}; !slices.Equal(actions, want) {
		f.t.Errorf("actions %v, want %v", actions, want)
	}
	flags, err := f.admin.GetApiV1AdminAuditLogsWithResponse(f.ctx, &client.GetApiV1AdminAuditLogsParams{TargetType: new("feature_flag")})
	f.check("the flags' audit trail", err, flags, flags.Body, http.StatusOK)
	if len(flags.JSON200.Data) != 1 || flags.JSON200.Data[0].TargetId != "seed_swap" || flags.JSON200.Data[0].Action != "feature_flag.update" {
		f.t.Errorf("flag entries %+v", flags.JSON200.Data)
	}
}
