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
	// The planner must see the new rows before the first list is asked for.
	return res, models.AnalyzeAll(ctx, s.DB)
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
	batchPG     = 20000
	batchSQLite = 5000
	// pgWorkers is how many connections COPY at once. Two cores are kept
	// busy by two server processes building index entries while a third
	// batch is being generated.
	pgWorkers = 3
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

// seeder is one Bulk call: its options, its plan and what it has read.
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

// rng is the generator of one batch of one stream.
func (sd *seeder) rng(stream uint64, batch int) *rand.Rand {
	return rand.New(rand.NewPCG(sd.seed, stream<<48|uint64(batch)))
}

// batchSize is how many rows a batch holds on this database.
func (sd *seeder) batchSize() int {
	if sd.pg {
		return batchPG
	}
	return batchSQLite
}

// run reads what it needs, plans, then writes the stages in order: users,
// posts and their reports, events.
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
		if err := sd.posts(ctx, &res); err != nil {
			return res, err
		}
	}
	if sd.opts.Events > 0 {
		// The 90 days the events span have their monthly partitions on
		// PostgreSQL, so none lands in the default partition.
		if _, err := sd.s.Analytics.EnsureEventPartitions(ctx, sd.now, 90*24*time.Hour); err != nil {
			return res, err
		}
		if err := sd.stage(ctx, StageEvents, sd.opts.Events, "", streamEvents, sd.genEvents); err != nil {
			return res, err
		}
		res.Events = sd.opts.Events
		if sd.pg {
			// As replica the COPY skipped the triggers that count events by hour.
			if err := sd.s.Analytics.RecountEventCounts(ctx); err != nil {
				return res, err
			}
		}
		if err := sd.rollUp(ctx); err != nil {
			return res, err
		}
	}
	// Every past day's active users, and each ended hour's of the last two
	// days, as the analytics job would have rolled them up, for the
	// user-activity report: without the hours, a report ending now reads
	// today's events from the rows until the job first runs.
	if _, err := sd.s.Analytics.RollUpPastActivity(ctx, 0); err != nil {
		return res, err
	}
	return res, sd.s.Analytics.RollUpRecentHours(ctx)
}

// rollUp computes the daily roll-ups of the 90 days the events span, as
// the analytics job would have day by day, so that analytics read them.
func (sd *seeder) rollUp(ctx context.Context) error {
	today := sd.now.UTC().Truncate(24 * time.Hour)
	for d := today.AddDate(0, 0, -90); !d.After(today); d = d.AddDate(0, 0, 1) {
		if err := sd.s.Analytics.RollUpAnalytics(ctx, d); err != nil {
			return err
		}
	}
	return nil
}

// posts writes the planned posts, then their reports, and counts both in
// res as they are written.
func (sd *seeder) posts(ctx context.Context, res *Result) error {
	sd.reported = make([][]reportedPost, numBatches(sd.opts.Posts, sd.batchSize()))
	if err := sd.stage(ctx, StagePosts, sd.opts.Posts, "posts", streamPosts, sd.genPosts); err != nil {
		return err
	}
	res.Posts = sd.opts.Posts
	if !sd.poolIsNew {
		if err := sd.recountPostCounts(ctx); err != nil {
			return err
		}
	}
	n, err := sd.reports(ctx)
	if err != nil {
		return err
	}
	res.Reports = n
	if sd.pg {
		// As replica the COPY skipped the triggers that count posts and open reports.
		if err := sd.s.Posts.RecountPosts(ctx); err != nil {
			return err
		}
		// The posts all landed in the title buckets there were; the sweep
		// would split them within minutes, the seed does it at once.
		if _, err := sd.s.Posts.SplitTitleMarks(ctx); err != nil {
			return err
		}
		if err := sd.s.Analytics.RecountDailyCounts(ctx); err != nil {
			return err
		}
		return sd.s.Posts.RecountOpenReports(ctx)
	}
	return nil
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
	if sd.opts.Users > 0 {
		sd.planUsers(r)
	} else if sd.opts.Posts > 0 || sd.opts.Events > 0 {
		if err := sd.loadPool(ctx); err != nil {
			return err
		}
		if len(sd.poolIDs) == 0 && sd.opts.Posts > 0 {
			return errors.New("posts need authors: seed some users first")
		}
	}
	if sd.opts.Posts > 0 {
		sd.planPosts(r)
	}
	return nil
}

// planUsers spreads the new users' sign-ups over the last two years,
// growing: density rises linearly towards now. They are sorted, so ids
// follow sign-up order. The new users are the pool.
func (sd *seeder) planUsers(r *rand.Rand) {
	start := sd.now.Add(-2 * 365 * 24 * time.Hour).UnixMicro()
	span := float64(sd.now.Add(-time.Hour).UnixMicro() - start)
	sd.userCreated = make([]int64, sd.opts.Users)
	for i := range sd.userCreated {
		sd.userCreated[i] = start + int64(span*math.Sqrt(r.Float64()))
	}
	slices.Sort(sd.userCreated)
	sd.poolIDs = make([]int64, sd.opts.Users) // filled as users are written
	sd.poolCreated = sd.userCreated
	sd.poolIsNew = true
}

// planPosts picks each post's author and time. Authors follow a power law:
// the author of rank k (0 = most prolific) is drawn with density ~ k^-0.6,
// so a few users write hundreds of posts while many write none. A
// permutation spreads ranks over users. Each post is written some time
// after its author signed up, leaning towards recent; posts are then sorted
// by that time, so ids follow creation order as in a live database (and the
// time indexes grow at their right edge, which keeps bulk loading fast).
func (sd *seeder) planPosts(r *rand.Rand) {
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

// reports writes the reports of the posts genPosts chose to be reported
// and returns how many it wrote.
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
	gen := func(b int, _ int64) (rowBatch, int, error) {
		lo := b * per
		batch := list[lo:min(lo+per, len(list))]
		out, n := sd.genReports(b, batch)
		return out, n, nil
	}
	return total, sd.runBatches(ctx, StageReports, int64(total), numBatches(len(list), per), "", 0, nil, gen)
}
