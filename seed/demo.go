package seed

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/internal/clientnet"
	"github.com/plazahq/plaza/internal/emailcanon"
	"github.com/plazahq/plaza/models"
)

// demoSeed fixes the demo's random choices, so the demo community looks the
// same on every first start (only its dates move with the clock).
const demoSeed = 20261122

// demoUser is one member of the demo community.
type demoUser struct {
	username, name, location, bio string
	status                        string // "" means active
	moderator                     bool
	ageDays                       int // signed up this many days ago
}

var demoUsers = []demoUser{
	{"hannah.okafor", "Hannah Okafor", "Riverside", "Plot 14, keeper of the watering rota. Moderator here, so give me a shout if something looks off.", "", true, 320},
	{"tomas_fixes", "Tomás Reyes", "Old Town", "Bike mechanic by day, repair café volunteer on Saturdays.", "", false, 310},
	{"meichen", "Mei Chen", "Riverside", "Growing chillies on a north-facing balcony, against all advice.", "", false, 300},
	{"lars.rides", "Lars Eriksen", "North Bank", "Commuting by bike all year round. Yes, even in February.", "", false, 290},
	{"priyagrows", "Priya Nair", "Millbrook", "Seed swapper, compost nerd, occasional jam maker.", "", false, 280},
	{"jonasweber", "Jonas Weber", "Station Quarter", "Woodworker. Mostly chairs, sometimes firewood when the chairs go wrong.", "", false, 270},
	{"amara.makes", "Amara Adeyemi", "Hillcrest", "Textiles, natural dyes and too many jars of onion skins.", "", false, 260},
	{"felix_bakes", "Felix Moreau", "Old Town", "Sourdough since 2020. My starter is called Gerald.", "", false, 250},
	{"sofiarossi", "Sofia Rossi", "Riverside", "Architect, allotment beginner, tomato optimist.", "", false, 240},
	{"kenji.prints", "Kenji Tanaka", "Station Quarter", "3D printing spare parts so things stay out of the bin.", "", false, 230},
	{"gracewalker", "Grace Walker", "North Bank", "Retired teacher. Birds, beans and board games.", "", false, 220},
	{"omar.haddad", "Omar Haddad", "Millbrook", "Cargo bike dad. Ask me about kid seats.", "", false, 210},
	{"ingridknits", "Ingrid Larsen", "Hillcrest", "Knitting socks for the whole street, one heel at a time.", "", false, 200},
	{"leonovak", "Leo Novak", "Riverside", "Student, learning to solder, breaking fewer things every week.", "", false, 190},
	{"fatima.k", "Fatima Khan", "Old Town", "Herbalist in training. Mint is not a ground cover, learn from me.", "", false, 180},
	{"ravi_solder", "Ravi Patel", "Station Quarter", "Electronics and old radios. Repair café Saturday crew.", "", false, 175},
	{"chloedubois", "Chloé Dubois", "North Bank", "Photographer. I bring the camera to every workday.", "", false, 170},
	{"erik.svensson", "Erik Svensson", "Millbrook", "Beekeeper with two hives and many opinions.", "", false, 160},
	{"nadiap", "Nadia Petrova", "Hillcrest", "Pottery on weekends, spreadsheets on weekdays.", "", false, 150},
	{"samir.trails", "Samir Alvarez", "Riverside", "Trail runner, gravel rider, usually muddy.", "", false, 145},
	{"yaramendes", "Yara Mendes", "Old Town", "Cooking for twelve is my idea of a quiet evening.", "", false, 140},
	{"noahfischer", "Noah Fischer", "Station Quarter", "Self-hosting everything, including the garden sensors.", "", false, 130},
	{"elena.costa", "Elena Costa", "North Bank", "Community garden treasurer. Receipts, please!", "", false, 125},
	{"kofi.mensah", "Kofi Mensah", "Millbrook", "Builds raised beds for anyone who asks nicely.", "", false, 120},
	{"julianowak", "Julia Nowak", "Hillcrest", "Fermenting anything that stands still long enough.", "", false, 110},
	{"diego.rides", "Diego Ramos", "Riverside", "Fixing up a 1980s steel touring bike, slowly.", "", false, 100},
	{"aiko.sato", "Aiko Sato", "Old Town", "Watercolours of the garden through the seasons.", "", false, 95},
	{"benhughes", "Ben Hughes", "Station Quarter", "New to gardening, learning by doing (and by killing things).", "", false, 90},
	{"lucia.bianchi", "Lucia Bianchi", "North Bank", "Wild flower meadows and pollinator counts.", "", false, 80},
	{"mikael_o", "Mikael Olsen", "Millbrook", "Carpenter. Happy to lend tools, less happy to get them back late.", "", false, 75},
	{"rosa.grows", "Rosa Fernandes", "Hillcrest", "Squash enthusiast. The zucchini situation is under control.", "", false, 70},
	{"theoquinn", "Theo Quinn", "Riverside", "Here for the board game nights mostly.", "", false, 60},
	{"zara.ahmed", "Zara Ahmed", "Old Town", "Bike commuter, first-time allotment holder.", "", false, 50},
	{"viktor.s", "Viktor Sokolov", "Station Quarter", "Entrepreneur. Always looking for new ideas.", "", false, 45},
	{"mayathompson", "Maya Thompson", "North Bank", "Knitting, reading, and the odd bike ride.", "", false, 40},
	{"isaac.young", "Isaac Young", "Millbrook", "Just moved to the area, saying hello!", "", false, 21},
	{"estherkim", "Esther Kim", "Hillcrest", "Illustrator. Drawing the garden's resident fox.", "", false, 14},
	{"ibrahim.y", "Ibrahim Yilmaz", "Riverside", "Moved away, still lurking sometimes.", models.UserInactive, false, 280},
	{"noralindqvist", "Nora Lindqvist", "Old Town", "", models.UserInactive, false, 240},
	{"quickdeals_shop", "", "", "Best deals on garden tools!!! DM for prices", "", false, 12},
	{"cheap_seeds_4u", "Best Garden Deals", "", "Wholesale seeds, cheap cheap cheap", models.UserBanned, false, 30},
	{"gus.grumble", "Gus", "North Bank", "Been gardening for 40 years.", models.UserBanned, false, 200},
}

