// Package seed fills a Plaza database with generated data: Bulk writes
// realistic data in bulk for benchmarks and trials, Demo the small demo
// community of a first start. Both write through the schema of package
// models and its types.
package seed

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/internal/config"
	"github.com/plazahq/plaza/models"
)

// Options says how much data Bulk generates.
type Options struct {
	Users, Posts, Events int
	// Seed seeds the generator: the same Seed on the same database state
	// gives the same data. Zero picks a random seed.
	Seed uint64
	// Progress, when set, is called after every batch with the stage name
	// (StageUsers, StagePosts, StageReports, StageEvents), the rows of that
	// stage written so far and the stage's total. The last call of a stage
	// has done == total. Calls never overlap.
	Progress func(stage string, done, total int64)
}

// Result counts the rows Bulk or Demo wrote.
type Result struct {
	Users, Posts, Reports, Events int
}

// Stages reported to Options.Progress.
const (
	StageUsers   = "users"
	StagePosts   = "posts"
	StageReports = "reports"
	StageEvents  = "events"
)

// Bulk fills the database with realistic bulk data for benchmarks and
// demos: users with roles, sign-in provider accounts, subscriptions and
// bans; posts with tags and reports; analytics events. It adds to what is
// there (usernames and emails stay unique because their number is the new
// user's id) and leaves every sequence past the ids it used.
//
// Posts, reports and events are attributed to the users seeded in the same
// call or, when Users is zero, to the users already in the database (whose
// post_count is then recounted). The denormalised counters
// (models.User.PostCount, models.Post.ReportCount) are written exact: every
// post's author and every post's report count are planned before the rows
// that carry the counters are written.
//
// PostgreSQL rows go in through COPY on a few connections in parallel
// (with the session settings of postgresSettings: as a superuser, the
// foreign-key triggers of those sessions are skipped, the data being
// consistent by construction); SQLite rows through multi-row INSERTs, one
// transaction per batch. Indexes and constraints are never dropped or
// altered. Each batch commits on its own: Bulk is not atomic, and a failure
// part-way leaves the batches already written (whose users.post_count may
// then count posts that were never written).
func Bulk(ctx context.Context, s *models.Store, opts Options) (Result, error) {
	if opts.Users < 0 || opts.Posts < 0 || opts.Events < 0 {
		return Result{}, errors.New("seed: negative count")
	}
	res, err := newSeeder(s, opts).run(ctx)
	if err != nil {
		return res, fmt.Errorf("seed: %w", err)
	}
	return res, nil
}

// newSeeder prepares a Bulk call on s; a zero opts.Seed draws one.
func newSeeder(s *models.Store, opts Options) *seeder {
	sd := &seeder{
		s:    s,
		opts: opts,
		seed: opts.Seed,
		now:  s.Timestamp(),
		pg:   s.Dialect() == config.DialectPostgres,
		text: newFakeText(),
		prog: newProgress(opts.Progress),
	}
	if sd.seed == 0 {
		sd.seed = rand.Uint64() | 1
	}
	return sd
}

// Batch sizes: rows generated and committed together.
const (
	seedBatchPG     = 20000
	seedBatchSQLite = 5000
	// seedPGWorkers is how many connections COPY at once. Two cores are
	// kept busy by two server processes building index entries while a
	// third batch is being generated.
	seedPGWorkers = 3
)

// Stream numbers keep each stage's random numbers apart, so the data of one
// batch depends only on the seed, the stage and the batch number.
const (
	streamPlan uint64 = iota + 1
	streamUsers
	streamPosts
	streamReports
	streamEvents
)

type seeder struct {
	s    *models.Store
	opts Options
	seed uint64
	now  time.Time
	pg   bool
	text *fakeText
	prog *progress

	// pool is who posts, reports and generates events: the users seeded now
	// or, when none are, the users already there.
	poolIDs     []int64
	poolCreated []int64 // Unix microseconds
	poolIsNew   bool
	moderators  []int64 // some moderators, who resolve reports

	// Plan for new users: each one's created_at and number of posts.
	userCreated []int64
	postCounts  []int32
	// Plan for posts: the pool index of each post's author, and when it
	// was written (Unix microseconds), in id order.
	authors     []int32
	postCreated []int64

	roleUser, roleModerator int64
	subTypes                [3]int64 // Newsletter, Supporter, Pro

	reported [][]reportedPost // per post batch

	pgSettings string // SET LOCAL statements of each COPY transaction
}

