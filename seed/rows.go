package seed

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"net/netip"
	"slices"
	"time"

	"github.com/plazahq/plaza/internal/clientnet"
	"github.com/plazahq/plaza/internal/emailcanon"
	"github.com/plazahq/plaza/models"
)

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
		"is_verified", "status", "is_active", "post_count", "login_count", "created_at", "updated_at", "last_login_at",
		"email_canonical", "signup_ip", "signup_net"}
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

// userRows are the tables a batch of users fills.
type userRows struct {
	users, roles, bans, providers, subs tableRows
}

// newUser is what a new user's other rows are derived from.
type newUser struct {
	id               int64
	created, lastLog int64 // Unix microseconds; lastLog 0: never signed in
	status, email    string
	ip               string // signed up from
}

// genUsers builds users lo..hi-1 with ids from firstID, and their roles,
// bans, provider accounts and subscriptions.
func (sd *seeder) genUsers(r *rand.Rand, lo, hi int, firstID int64) rowBatch {
	n := hi - lo
	t := userRows{
		users:     tableRows{name: "users", cols: userCols, rows: make([][]any, 0, n)},
		roles:     tableRows{name: "user_roles", cols: userRoleCols, rows: make([][]any, 0, n+n/50)},
		bans:      tableRows{name: "bans", cols: banCols},
		providers: tableRows{name: "provider_accounts", cols: providerCols, rows: make([][]any, 0, n/3)},
		subs:      tableRows{name: "user_subscriptions", cols: subscriptionCols, rows: make([][]any, 0, n/3)},
	}
	buf := make([]byte, 0, 256)
	var prevIP string
	for i := lo; i < hi; i++ {
		id := firstID + int64(i-lo)
		sd.poolIDs[i] = id
		var u newUser
		u, buf = sd.genUser(r, &t.users, i, id, prevIP, buf)
		prevIP = u.ip
		sd.genRoles(r, &t.roles, u)
		if u.status == models.UserBanned {
			sd.genBan(r, &t.bans, u)
		}
		if r.IntN(100) < 30 {
			sd.genProviders(r, &t.providers, u)
		}
		sd.genSubscriptions(r, &t.subs, u)
	}
	return rowBatch{t.users, t.roles, t.bans, t.providers, t.subs}
}

// genUser adds the row of planned user i, whose id is id, to users; prevIP
// is the address the user before it signed up from. buf is scratch space,
// returned grown.
func (sd *seeder) genUser(r *rand.Rand, users *tableRows, i int, id int64, prevIP string, buf []byte) (newUser, []byte) {
	now := sd.now.UnixMicro()
	u := newUser{id: id, created: sd.userCreated[i]}
	var uname string
	var name any
	buf, uname, u.email, name = userNames(r, id, buf)
	location := ""
	if r.IntN(100) < 85 {
		location = pick(r, fakeLocations)
	}
	var emailVerified int64
	if r.IntN(100) < 80 {
		emailVerified = between(r, u.created+usMinute, min(u.created+3*usDay, now), 3)
	}
	isVerified := emailVerified != 0 && r.IntN(4) != 0
	u.status = userStatus(r)
	var loginCount int
	u.lastLog, loginCount = logins(r, u.created, now)
	updated := between(r, u.created, max(u.created, u.lastLog), 2)
	postCount := 0
	if sd.postCounts != nil {
		postCount = int(sd.postCounts[i])
	}
	u.ip = signupAddress(r, prevIP)
	users.rows = append(users.rows, []any{id, uname, u.email, name, sd.text.bio(r, buf), location,
		r.IntN(10) != 0, nullable(emailVerified), isVerified, u.status, u.status != models.UserInactive,
		postCount, loginCount, seedTime(u.created), seedTime(updated), nullable(u.lastLog),
		emailcanon.Canonical(u.email), u.ip, clientnet.Range(u.ip)})
	return u, buf
}

// signupAddress draws the address a user signed up from, in ranges that
// reach no one: the shared address space 100.64.0.0/10 for IPv4, the
// documentation prefix 2001:db8::/32 for one sign-up in five, over IPv6.
// One sign-up in forty comes from the range of the one before (prev), as
// a batch of accounts made together would.
func signupAddress(r *rand.Rand, prev string) string {
	if prev != "" && r.IntN(40) == 0 {
		a := netip.MustParseAddr(prev).AsSlice()
		if len(a) == 16 {
			binary.BigEndian.PutUint64(a[8:], 1+r.Uint64N(1<<63))
		} else {
			a[3] = byte(1 + r.IntN(254))
		}
		addr, _ := netip.AddrFromSlice(a)
		return addr.String()
	}
	if r.IntN(5) == 0 {
		return fmt.Sprintf("2001:db8:%x:%x::%x", r.IntN(1<<16), r.IntN(1<<16), 1+r.IntN(1<<16-1))
	}
	return fmt.Sprintf("100.%d.%d.%d", 64+r.IntN(64), r.IntN(256), 1+r.IntN(254))
}