// demoRegulars is how many members, from the start of demoUsers, are
// regulars; the rest are inactive, spammers or troublemakers.
const demoRegulars = 37

// demoReport is a report filed against a demo post.
// demoComments are what the first reporter of a post writes to the
// moderators, by reason.
var demoComments = map[string]string{
	"spam":           "Same link posted in three threads today.",
	"harassment":     "This is aimed at one member by name, again.",
	"off-topic":      "Belongs in the cycling forum, not here.",
	"self-promotion": "Every post of theirs ends with their shop's link.",
	"misinformation": "Copper does not cure blight; people will lose their crop.",
}

type demoReport struct {
	reporter, reason string
	resolved         bool
}

// demoPost is one written-out post of the demo community.
type demoPost struct {
	author, title, content, status string
	tags                           []string
	ageDays                        int
	reports                        []demoReport
}

var demoPosts = []demoPost{
	{"hannah.okafor", "Welcome to the Riverside Makers & Growers board!",
		"This is the place for the community garden, the Saturday repair café and everything in between. Please be kind, keep sales to the marketplace thread, and report anything that looks off. The watering rota for this month is pinned in the shed.",
		models.PostPublished, []string{"announcements", "community"}, 88, nil},
	{"hannah.okafor", "Spring workday: Saturday 10am at the garden",
		"We are turning the big compost bays, fixing the gate and planting the new fruit hedge. Bring gloves if you have them; we have tea, cake and spare tools for everyone else. Kids welcome, there is a worm hunt.",
		models.PostPublished, []string{"events", "gardening"}, 40, nil},
	{"priyagrows", "Seed swap table is back in the shed",
		"I have restocked the seed swap box with tomatoes (Black Krim, Sungold), climbing beans and calendula. Take what you need and leave something if you can. Please label envelopes with the year!",
		models.PostPublished, []string{"gardening", "community"}, 75, nil},
	{"meichen", "Chillies on a north-facing balcony: year two report",
		"Against everyone's advice I tried again. Jalapeños did fine, the habaneros sulked until September and then gave me eleven fruit. The trick was a cheap reflective board behind the pots and starting seeds in January.",
		models.PostPublished, []string{"growing", "show-and-tell"}, 70, nil},
	{"tomas_fixes", "Repair café recap: 23 items fixed, 4 beyond saving",
		"Big thanks to everyone who came. Highlights: a 1970s sewing machine that runs like new, three lamps, a toaster with a heroic amount of crumbs, and Ravi's radio resurrection. Next session is in two weeks.",
		models.PostPublished, []string{"repair", "events"}, 65, nil},
	{"lars.rides", "Winter tyres for commuting: worth it?",
		"Last winter I had two slow slides on the bridge ramp. Thinking about studded tyres for January and February only. Anyone here running them on the river path, and are they too loud on dry roads?",
		models.PostPublished, []string{"cycling", "commuting", "help"}, 62, nil},
	{"jonasweber", "Finished my first Windsor chair",
		"Six months of evenings, one cracked spindle and a lot of steam bending later, it holds me and it does not wobble. Photos in the thread. Next one will be for the garden shed, so we finally have somewhere to sit.",
		models.PostPublished, []string{"woodworking", "show-and-tell"}, 58, nil},
	{"felix_bakes", "Gerald the starter needs a babysitter",
		"I am away for ten days in May. Gerald needs feeding every two or three days (rye flour, I will provide). In exchange: a loaf of your choice when I am back. Any volunteers near Old Town?",
		models.PostPublished, []string{"baking", "community"}, 55, nil},
	{"kenji.prints", "Printed replacement knobs for the shed radio",
		"The old knobs crumbled, so I measured the shafts and printed new ones in PETG. Files are on my profile if anyone needs them. Took two attempts to get the D-shaft fit snug without cracking.",
		models.PostPublished, []string{"3d-printing", "repair", "show-and-tell"}, 52, nil},
	{"gracewalker", "Bird count results from the hedge",
		"Forty minutes on Sunday morning: 2 robins, a wren, 6 house sparrows, a pair of blackcaps and one very bold magpie. The new hedge is already busy. I will keep counting monthly if anyone wants to join.",
		models.PostPublished, []string{"nature", "outdoors"}, 50, nil},
	{"omar.haddad", "Cargo bike test rides this Sunday",
		"I can bring my longtail to the garden on Sunday afternoon if anyone is curious about hauling kids or compost by bike. Helmets for small people available. No sales pitch, I promise.",
		models.PostPublished, []string{"cycling", "events"}, 47, nil},
	{"ingridknits", "Sock knitting circle, Thursdays",
		"We meet at the library café on Thursdays at 6pm. Beginners very welcome: I have spare needles and a mountain of leftover yarn. This month we are tackling the dreaded heel flap.",
		models.PostPublished, []string{"crafts", "events"}, 44, nil},
	{"ravi_solder", "How I tested the dead radio (beginner friendly)",
		"Step one is always the power supply: I found a dried-out capacitor that had bulged. Cheap to replace, but please unplug things and discharge them before poking around. Happy to show anyone at the next repair café.",
		models.PostPublished, []string{"repair", "tech"}, 41, nil},
	{"erik.svensson", "Hive inspection notes: both colonies made it through",
		"Both hives survived the winter and the queens are laying well. I am adding supers next week. If you see a swarm near the garden, do not panic: call me and keep a respectful distance.",
		models.PostPublished, []string{"nature", "growing"}, 38, nil},
	{"sofiarossi", "Beginner question: when do tomatoes go outside?",
		"My seedlings are about 20cm tall and a bit leggy. Is it safe to plant them out yet, or should I wait for the last frost? I have fleece if that helps.",
		models.PostPublished, []string{"gardening", "help"}, 35, nil},
	{"noahfischer", "Soil moisture sensors on the community beds",
		"I put three cheap capacitive sensors in beds 2, 5 and 9, reporting to a small dashboard every ten minutes. The goal is to water less often but more deeply. Data so far says bed 9 dries twice as fast.",
		models.PostPublished, []string{"self-hosting", "gardening", "tech"}, 30, nil},
	{"kofi.mensah", "Raised bed build day: who needs one?",
		"We have reclaimed scaffold boards enough for four beds. Priority to members with mobility needs. Put your name in the thread and I will organise a build day.",
		models.PostPublished, []string{"woodworking", "community"}, 27, nil},
	{"julianowak", "Fermented chilli sauce from Mei's harvest",
		"Mei gave me a bag of jalapeños, two weeks in brine later we have sauce. 3% salt by weight, garlic, a carrot for sweetness. Bottles are in the shed fridge until Sunday.",
		models.PostPublished, []string{"cooking", "recipes"}, 24, nil},
	{"diego.rides", "Touring bike restoration, part 3: wheels",
		"Rebuilt both wheels with new rims and the original hubs. Truing took an entire evening. Next up is the headset, which currently sounds like a pepper grinder.",
		models.PostPublished, []string{"cycling", "repair", "show-and-tell"}, 20, nil},
	{"aiko.sato", "Garden sketches: the fruit hedge in April",
		"Painted from the bench by the shed over three lunch breaks. The blossom lasted exactly long enough for me to finish.",
		models.PostPublished, []string{"crafts", "show-and-tell"}, 16, nil},
	{"lucia.bianchi", "Wild flower strip: pollinator count",
		"On the sunny afternoon I counted 41 bees (mostly bumblebees), 6 hoverflies and 2 small tortoiseshells along the strip. Last year at this time it was grass. Worth every minute of raking.",
		models.PostPublished, []string{"nature", "gardening"}, 12, nil},
	{"rosa.grows", "The zucchini situation",
		"I planted four. I should have planted one. There is a crate by the gate, please help yourselves before I start leaving them on doorsteps.",
		models.PostPublished, []string{"gardening", "community"}, 6, nil},
	{"estherkim", "Hello from a new member",
		"Just moved to Hillcrest and took over plot 22. I have no idea what the previous owner planted, something is coming up everywhere. I draw for a living and will happily trade sketches for gardening advice.",
		models.PostPublished, []string{"community"}, 10, nil},
	{"elena.costa", "Treasurer's update: we can afford the water butt",
		"Thanks to the plant sale we have enough for a second water butt and a new hose reel. Receipts are in the folder. Next on the wish list: a proper wheelbarrow.",
		models.PostPublished, []string{"announcements", "community"}, 8, nil},
	{"chloedubois", "Photo walk around the garden at golden hour",
		"Meeting at 7:30pm by the gate on Friday. Any camera or phone is fine. I will share a few simple tips on light and composition, then we wander.",
		models.PostPublished, []string{"photography", "events"}, 5, nil},
	{"samir.trails", "Draft: gravel routes from the river path",
		"Collecting my favourite loops for a route guide. Still need to check the farm track after the rain.",
		models.PostDraft, []string{"cycling", "outdoors"}, 4, nil},
	{"nadiap", "Draft: pottery evening plans",
		"Thinking about a monthly pottery evening at the community hall. Need to confirm the kiln booking first.",
		models.PostDraft, []string{"crafts"}, 3, nil},
	{"yaramendes", "Draft: harvest supper menu",
		"Soup, flatbreads from the cob oven, a big salad from the beds. Need a headcount.",
		models.PostDraft, []string{"cooking", "events"}, 2, nil},

	// The moderation queue.
	{"quickdeals_shop", "Best prices on garden tools, link in bio",
		"Professional quality tools at wholesale prices!!! Spades, shears, hoses, everything 60% off this week only. Message me for the link, fast shipping.",
		models.PostPublished, []string{"gear"}, 2, []demoReport{{"priyagrows", "spam", false}, {"kofi.mensah", "spam", false}, {"elena.costa", "self-promotion", false}}},
	{"quickdeals_shop", "Earn $500/week from home while your tomatoes grow",
		"No experience needed. Just sign up with my referral code and start earning today. Limited places!",
		models.PostFlagged, nil, 1, []demoReport{{"gracewalker", "spam", false}, {"sofiarossi", "spam", false}}},
	{"gus.grumble", "Whoever runs the watering rota is clueless",
		"Three weeks in a row my beds were bone dry. Some people here clearly should not be trusted with a hose. Maybe the moderator should spend less time posting and more time doing her job.",
		models.PostFlagged, []string{"community"}, 9, []demoReport{{"meichen", "harassment", false}, {"tomas_fixes", "harassment", false}, {"priyagrows", "harassment", false}}},
	{"gus.grumble", "Re: plot allocations",
		"Some people on this board need to get a grip. If you cannot keep a plot weeded, hand it over to someone who can.",
		models.PostHidden, []string{"community"}, 11, []demoReport{{"sofiarossi", "harassment", true}}},
	{"theoquinn", "Anyone selling a PS5?",
		"Looking for a PS5 with two controllers, can pay cash. Please message me.",
		models.PostPublished, nil, 7, []demoReport{{"hannah.okafor", "off-topic", false}, {"lars.rides", "off-topic", false}}},
	{"viktor.s", "Crypto tokens to fund the garden?",
		"What if we issued our own token for the community garden? Members could invest and earn from the harvest. I can set it all up for a small fee.",
		models.PostPublished, []string{"discussion"}, 5, []demoReport{{"elena.costa", "self-promotion", false}}},
	{"benhughes", "You can ignore the label on slug pellets",
		"My neighbour says the warnings are just legal stuff and you can use as many as you like, even around the herbs. Saved my lettuces.",
		models.PostFlagged, []string{"gardening"}, 4, []demoReport{{"erik.svensson", "misinformation", false}, {"fatima.k", "misinformation", false}}},
	{"isaac.young", "Bike lights question",
		"What front light do people use for the river path? It is very dark under the bridge.",
		models.PostPublished, []string{"cycling", "help"}, 3, []demoReport{{"lars.rides", "duplicate post", false}}},
	{"cheap_seeds_4u", "50% OFF heirloom seeds - limited time!!!",
		"Huge discounts on all seeds, buy now before stock runs out. Visit our shop for the best prices in the country.",
		models.PostHidden, []string{"gardening"}, 28, []demoReport{{"priyagrows", "spam", true}, {"meichen", "spam", true}, {"rosa.grows", "spam", true}}},
}