// reportedPost is a post that gets reports in the reports stage.
type reportedPost struct {
	postID    int64
	author    int32 // pool index
	createdAt int64 // Unix microseconds
	reports   int32
}

func (sd *seeder) rng(stream uint64, batch int) *rand.Rand {
	return rand.New(rand.NewPCG(sd.seed, stream<<48|uint64(batch)))
}

func (sd *seeder) batchSize() int {
	if sd.pg {
		return seedBatchPG
	}
	return seedBatchSQLite
}

func (sd *seeder) run(ctx context.Context) (Result, error) {
	var res Result
	if err := sd.lookups(ctx); err != nil {
		return res, err
	}
	if err := sd.plan(ctx); err != nil {
		return res, err
	}
	if sd.opts.Users > 0 {
		if err := sd.stage(ctx, StageUsers, sd.opts.Users, "users", streamUsers, sd.genUsers); err != nil {
			return res, err
		}
		res.Users = sd.opts.Users
	}
	if err := sd.loadModerators(ctx); err != nil {
		return res, err
	}
	if sd.opts.Posts > 0 {
		sd.reported = make([][]reportedPost, numBatches(sd.opts.Posts, sd.batchSize()))
		if err := sd.stage(ctx, StagePosts, sd.opts.Posts, "posts", streamPosts, sd.genPosts); err != nil {
			return res, err
		}
		res.Posts = sd.opts.Posts
		if !sd.poolIsNew {
			if err := sd.recountPostCounts(ctx); err != nil {
				return res, err
			}
		}
		n, err := sd.reports(ctx)
		if err != nil {
			return res, err
		}
		res.Reports = n
	}
	if sd.opts.Events > 0 {
		if err := sd.stage(ctx, StageEvents, sd.opts.Events, "", streamEvents, sd.genEvents); err != nil {
			return res, err
		}
		res.Events = sd.opts.Events
	}
	return res, nil
}

// lookups reads the role ids and makes sure the subscription types exist.
func (sd *seeder) lookups(ctx context.Context) error {
	var roles []models.Role
	if err := sd.s.DB.NewSelect().Model(&roles).Where("name IN (?, ?)", models.RoleUser, models.RoleModerator).Scan(ctx); err != nil {
		return fmt.Errorf("read roles: %w", err)
	}
	for _, r := range roles {
		switch r.Name {
		case models.RoleUser:
			sd.roleUser = r.ID
		case models.RoleModerator:
			sd.roleModerator = r.ID
		}
	}
	if sd.roleUser == 0 || sd.roleModerator == 0 {
		return fmt.Errorf("roles user and moderator: %w", models.ErrNotFound)
	}
	if sd.pg {
		var err error
		if sd.pgSettings, err = postgresSettings(ctx, sd.s.DB); err != nil {
			return err
		}
	}
	if sd.opts.Users == 0 {
		return nil
	}
	return ensureSubscriptionTypes(ctx, sd.s.DB, sd.now, &sd.subTypes)
}

// seedSubscriptionTypes are the kinds of subscription seeded users hold.
var seedSubscriptionTypes = []models.SubscriptionType{
	{Name: "Newsletter", Description: "The monthly community newsletter"},
	{Name: "Supporter", Description: "Supports the community with a small monthly donation"},
	{Name: "Pro", Description: "Larger uploads, early access to new features"},
}

// ensureSubscriptionTypes creates the seeded subscription types that are
// missing and, when ids is set, stores their ids in seedSubscriptionTypes'
// order.
func ensureSubscriptionTypes(ctx context.Context, db bun.IDB, now time.Time, ids *[3]int64) error {
	types := slices.Clone(seedSubscriptionTypes)
	names := make([]string, len(types))
	for i := range types {
		types[i].CreatedAt = now
		names[i] = types[i].Name
	}
	if _, err := db.NewInsert().Model(&types).On("CONFLICT (name) DO NOTHING").Exec(ctx); err != nil {
		return fmt.Errorf("create subscription types: %w", err)
	}
	if ids == nil {
		return nil
	}
	var stored []models.SubscriptionType
	if err := db.NewSelect().Model(&stored).Where("name IN (?)", bun.List(names)).Scan(ctx); err != nil {
		return fmt.Errorf("read subscription types: %w", err)
	}
	for _, t := range stored {
		if i := slices.Index(names, t.Name); i >= 0 {
			ids[i] = t.ID
		}
	}
	return nil
}