// userNames draws a person's name and derives user id's username and email
// from it; name is nil for the one user in twenty who gave none. buf is
// scratch space, returned grown.
func userNames(r *rand.Rand, id int64, buf []byte) (_ []byte, uname, email string, name any) {
	first, last := pick(r, fakeFirstNames), pick(r, fakeLastNames)
	style := r.IntN(4)
	buf = username(buf, first, last, id, style)
	uname = string(buf)
	buf = username(buf, first, last, id, style+1+r.IntN(3))
	buf = append(buf, '@')
	buf = append(buf, pick(r, fakeEmailDomains)...)
	email = string(buf)
	if r.IntN(20) != 0 {
		name = first + " " + last
	}
	return buf, uname, email, name
}

// userStatus draws a status: 93% active, 5% inactive, 2% banned.
func userStatus(r *rand.Rand) string {
	switch x := r.IntN(100); {
	case x < 2:
		return models.UserBanned
	case x < 7:
		return models.UserInactive
	}
	return models.UserActive
}

// logins draws when a user who signed up at created last signed in (0,
// never, for about one in eight) and how many times.
func logins(r *rand.Rand, created, now int64) (last int64, count int) {
	if r.IntN(100) >= 88 {
		return 0, 0
	}
	last = between(r, created, now, 0.25)
	days := float64(last-created) / float64(usDay)
	return last, 1 + int(r.ExpFloat64()*min(days+1, 300)/4)
}

// genRoles gives u the user role and, if active, one chance in a hundred
// of the moderator role.
func (sd *seeder) genRoles(r *rand.Rand, roles *tableRows, u newUser) {
	roles.rows = append(roles.rows, []any{u.id, sd.roleUser, seedTime(u.created), nil})
	if u.status == models.UserActive && r.IntN(100) == 0 {
		at := between(r, u.created, sd.now.UnixMicro(), 1)
		roles.rows = append(roles.rows, []any{u.id, sd.roleModerator, seedTime(at), nil})
	}
}

// genBan adds the open ban of a banned user, from the last six months;
// four in ten expire.
func (sd *seeder) genBan(r *rand.Rand, bans *tableRows, u newUser) {
	now := sd.now.UnixMicro()
	at := between(r, max(u.created, now-180*usDay), now, 1)
	var expires any
	if r.IntN(10) < 4 {
		expires = seedTime(max(at+int64(7+r.IntN(84))*usDay, now+int64(1+r.IntN(30))*usDay))
	}
	bans.rows = append(bans.rows, []any{u.id, pick(r, fakeBanReasons), "", nil, seedTime(at), expires, nil, nil})
}

// genProviders links u to one sign-in provider, sometimes two.
func (sd *seeder) genProviders(r *rand.Rand, providers *tableRows, u newUser) {
	k := r.IntN(len(fakeProviders))
	count := 1 + r.IntN(8)/7
	for j := range count {
		p := fakeProviders[(k+j)%len(fakeProviders)]
		linked := u.created
		if j > 0 {
			linked = between(r, u.created, sd.now.UnixMicro(), 1)
		}
		providers.rows = append(providers.rows, []any{u.id, p, providerUserID(p, u.id), u.email,
			true, seedTime(linked), nullable(u.lastLog)})
	}
}

// genSubscriptions subscribes u to each seeded subscription type with its
// own chance; one subscription in five has ended.
func (sd *seeder) genSubscriptions(r *rand.Rand, subs *tableRows, u newUser) {
	now := sd.now.UnixMicro()
	for t, pct := range [3]int{15, 4, 2} { // Newsletter, Supporter, Pro
		if r.IntN(100) >= pct {
			continue
		}
		started := between(r, u.created, now, 1)
		st, ends := "active", any(nil)
		if r.IntN(5) == 0 {
			st, ends = "inactive", seedTime(between(r, started, now, 1))
		}
		subs.rows = append(subs.rows, []any{u.id, sd.subTypes[t], st, seedTime(started), ends})
	}
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
func (sd *seeder) genPosts(r *rand.Rand, lo, hi int, firstID int64) rowBatch {
	n := hi - lo
	posts := tableRows{name: "posts", cols: postCols, rows: make([][]any, 0, n)}
	tags := tableRows{name: "post_tags", cols: postTagCols, rows: make([][]any, 0, n+n/4)}
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
		status := postStatus(r, reports > 0)
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
	return rowBatch{posts, tags}
}

// postStatus draws a post's status: a reported post is often flagged or
// hidden; others are mostly published, a few drafts, hidden or flagged.
func postStatus(r *rand.Rand, reported bool) string {
	x := r.IntN(1000)
	if reported {
		switch {
		case x < 350:
			return models.PostFlagged
		case x < 450:
			return models.PostHidden
		}
		return models.PostPublished
	}
	switch {
	case x < 80:
		return models.PostDraft
	case x < 105:
		return models.PostHidden
	case x < 120:
		return models.PostFlagged
	}
	return models.PostPublished
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
func (sd *seeder) genReports(b int, list []reportedPost) (rowBatch, int) {
	r := sd.rng(streamReports, b)
	t := tableRows{name: "post_reports", cols: reportCols}
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
	return rowBatch{t}, len(t.rows)
}

// genEvents builds analytics events lo..hi-1 over the last 90 days.
func (sd *seeder) genEvents(r *rand.Rand, lo, hi int, _ int64) rowBatch {
	t := tableRows{name: "analytics_events", cols: eventCols, rows: make([][]any, 0, hi-lo)}
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
	return rowBatch{t}
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