// demoGeneratedPosts is how many more posts the text generator adds, by
// regular members, around the written-out ones.
const demoGeneratedPosts = 24

// demoTopics are the generator's topics that fit the demo community.
var demoTopics = map[string]bool{
	"vegetable gardening": true, "the community garden": true, "bike maintenance": true,
	"commuting by bike": true, "woodworking": true, "3D printing": true, "sourdough baking": true,
	"the repair café": true, "knitting": true, "board game nights": true, "beekeeping": true,
}

var demoFlags = []models.FeatureFlag{
	{Name: "new_editor", Description: "The new post editor with live preview", Enabled: true, RolloutPercentage: 50},
	{Name: "dark_mode", Description: "Dark colour scheme in the console and the site", Enabled: true, RolloutPercentage: 100},
	{Name: "beta_search", Description: "Ranked search across posts and members (beta)", Enabled: false, RolloutPercentage: 0},
	{Name: "weekly_digest", Description: "A weekly email digest of popular posts", Enabled: true, RolloutPercentage: 10},
}

// demoEvents is how many analytics events the demo gets, over 90 days.
const demoEvents = 400

// Demo creates the small demo community of a first start (unless
// SEED_DEMO=false): about forty members of a neighbourhood makers-and-growers
// group (one moderator, two banned, two inactive, none with a password and
// none an admin), about sixty posts with tags (some drafts, hidden and
// flagged), seven posts with open reports, bans, a couple of moderation
// actions, feature flags, notifications and analytics events. It is
// deterministic apart from dates, which are relative to the Store's clock.
// The members and posts go in in one transaction; when a demo username is
// taken already it returns an error wrapping models.ErrConflict and writes
// nothing.
func Demo(ctx context.Context, s *models.Store) (Result, error) {
	now := s.Timestamp()
	d := &demo{r: rand.New(rand.NewPCG(demoSeed, 1)), now: now}
	var res Result
	err := s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		d.tx = tx
		var err error
		res, err = d.write(ctx)
		return err
	})
	if err != nil {
		return Result{}, fmt.Errorf("seed demo: %w", err)
	}
	if err := demoEventRows(ctx, s, now); err != nil {
		return res, err
	}
	res.Events = demoEvents
	return res, nil
}