// plan decides, before any row is written, when each new user signed up,
// who writes each post and so how many posts each new user has.
func (sd *seeder) plan(ctx context.Context) error {
	r := sd.rng(streamPlan, 0)
	n := sd.opts.Users
	if n > 0 {
		// Sign-ups over the last two years, growing: density rises
		// linearly towards now. Sorted, so ids follow sign-up order.
		start := sd.now.Add(-2 * 365 * 24 * time.Hour).UnixMicro()
		span := float64(sd.now.Add(-time.Hour).UnixMicro() - start)
		sd.userCreated = make([]int64, n)
		for i := range sd.userCreated {
			sd.userCreated[i] = start + int64(span*math.Sqrt(r.Float64()))
		}
		slices.Sort(sd.userCreated)
		sd.poolIDs = make([]int64, n) // filled as users are written
		sd.poolCreated = sd.userCreated
		sd.poolIsNew = true
	} else if sd.opts.Posts > 0 || sd.opts.Events > 0 {
		if err := sd.loadPool(ctx); err != nil {
			return err
		}
		if len(sd.poolIDs) == 0 && sd.opts.Posts > 0 {
			return errors.New("posts need authors: seed some users first")
		}
	}
	if sd.opts.Posts == 0 {
		return nil
	}
	// Authors follow a power law: the author of rank k (0 = most prolific)
	// is drawn with density ~ k^-0.6, so a few users write hundreds of
	// posts while many write none. A permutation spreads ranks over users.
	// Each post is written some time after its author signed up, leaning
	// towards recent; posts are then sorted by that time, so ids follow
	// creation order as in a live database (and the time indexes grow at
	// their right edge, which keeps bulk loading fast).
	p := len(sd.poolIDs)
	perm := r.Perm(p)
	if sd.poolIsNew {
		sd.postCounts = make([]int32, p)
	}
	type planned struct {
		at     int64
		author int32
	}
	posts := make([]planned, sd.opts.Posts)
	now := sd.now.UnixMicro()
	for i := range posts {
		rank := int(float64(p) * math.Pow(r.Float64(), 2.5))
		a := int32(perm[min(rank, p-1)])
		posts[i] = planned{at: between(r, sd.poolCreated[a], now, 0.6), author: a}
		if sd.postCounts != nil {
			sd.postCounts[a]++
		}
	}
	slices.SortFunc(posts, func(x, y planned) int { return cmp.Compare(x.at, y.at) })
	sd.authors = make([]int32, len(posts))
	sd.postCreated = make([]int64, len(posts))
	for i, pp := range posts {
		sd.authors[i], sd.postCreated[i] = pp.author, pp.at
	}
	return nil
}