// demoEventRows adds the demo's analytics events with Bulk's writer,
// attributed to the members.
func demoEventRows(ctx context.Context, s *models.Store, now time.Time) error {
	sd := newSeeder(s, Options{Events: demoEvents, Seed: demoSeed})
	sd.now = now
	if err := sd.lookups(ctx); err != nil {
		return fmt.Errorf("seed demo: %w", err)
	}
	if err := sd.loadPool(ctx); err != nil {
		return fmt.Errorf("seed demo: %w", err)
	}
	if err := sd.stage(ctx, StageEvents, demoEvents, "", streamEvents, sd.genEvents); err != nil {
		return fmt.Errorf("seed demo events: %w", err)
	}
	return sd.rollUp(ctx)
}

// demo writes the demo community in one transaction, every random choice
// from r in a fixed order.
type demo struct {
	tx     bun.Tx
	r      *rand.Rand
	now    time.Time
	users  []models.User // in demoUsers' order
	byName map[string]*models.User
}

// write writes the members, their posts and the rest of the community.
func (d *demo) write(ctx context.Context) (Result, error) {
	var res Result
	if err := d.checkFree(ctx); err != nil {
		return res, err
	}
	if err := d.insertUsers(ctx); err != nil {
		return res, err
	}
	res.Users = len(d.users)
	posts, reports, err := d.insertPosts(ctx)
	if err != nil {
		return res, err
	}
	res.Posts, res.Reports = posts, reports
	return res, d.insertExtras(ctx)
}

// ago is a time about days days before now, a random part of half a day
// later.
func (d *demo) ago(days int) time.Time {
	return d.now.Add(-time.Duration(days)*24*time.Hour + time.Duration(d.r.IntN(12*60))*time.Minute).Truncate(time.Microsecond)
}

// checkFree fails with models.ErrConflict when a demo username is taken.
func (d *demo) checkFree(ctx context.Context) error {
	names := make([]string, len(demoUsers))
	for i, du := range demoUsers {
		names[i] = du.username
	}
	taken, err := d.tx.NewSelect().Model((*models.User)(nil)).Where("lower(username) IN (?)", bun.List(names)).Count(ctx)
	if err != nil {
		return err
	}
	if taken > 0 {
		return fmt.Errorf("demo users exist already: %w", models.ErrConflict)
	}
	return nil
}

// insertUsers writes the members and their roles.
func (d *demo) insertUsers(ctx context.Context) error {
	users := make([]models.User, len(demoUsers))
	for i, du := range demoUsers {
		users[i] = d.user(i, du)
	}
	if _, err := d.tx.NewInsert().Model(&users).Returning("id").Exec(ctx); err != nil {
		if models.IsUniqueViolation(err) {
			return fmt.Errorf("demo users: %w", models.ErrConflict)
		}
		return err
	}
	d.users = users
	d.byName = make(map[string]*models.User, len(users))
	for i := range users {
		d.byName[users[i].Username] = &users[i]
	}
	return d.insertRoles(ctx)
}