// loadPool reads the users already in the database.
func (sd *seeder) loadPool(ctx context.Context) error {
	rows, err := sd.s.DB.QueryContext(ctx, "SELECT id, created_at FROM users ORDER BY id")
	if err != nil {
		return fmt.Errorf("read users: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var created time.Time
		if err := rows.Scan(&id, &created); err != nil {
			return fmt.Errorf("read users: %w", err)
		}
		sd.poolIDs = append(sd.poolIDs, id)
		sd.poolCreated = append(sd.poolCreated, min(created.UnixMicro(), sd.now.UnixMicro()))
	}
	return rows.Err()
}

// loadModerators reads up to 100 moderators, who resolve seeded reports.
func (sd *seeder) loadModerators(ctx context.Context) error {
	err := sd.s.DB.NewSelect().Model((*models.UserRole)(nil)).Column("user_id").
		Where("role_id = ?", sd.roleModerator).OrderExpr("user_id").Limit(100).Scan(ctx, &sd.moderators)
	if err != nil {
		return fmt.Errorf("read moderators: %w", err)
	}
	return nil
}

// recountPostCounts sets post_count from posts for the users of an existing
// pool, the only counters Bulk changes rather than writes.
func (sd *seeder) recountPostCounts(ctx context.Context) error {
	touched := make([]bool, len(sd.poolIDs))
	var ids []int64
	for _, a := range sd.authors {
		if !touched[a] {
			touched[a] = true
			ids = append(ids, sd.poolIDs[a])
		}
	}
	slices.Sort(ids)
	for chunk := range slices.Chunk(ids, 1000) {
		_, err := sd.s.DB.NewUpdate().Table("users").
			Set("post_count = (SELECT count(*) FROM posts WHERE posts.author_id = users.id)").
			Where("id IN (?)", bun.List(chunk)).Exec(ctx)
		if err != nil {
			return fmt.Errorf("recount post_count: %w", err)
		}
	}
	return nil
}

func (sd *seeder) reports(ctx context.Context) (int, error) {
	var list []reportedPost
	for _, b := range sd.reported {
		list = append(list, b...)
	}
	sd.reported = nil
	total := 0
	for _, rp := range list {
		total += int(rp.reports)
	}
	if total == 0 {
		return 0, nil
	}
	// Batches of reported posts, sized to hold about a batch of reports.
	per := max(1, sd.batchSize()/3)
	gen := func(b int, _ int64) (seedBatch, int, error) {
		lo := b * per
		batch := list[lo:min(lo+per, len(list))]
		out, n := sd.genReports(b, batch)
		return out, n, nil
	}
	return total, sd.runBatches(ctx, StageReports, int64(total), numBatches(len(list), per), "", 0, nil, gen)
}

// stage writes rows of one kind in batches of batchSize.
func (sd *seeder) stage(ctx context.Context, name string, rows int, idTable string, stream uint64,
	gen func(r *rand.Rand, lo, hi int, firstID int64) seedBatch) error {
	size := sd.batchSize()
	g := func(b int, firstID int64) (seedBatch, int, error) {
		lo := b * size
		hi := min(lo+size, rows)
		return gen(sd.rng(stream, b), lo, hi, firstID), hi - lo, nil
	}
	first := func(b int) int { return b * size }
	return sd.runBatches(ctx, name, int64(rows), numBatches(rows, size), idTable, rows, first, g)
}

func numBatches(rows, size int) int { return (rows + size - 1) / size }

// seedBatch is one batch of rows for one or more tables, written together.
type seedBatch []seedTable

type seedTable struct {
	name string
	cols []string
	rows [][]any
}

// batchGen builds batch b. firstID is the id of the batch's first row when
// the stage writes explicit ids. It returns the rows counted for progress.
type batchGen func(b int, firstID int64) (seedBatch, int, error)

// runBatches runs gen for every batch and writes the result. When idTable
// is set, rows of that table get explicit ids: on PostgreSQL a range of
// idRows ids is reserved up front (firstRow(b) is the row index where batch
// b starts), on SQLite each batch takes the ids after the current maximum
// in its own transaction.
func (sd *seeder) runBatches(ctx context.Context, stage string, total int64, batches int,
	idTable string, idRows int, firstRow func(int) int, gen batchGen) error {
	sd.prog.report(stage, 0, total)
	if sd.pg {
		var base int64
		if idTable != "" {
			var err error
			if base, err = reservePostgresIDs(ctx, sd.s.DB, idTable, idRows); err != nil {
				return err
			}
		}
		return sd.runPostgres(ctx, stage, total, batches, func(b int) (seedBatch, int, error) {
			var firstID int64
			if idTable != "" {
				firstID = base + 1 + int64(firstRow(b))
			}
			return gen(b, firstID)
		})
	}
	return sd.runSQLite(ctx, stage, total, batches, idTable, gen)
}

// seedTime is a planned Unix-microsecond instant as a UTC time.
func seedTime(us int64) time.Time { return time.UnixMicro(us).UTC() }

// between returns a time in [lo, hi] (Unix microseconds); skew > 1 leans
// towards lo, skew < 1 towards hi.
func between(r *rand.Rand, lo, hi int64, skew float64) int64 {
	if hi <= lo {
		return lo
	}
	f := r.Float64()
	if skew != 1 {
		f = math.Pow(f, skew)
	}
	return lo + int64(f*float64(hi-lo))
}

const (
	usMinute = int64(time.Minute / time.Microsecond)
	usHour   = int64(time.Hour / time.Microsecond)
	usDay    = 24 * usHour
)

var (
	userCols = []string{"id", "username", "email", "name", "bio", "location", "profile_public", "email_verified",
		"is_verified", "status", "is_active", "post_count", "login_count", "created_at", "updated_at", "last_login_at"}
	userRoleCols     = []string{"user_id", "role_id", "granted_at", "granted_by"}
	banCols          = []string{"user_id", "reason", "notes", "created_by", "created_at", "expires_at", "ended_at", "ended_by"}
	providerCols     = []string{"user_id", "provider", "provider_user_id", "email", "email_verified", "created_at", "last_used_at"}
	subscriptionCols = []string{"user_id", "subscription_type_id", "status", "started_at", "ends_at"}
	postCols         = []string{"id", "author_id", "title", "content", "status", "report_count", "created_at", "updated_at", "published_at"}
	postTagCols      = []string{"post_id", "tag"}
	reportCols       = []string{"post_id", "reporter_id", "reason", "status", "created_at", "resolved_at", "resolved_by"}
	eventCols        = []string{"id", "event_type", "event_data", "user_id", "session_id", "ip_hash", "user_agent", "page_path", "occurred_at", "received_at"}
)

// nullable returns nil for a zero instant, else the time.
func nullable(us int64) any {
	if us == 0 {
		return nil
	}
	return seedTime(us)
}

// genUsers builds users lo..hi-1 with ids from firstID, and their roles,
// bans, provider accounts and subscriptions.
func (sd *seeder) genUsers(r *rand.Rand, lo, hi int, firstID int64) seedBatch {
	n := hi - lo
	users := seedTable{name: "users", cols: userCols, rows: make([][]any, 0, n)}
	roles := seedTable{name: "user_roles", cols: userRoleCols, rows: make([][]any, 0, n+n/50)}
	bans := seedTable{name: "bans", cols: banCols}
	providers := seedTable{name: "provider_accounts", cols: providerCols, rows: make([][]any, 0, n/3)}
	subs := seedTable{name: "user_subscriptions", cols: subscriptionCols, rows: make([][]any, 0, n/3)}
	now := sd.now.UnixMicro()
	buf := make([]byte, 0, 256)
	for i := lo; i < hi; i++ {
		id := firstID + int64(i-lo)
		sd.poolIDs[i] = id
		created := sd.userCreated[i]
		first, last := pick(r, fakeFirstNames), pick(r, fakeLastNames)
		style := r.IntN(4)
		buf = username(buf, first, last, id, style)
		uname := string(buf)
		buf = username(buf, first, last, id, style+1+r.IntN(3))
		buf = append(buf, '@')
		buf = append(buf, pick(r, fakeEmailDomains)...)
		email := string(buf)
		var name any
		if r.IntN(20) != 0 {
			name = first + " " + last
		}
		location := ""
		if r.IntN(100) < 85 {
			location = pick(r, fakeLocations)
		}
		var emailVerified int64
		if r.IntN(100) < 80 {
			emailVerified = between(r, created+usMinute, min(created+3*usDay, now), 3)
		}
		isVerified := emailVerified != 0 && r.IntN(4) != 0
		status := models.UserActive
		switch x := r.IntN(100); {
		case x < 2:
			status = models.UserBanned
		case x < 7:
			status = models.UserInactive
		}
		var lastLogin int64
		loginCount := 0
		if r.IntN(100) < 88 {
			lastLogin = between(r, created, now, 0.25)
			days := float64(lastLogin-created) / float64(usDay)
			loginCount = 1 + int(r.ExpFloat64()*min(days+1, 300)/4)
		}
		updated := between(r, created, max(created, lastLogin), 2)
		postCount := 0
		if sd.postCounts != nil {
			postCount = int(sd.postCounts[i])
		}
		users.rows = append(users.rows, []any{id, uname, email, name, sd.text.bio(r, buf), location,
			r.IntN(10) != 0, nullable(emailVerified), isVerified, status, status != models.UserInactive,
			postCount, loginCount, seedTime(created), seedTime(updated), nullable(lastLogin)})

		roles.rows = append(roles.rows, []any{id, sd.roleUser, seedTime(created), nil})
		if status == models.UserActive && r.IntN(100) == 0 {
			roles.rows = append(roles.rows, []any{id, sd.roleModerator, seedTime(between(r, created, now, 1)), nil})
		}
		if status == models.UserBanned {
			at := between(r, max(created, now-180*usDay), now, 1)
			var expires any
			if r.IntN(10) < 4 {
				expires = seedTime(max(at+int64(7+r.IntN(84))*usDay, now+int64(1+r.IntN(30))*usDay))
			}
			bans.rows = append(bans.rows, []any{id, pick(r, fakeBanReasons), "", nil, seedTime(at), expires, nil, nil})
		}
		if r.IntN(100) < 30 {
			k := r.IntN(len(fakeProviders))
			count := 1 + r.IntN(8)/7 // one provider, sometimes two
			for j := range count {
				p := fakeProviders[(k+j)%len(fakeProviders)]
				linked := created
				if j > 0 {
					linked = between(r, created, now, 1)
				}
				providers.rows = append(providers.rows, []any{id, p, providerUserID(p, id), email,
					true, seedTime(linked), nullable(lastLogin)})
			}
		}
		for t, pct := range [3]int{15, 4, 2} { // Newsletter, Supporter, Pro
			if r.IntN(100) >= pct {
				continue
			}
			started := between(r, created, now, 1)
			st, ends := "active", any(nil)
			if r.IntN(5) == 0 {
				st, ends = "inactive", seedTime(between(r, started, now, 1))
			}
			subs.rows = append(subs.rows, []any{id, sd.subTypes[t], st, seedTime(started), ends})
		}
	}
	return seedBatch{users, roles, bans, providers, subs}
}

// providerUserID makes an id in the shape each provider uses, unique per
// provider because it is derived from the (unique) user id.
func providerUserID(provider string, userID int64) string {
	switch provider {
	case "google":
		return fmt.Sprintf("1%020d", 104729*userID+3)
	case "discord":
		return fmt.Sprintf("%d", 700000000000000000+7919*userID)
	case "gitlab":
		return fmt.Sprintf("%d", 3000000+userID)
	default: // github
		return fmt.Sprintf("%d", 10000000+userID)
	}
}

// genPosts builds posts lo..hi-1 with ids from firstID, and their tags; it
// records which posts get reports and how many.
func (sd *seeder) genPosts(r *rand.Rand, lo, hi int, firstID int64) seedBatch {
	n := hi - lo
	posts := seedTable{name: "posts", cols: postCols, rows: make([][]any, 0, n)}
	tags := seedTable{name: "post_tags", cols: postTagCols, rows: make([][]any, 0, n+n/4)}
	var reported []reportedPost
	now := sd.now.UnixMicro()
	buf := make([]byte, 0, 512)
	var tagBuf []string
	reporters := len(sd.poolIDs) - 1 // anyone but the author
	for i := lo; i < hi; i++ {
		id := firstID + int64(i-lo)
		a := sd.authors[i]
		created := sd.postCreated[i]
		title, content, topic := sd.text.post(r, buf)
		var reports int32
		if reporters > 0 && r.IntN(100) < 3 {
			reports = int32(min(reportsPerPost(r), reporters))
		}
		status := models.PostPublished
		x := r.IntN(1000)
		if reports > 0 {
			switch {
			case x < 350:
				status = models.PostFlagged
			case x < 450:
				status = models.PostHidden
			}
		} else {
			switch {
			case x < 80:
				status = models.PostDraft
			case x < 105:
				status = models.PostHidden
			case x < 120:
				status = models.PostFlagged
			}
		}
		updated := created
		if r.IntN(100) < 35 {
			updated = between(r, created, now, 2)
		}
		var published any
		if status != models.PostDraft {
			published = seedTime(created)
		}
		posts.rows = append(posts.rows, []any{id, sd.poolIDs[a], title, content, status, int(reports),
			seedTime(created), seedTime(updated), published})
		tagBuf = sd.text.tags(r, topic, tagBuf)
		for _, t := range tagBuf {
			tags.rows = append(tags.rows, []any{id, t})
		}
		if reports > 0 {
			reported = append(reported, reportedPost{postID: id, author: a, createdAt: created, reports: reports})
		}
	}
	sd.reported[lo/sd.batchSize()] = reported
	return seedBatch{posts, tags}
}

// reportsPerPost draws 1 to 5, mostly 1 or 2.
func reportsPerPost(r *rand.Rand) int {
	switch x := r.IntN(100); {
	case x < 50:
		return 1
	case x < 75:
		return 2
	case x < 87:
		return 3
	case x < 95:
		return 4
	default:
		return 5
	}
}

// genReports builds the reports of a batch of reported posts, each from
// distinct reporters who are not the author.
func (sd *seeder) genReports(b int, list []reportedPost) (seedBatch, int) {
	r := sd.rng(streamReports, b)
	t := seedTable{name: "post_reports", cols: reportCols}
	now := sd.now.UnixMicro()
	var chosen []int32
	for _, rp := range list {
		chosen = chosen[:0]
		for int32(len(chosen)) < rp.reports {
			c := int32(r.IntN(len(sd.poolIDs)))
			if c != rp.author && !slices.Contains(chosen, c) {
				chosen = append(chosen, c)
			}
		}
		for _, c := range chosen {
			created := between(r, max(rp.createdAt, sd.poolCreated[c]), now, 2)
			status := models.ReportOpen
			var resolvedAt, resolvedBy any
			if x := r.IntN(100); x >= 75 {
				status = models.ReportResolved
				if x >= 95 {
					status = models.ReportDismissed
				}
				resolvedAt = seedTime(between(r, created, now, 3))
				if len(sd.moderators) > 0 {
					resolvedBy = pick(r, sd.moderators)
				}
			}
			t.rows = append(t.rows, []any{rp.postID, sd.poolIDs[c], pick(r, fakeReportReasons), status,
				seedTime(created), resolvedAt, resolvedBy})
		}
	}
	return seedBatch{t}, len(t.rows)
}

// genEvents builds analytics events lo..hi-1 over the last 90 days.
func (sd *seeder) genEvents(r *rand.Rand, lo, hi int, _ int64) seedBatch {
	t := seedTable{name: "analytics_events", cols: eventCols, rows: make([][]any, 0, hi-lo)}
	now := sd.now.UnixMicro()
	buf := make([]byte, 0, 128)
	for range hi - lo {
		occurred := now - int64(r.Float64()*float64(90*usDay))
		received := occurred + int64(20+r.IntN(2000))*1000
		var user any
		if len(sd.poolIDs) > 0 && r.IntN(10) < 7 {
			if u := r.IntN(len(sd.poolIDs)); sd.poolCreated[u] < occurred {
				user = sd.poolIDs[u]
			}
		}
		typ := pick(r, fakeEventTypes)
		path := pick(r, fakePagePaths)
		buf = eventData(buf[:0], r, typ, path)
		t.rows = append(t.rows, []any{uuidV7(r, occurred/1000), typ, string(buf), user, randomHex(r, 8),
			randomHex(r, 16), pick(r, fakeUserAgents), path, seedTime(occurred), seedTime(received)})
	}
	return seedBatch{t}
}

// eventData writes a small JSON object that fits the event type.
func eventData(b []byte, r *rand.Rand, typ, path string) []byte {
	num := func(b []byte, key string, v int) []byte {
		return fmt.Appendf(b, "%q:%d", key, v)
	}
	str := func(b []byte, key, v string) []byte {
		return fmt.Appendf(b, "%q:%q", key, v)
	}
	b = append(b, '{')
	switch typ {
	case "page_view":
		b = str(b, "path", path)
		b = append(b, ',')
		b = str(b, "referrer", pick(r, []string{"", "https://duckduckgo.com/", "https://www.example.org/blog", "https://news.example.com/"}))
		b = append(b, ',')
		b = num(b, "load_ms", 80+r.IntN(1500))
	case "click":
		b = str(b, "target", pick(r, []string{"a.post-link", "a.tag", "button.menu", "img.avatar"}))
		b = append(b, ',')
		b = num(b, "x", r.IntN(1440))
		b = append(b, ',')
		b = num(b, "y", r.IntN(900))
	case "scroll":
		b = num(b, "depth", 25*(1+r.IntN(4)))
	case "button_click":
		b = str(b, "button", pick(r, []string{"like", "reply", "share", "follow", "save", "report"}))
		b = append(b, ',')
		b = str(b, "section", pick(r, []string{"post", "feed", "profile", "editor"}))
	case "feature_used":
		b = str(b, "feature", pick(r, []string{"dark_mode", "new_editor", "search", "markdown_preview", "notifications"}))
	case "form_submit":
		b = str(b, "form", pick(r, []string{"new_post", "comment", "profile", "settings", "signup"}))
		b = append(b, ',')
		b = fmt.Appendf(b, `"success":%t`, r.IntN(10) != 0)
	case "error_encountered":
		b = str(b, "code", pick(r, []string{"NETWORK_ERROR", "TIMEOUT", "UPLOAD_TOO_LARGE", "VALIDATION_ERROR"}))
		b = append(b, ',')
		b = str(b, "message", pick(r, []string{"Network request failed", "Request timed out", "File is too large", "Please check the form"}))
	}
	return append(b, '}')
}