// user is member i, du.
func (d *demo) user(i int, du demoUser) models.User {
	created := d.ago(du.ageDays)
	u := models.User{
		Username:      du.username,
		Email:         du.username + "@" + fakeEmailDomains[i%3],
		Bio:           du.bio,
		Location:      du.location,
		ProfilePublic: i%9 != 4,
		Status:        models.UserActive,
		IsActive:      true,
		CreatedAt:     created,
		UpdatedAt:     created,
	}
	u.EmailCanonical = emailcanon.Canonical(u.Email)
	u.SignupIP = demoAddress(i, du.username)
	u.SignupNet = clientnet.Range(u.SignupIP)
	if du.name != "" {
		u.Name = &du.name
	}
	if du.status != "" {
		u.Status = du.status
		u.IsActive = du.status != models.UserInactive
	}
	if i%5 != 3 {
		v := created.Add(time.Duration(5+d.r.IntN(600)) * time.Minute)
		u.EmailVerified = &v
		u.IsVerified = i%3 != 2
	}
	if u.Status != models.UserInactive {
		last := d.now.Add(-time.Duration(d.r.IntN(min(du.ageDays, 20)*24+1)) * time.Hour)
		if last.Before(created) {
			last = created
		}
		u.LastLoginAt = &last
		u.LoginCount = 1 + d.r.IntN(du.ageDays/2+1)
		u.UpdatedAt = created.Add(last.Sub(created) / 3)
	}
	return u
}

// demoSpamAddresses are where the two shops signed up from: both from one
// address, and a newcomer who says little about himself from another of
// its range, so that their pages' related accounts show something.
var demoSpamAddresses = map[string]string{
	"cheap_seeds_4u":  "100.100.7.21",
	"quickdeals_shop": "100.100.7.21",
	"viktor.s":        "100.100.7.88",
}

// demoAddress is the address member i signed up from: each member a
// range of its own (one in four over IPv6), in ranges that reach no one
// (the shared address space 100.64.0.0/10, the documentation prefix
// 2001:db8::/32), but for demoSpamAddresses.
func demoAddress(i int, username string) string {
	if ip, ok := demoSpamAddresses[username]; ok {
		return ip
	}
	if i%4 == 3 {
		return fmt.Sprintf("2001:db8:%x:%x::%x", 0x4000+i, 0x20+i, 7+i)
	}
	return fmt.Sprintf("100.%d.%d.%d", 64+i, (10+i*7)%256, 20+i)
}

// insertRoles gives every member the user role, and the moderator hers.
func (d *demo) insertRoles(ctx context.Context) error {
	var roles []models.Role
	if err := d.tx.NewSelect().Model(&roles).Scan(ctx); err != nil {
		return err
	}
	roleID := map[string]int64{}
	for _, ro := range roles {
		roleID[ro.Name] = ro.ID
	}
	var grants []models.UserRole
	for i, u := range d.users {
		grants = append(grants, models.UserRole{UserID: u.ID, RoleID: roleID[models.RoleUser], GrantedAt: u.CreatedAt})
		if demoUsers[i].moderator {
			grants = append(grants, models.UserRole{UserID: u.ID, RoleID: roleID[models.RoleModerator], GrantedAt: u.CreatedAt.Add(72 * time.Hour)})
		}
	}
	_, err := d.tx.NewInsert().Model(&grants).Exec(ctx)
	return err
}

// plannedPost is a demo post before it is written.
type plannedPost struct {
	post    models.Post
	tags    []string
	reports []demoReport
}

// insertPosts writes the written-out and the generated posts, their tags
// and reports, and the members' post counts. It returns how many posts and
// reports it wrote.
func (d *demo) insertPosts(ctx context.Context) (posts, reports int, err error) {
	all := d.generatedPosts(d.writtenPosts())
	// Ids follow creation order, as in a live community.
	slices.SortStableFunc(all, func(a, b plannedPost) int { return a.post.CreatedAt.Compare(b.post.CreatedAt) })
	rows := d.postRows(all)
	if _, err := d.tx.NewInsert().Model(&rows).Returning("id").Exec(ctx); err != nil {
		return 0, 0, err
	}
	tags, reps := d.tagsAndReports(all, rows)
	if len(tags) > 0 {
		if _, err := d.tx.NewInsert().Model(&tags).Exec(ctx); err != nil {
			return 0, 0, err
		}
	}
	if _, err := d.tx.NewInsert().Model(&reps).Exec(ctx); err != nil {
		return 0, 0, err
	}
	if err := d.countPosts(ctx); err != nil {
		return 0, 0, err
	}
	return len(rows), len(reps), nil
}

// writtenPosts plans the posts of demoPosts.
func (d *demo) writtenPosts() []plannedPost {
	var all []plannedPost
	for _, dp := range demoPosts {
		author := d.byName[dp.author]
		created := d.now.Add(-time.Duration(dp.ageDays)*24*time.Hour - time.Duration(d.r.IntN(10*60))*time.Minute).Truncate(time.Microsecond)
		if created.Before(author.CreatedAt) {
			created = author.CreatedAt.Add(time.Hour)
		}
		all = append(all, plannedPost{post: models.Post{AuthorID: author.ID, Title: dp.title, Content: dp.content, Status: dp.status,
			CreatedAt: created, UpdatedAt: created}, tags: dp.tags, reports: dp.reports})
	}
	return all
}

// generatedPosts adds demoGeneratedPosts posts from the text generator, on
// the demo's topics, by regular, active members over the last 90 days.
func (d *demo) generatedPosts(all []plannedPost) []plannedPost {
	var regulars []*models.User
	for i := range d.users {
		if d.users[i].Status == models.UserActive && i < demoRegulars {
			regulars = append(regulars, &d.users[i])
		}
	}
	ft := newFakeText()
	buf := make([]byte, 0, 512)
	now := d.now.UnixMicro()
	for len(all) < len(demoPosts)+demoGeneratedPosts {
		title, content, topic := ft.post(d.r, buf)
		if !demoTopics[topic.name] {
			continue
		}
		author := regulars[d.r.IntN(len(regulars))]
		created := seedTime(between(d.r, max(author.CreatedAt.UnixMicro(), d.now.Add(-90*24*time.Hour).UnixMicro()), now, 1))
		all = append(all, plannedPost{post: models.Post{AuthorID: author.ID, Title: title, Content: content, Status: models.PostPublished,
			CreatedAt: created, UpdatedAt: created}, tags: ft.tags(d.r, topic, nil)})
	}
	return all
}

// postRows completes the planned posts: report counts, publication dates
// and, for one in four, a later edit.
func (d *demo) postRows(all []plannedPost) []models.Post {
	rows := make([]models.Post, len(all))
	for i, w := range all {
		p := w.post
		p.ReportCount = len(w.reports)
		if p.Status != models.PostDraft {
			at := p.CreatedAt
			p.PublishedAt = &at
		}
		if d.r.IntN(4) == 0 {
			p.UpdatedAt = seedTime(between(d.r, p.CreatedAt.UnixMicro(), d.now.UnixMicro(), 2))
		}
		rows[i] = p
	}
	return rows
}

// tagsAndReports builds the tags and reports of the planned posts, which
// were written as rows.
func (d *demo) tagsAndReports(all []plannedPost, rows []models.Post) ([]models.PostTag, []models.PostReport) {
	var tags []models.PostTag
	var reps []models.PostReport
	moderator := d.byName["hannah.okafor"].ID
	for i, w := range all {
		for _, t := range w.tags {
			tags = append(tags, models.PostTag{PostID: rows[i].ID, Tag: t})
		}
		for k, dr := range w.reports {
			at := rows[i].CreatedAt.Add(time.Duration(30+k*95+d.r.IntN(60)) * time.Minute)
			if at.After(d.now) {
				at = d.now
			}
			rep := models.PostReport{PostID: rows[i].ID, ReporterID: d.byName[dr.reporter].ID, Reason: dr.reason, Status: models.ReportOpen, CreatedAt: at}
			if k == 0 {
				rep.Comment = demoComments[dr.reason] // the first reporter of a post says why
			}
			if dr.resolved {
				done := at.Add(5 * time.Hour)
				rep.Status, rep.ResolvedAt, rep.ResolvedBy = models.ReportResolved, &done, &moderator
			}
			reps = append(reps, rep)
		}
	}
	return tags, reps
}

// countPosts sets the members' denormalised post counts from the rows just
// written.
func (d *demo) countPosts(ctx context.Context) error {
	ids := make([]int64, len(d.users))
	for i, u := range d.users {
		ids[i] = u.ID
	}
	_, err := d.tx.NewUpdate().Table("users").
		Set("post_count = (SELECT count(*) FROM posts WHERE posts.author_id = users.id)").
		Where("id IN (?)", bun.List(ids)).Exec(ctx)
	return err
}

// insertExtras writes the bans and moderation actions, subscriptions and
// provider accounts, feature flags and notifications.
func (d *demo) insertExtras(ctx context.Context) error {
	for _, step := range []func(context.Context) error{d.insertModeration, d.insertSubscriptions, d.insertFlags, d.insertNotifications} {
		if err := step(ctx); err != nil {
			return err
		}
	}
	return nil
}

// insertModeration bans the spammer and the troublemaker and records the
// moderator hiding their posts.
func (d *demo) insertModeration(ctx context.Context) error {
	moderator := d.byName["hannah.okafor"].ID
	spammer, grumbler := d.byName["cheap_seeds_4u"].ID, d.byName["gus.grumble"].ID
	week := d.now.Add(7 * 24 * time.Hour)
	bans := []models.Ban{
		{UserID: spammer, Reason: "spam", Notes: "Seed shop adverts in three threads.", CreatedAt: d.ago(27)},
		{UserID: grumbler, Reason: "harassment", Notes: "Personal attacks on the moderator; one-week timeout.", CreatedAt: d.ago(1), ExpiresAt: &week},
	}
	if _, err := d.tx.NewInsert().Model(&bans).Exec(ctx); err != nil {
		return err
	}
	var hidden []models.Post
	if err := d.tx.NewSelect().Model(&hidden).Where("status = ?", models.PostHidden).
		Where("author_id IN (?)", bun.List([]int64{spammer, grumbler})).Order("id").Scan(ctx); err != nil {
		return err
	}
	var actions []models.ModerationAction
	for _, p := range hidden {
		reason := "spam"
		if p.AuthorID == grumbler {
			reason = "harassment"
		}
		actions = append(actions, models.ModerationAction{PostID: p.ID, PostTitle: p.Title, AdminID: &moderator, Action: "hide", AuthorID: &p.AuthorID,
			Reason: reason, FromStatus: models.PostPublished, ToStatus: models.PostHidden, CreatedAt: p.CreatedAt.Add(6 * time.Hour)})
	}
	if len(actions) == 0 {
		return nil
	}
	_, err := d.tx.NewInsert().Model(&actions).Exec(ctx)
	return err
}

// insertSubscriptions subscribes some regulars to the newsletter or as
// supporters, and links some to a sign-in provider.
func (d *demo) insertSubscriptions(ctx context.Context) error {
	if err := ensureSubscriptionTypes(ctx, d.tx, d.now, nil); err != nil {
		return err
	}
	var types []models.SubscriptionType
	if err := d.tx.NewSelect().Model(&types).Where("name IN (?)", bun.List([]string{"Newsletter", "Supporter"})).Order("name").Scan(ctx); err != nil {
		return err
	}
	var subs []models.UserSubscription
	var accounts []models.ProviderAccount
	for i, u := range d.users {
		if u.Status != models.UserActive || i >= demoRegulars {
			continue
		}
		for _, t := range types {
			if (t.Name == "Newsletter" && i%5 < 2) || (t.Name == "Supporter" && i%9 == 0) {
				subs = append(subs, models.UserSubscription{UserID: u.ID, SubscriptionTypeID: t.ID, Status: "active", StartedAt: u.CreatedAt.Add(24 * time.Hour)})
			}
		}
		if i%4 == 1 {
			p := fakeProviders[i%len(fakeProviders)]
			email := u.Email
			accounts = append(accounts, models.ProviderAccount{UserID: u.ID, Provider: p, ProviderUserID: providerUserID(p, 900000+int64(i)),
				Email: &email, EmailVerified: true, CreatedAt: u.CreatedAt, LastUsedAt: u.LastLoginAt})
		}
	}
	if _, err := d.tx.NewInsert().Model(&subs).Exec(ctx); err != nil {
		return err
	}
	_, err := d.tx.NewInsert().Model(&accounts).On("CONFLICT DO NOTHING").Exec(ctx)
	return err
}

// insertFlags adds the demo's feature flags that do not exist yet.
func (d *demo) insertFlags(ctx context.Context) error {
	flags := make([]models.FeatureFlag, len(demoFlags))
	for i, f := range demoFlags {
		f.CreatedAt, f.UpdatedAt = d.ago(60-i*10), d.ago(20-i*4)
		flags[i] = f
	}
	_, err := d.tx.NewInsert().Model(&flags).On("CONFLICT (name) DO NOTHING").Exec(ctx)
	return err
}

// insertNotifications leaves a few notifications, some read.
func (d *demo) insertNotifications(ctx context.Context) error {
	moderator := d.byName["hannah.okafor"].ID
	read := func(t time.Time) *time.Time { t = t.Add(3 * time.Hour); return &t }
	notes := []models.Notification{
		{UserID: moderator, Title: "New reports to review", Message: "Seven posts have open reports in the moderation queue.", Type: "warning", CreatedAt: d.ago(1)},
		{UserID: d.byName["gus.grumble"].ID, Title: "Your post was hidden", Message: "Your post \"Re: plot allocations\" was hidden for breaking the community guidelines.", Type: "warning", CreatedAt: d.ago(10)},
		{UserID: d.byName["estherkim"].ID, Title: "Welcome to Riverside Makers & Growers", Message: "Say hello in the welcome thread and check the watering rota in the shed.", Type: "info", CreatedAt: d.ago(14)},
		{UserID: d.byName["isaac.young"].ID, Title: "Welcome to Riverside Makers & Growers", Message: "Say hello in the welcome thread and check the watering rota in the shed.", Type: "info", CreatedAt: d.ago(21)},
		{UserID: d.byName["kofi.mensah"].ID, Title: "Raised bed build day confirmed", Message: "Four people signed up; the build day is on Saturday.", Type: "success", CreatedAt: d.ago(20)},
		{UserID: d.byName["elena.costa"].ID, Title: "Plant sale total", Message: "The plant sale raised enough for a second water butt.", Type: "success", CreatedAt: d.ago(9)},
	}
	notes[2].ReadAt = read(notes[2].CreatedAt)
	notes[4].ReadAt = read(notes[4].CreatedAt)
	_, err := d.tx.NewInsert().Model(&notes).Exec(ctx)
	return err
}
