package seed

import (
	"encoding/hex"
	"math/rand/v2"
	"strconv"
	"strings"
)

// The word lists below feed Bulk and Demo. They are read-only data: the
// generators copy from them and never write to them.

var fakeFirstNames = []string{
	"Aaliyah", "Adam", "Adele", "Aiko", "Alba", "Alejandro", "Amara", "Amir", "Ana", "Anders",
	"Anika", "Arjun", "Astrid", "Ayesha", "Beatriz", "Ben", "Bianca", "Bruno", "Camille", "Carlos",
	"Chen", "Chiara", "Chloe", "Dario", "David", "Diego", "Elena", "Elif", "Elias", "Emeka",
	"Emma", "Erik", "Esther", "Fatima", "Felix", "Fiona", "Freya", "Gabriel", "Grace", "Hana",
	"Hannah", "Hiro", "Ibrahim", "Ines", "Ingrid", "Isaac", "Isabel", "Ivan", "Jakob", "James",
	"Jana", "Javier", "Jonas", "Julia", "Kai", "Karim", "Katarina", "Kenji", "Kofi", "Laila",
	"Lars", "Laura", "Leila", "Leo", "Lina", "Lucas", "Lucia", "Luis", "Maja", "Malik",
	"Marco", "Maria", "Mateo", "Maya", "Mei", "Mia", "Mikael", "Mira", "Nadia", "Naomi",
	"Nia", "Nico", "Noah", "Nora", "Olga", "Omar", "Oscar", "Paula", "Pedro", "Priya",
	"Rafael", "Rania", "Ravi", "Rosa", "Ruth", "Sakura", "Samir", "Sara", "Sofia", "Stefan",
	"Tariq", "Tess", "Theo", "Tomas", "Uma", "Valentina", "Viktor", "Wei", "Yara", "Yusuf",
	"Zara", "Zoe",
}

var fakeLastNames = []string{
	"Abara", "Adeyemi", "Ahmed", "Alvarez", "Andersen", "Bauer", "Becker", "Bianchi", "Brown", "Castro",
	"Chen", "Costa", "Dalton", "Dubois", "Eriksen", "Evans", "Fernandes", "Fischer", "Fontaine", "Garcia",
	"Gomez", "Gruber", "Haddad", "Hansen", "Hayashi", "Hughes", "Ivanova", "Jensen", "Johansson", "Kaur",
	"Keller", "Khan", "Kim", "Kowalski", "Kruger", "Larsen", "Laurent", "Lee", "Lindqvist", "Lopez",
	"Mancini", "Martin", "Mendes", "Meyer", "Moreau", "Morris", "Nakamura", "Nguyen", "Novak", "Nowak",
	"Okafor", "Oliveira", "Olsen", "Park", "Patel", "Perez", "Petrov", "Quinn", "Ramos", "Reyes",
	"Ricci", "Rossi", "Russo", "Sato", "Schmidt", "Silva", "Singh", "Sokolov", "Suzuki", "Svensson",
	"Tanaka", "Thompson", "Torres", "Vargas", "Varga", "Vogel", "Wagner", "Walker", "Wang", "Weber",
	"Wilson", "Wright", "Yamamoto", "Yilmaz", "Young", "Zhang", "Zimmermann",
}

// fakeEmailDomains are reserved example domains (RFC 2606), so seeded
// addresses can never reach a real mailbox.
var fakeEmailDomains = []string{"example.com", "example.org", "example.net"}

var fakeLocations = []string{
	"Amsterdam, NL", "Athens, GR", "Austin, TX", "Barcelona, ES", "Berlin, DE", "Bogotá, CO", "Boston, MA",
	"Brisbane, AU", "Brussels, BE", "Budapest, HU", "Buenos Aires, AR", "Cape Town, ZA", "Chicago, IL",
	"Copenhagen, DK", "Dublin, IE", "Edinburgh, UK", "Florence, IT", "Hamburg, DE", "Helsinki, FI",
	"Istanbul, TR", "Kraków, PL", "Kyoto, JP", "Lagos, NG", "Lisbon, PT", "London, UK", "Lyon, FR",
	"Madrid, ES", "Manchester, UK", "Melbourne, AU", "Mexico City, MX", "Milan, IT", "Montréal, CA",
	"Munich, DE", "Nairobi, KE", "Oslo, NO", "Paris, FR", "Portland, OR", "Porto, PT", "Prague, CZ",
	"Reykjavík, IS", "Rotterdam, NL", "San Francisco, CA", "Santiago, CL", "São Paulo, BR", "Seattle, WA",
	"Seoul, KR", "Singapore", "Stockholm, SE", "Tallinn, EE", "Tokyo, JP", "Toronto, CA", "Utrecht, NL",
	"Valencia, ES", "Vancouver, CA", "Vienna, AT", "Vilnius, LT", "Warsaw, PL", "Wellington, NZ", "Zürich, CH",
}

var fakeBioRoles = []string{
	"Software developer", "Retired teacher", "Nurse", "Graphic designer", "Student", "Carpenter",
	"Data analyst", "Bike mechanic", "Librarian", "Architect", "Baker", "Photographer", "Electrician",
	"Researcher", "Product manager", "Illustrator", "Chef", "Physiotherapist", "Sound engineer", "Gardener",
}

var fakeHobbies = []string{
	"gardening", "long bike rides", "sourdough baking", "woodworking", "film photography", "trail running",
	"board games", "3D printing", "birdwatching", "knitting", "home brewing", "climbing", "watercolours",
	"fixing old radios", "composting", "hiking", "pottery", "mechanical keyboards", "jazz records", "chess",
	"urban sketching", "bikepacking", "beekeeping", "self-hosting", "fermentation",
}

var fakeBioEndings = []string{
	"Always happy to help newcomers.", "Ask me anything about tools.", "Slowly learning patience.",
	"Here for the good conversations.", "Trying to post more than I lurk.", "Coffee first, questions later.",
	"Volunteer at the Saturday repair café.", "Still looking for the perfect tomato.", "",
}

// fakeTopic is a subject posts are written about.
type fakeTopic struct {
	name   string   // "the community garden"
	things []string // nouns that fit the topic
	tags   []string // tags that fit the topic
}

var fakeTopics = []fakeTopic{
	{"vegetable gardening", []string{"tomato seedlings", "raised bed", "compost heap", "drip irrigation", "seed potatoes", "pea trellis"}, []string{"gardening", "growing", "help"}},
	{"the community garden", []string{"tool shed", "watering rota", "rain barrel", "herb spiral", "new plots", "greenhouse"}, []string{"gardening", "community", "events"}},
	{"bike maintenance", []string{"chain", "brake pads", "derailleur", "tubeless setup", "bottom bracket", "wheel truing stand"}, []string{"cycling", "repair", "help"}},
	{"commuting by bike", []string{"rain jacket", "panniers", "front light", "winter tyres", "bike lane", "lock"}, []string{"cycling", "commuting", "discussion"}},
	{"woodworking", []string{"workbench", "dovetail joints", "hand plane", "oak offcuts", "chisel set", "finishing oil"}, []string{"making", "woodworking", "show-and-tell"}},
	{"3D printing", []string{"PLA filament", "print bed", "nozzle", "slicer settings", "enclosure", "calibration cube"}, []string{"making", "3d-printing", "help"}},
	{"sourdough baking", []string{"starter", "banneton", "dutch oven", "rye flour", "crumb", "overnight proof"}, []string{"cooking", "baking", "recipes"}},
	{"weeknight cooking", []string{"lentil soup", "cast iron pan", "spice drawer", "meal plan", "pressure cooker", "leftovers"}, []string{"cooking", "recipes", "discussion"}},
	{"film photography", []string{"35mm camera", "light meter", "darkroom", "expired film", "scanner", "prime lens"}, []string{"photography", "show-and-tell", "gear"}},
	{"the repair café", []string{"toaster", "sewing machine", "soldering iron", "vacuum cleaner", "lamp", "spare parts box"}, []string{"repair", "community", "events"}},
	{"home servers", []string{"backup drive", "reverse proxy", "old laptop", "NAS", "UPS", "dashboard"}, []string{"self-hosting", "tech", "help"}},
	{"trail running", []string{"trail shoes", "hydration vest", "hill repeats", "race plan", "headlamp", "recovery week"}, []string{"running", "outdoors", "training"}},
	{"birdwatching", []string{"binoculars", "feeder", "field guide", "morning walk", "nest box", "bird count"}, []string{"outdoors", "nature", "show-and-tell"}},
	{"beekeeping", []string{"hive", "smoker", "queen", "honey harvest", "varroa check", "frames"}, []string{"nature", "growing", "help"}},
	{"knitting", []string{"merino yarn", "circular needles", "sweater pattern", "swatch", "sock heel", "blocking mats"}, []string{"making", "crafts", "show-and-tell"}},
	{"board game nights", []string{"co-op game", "rulebook", "expansion", "game shelf", "snack table", "score pad"}, []string{"games", "events", "community"}},
}

var fakeAdjectives = []string{
	"small", "cheap", "second-hand", "new", "old", "homemade", "borrowed", "tiny", "oversized", "reliable",
	"stubborn", "beautiful", "wobbly", "simple", "quiet", "clever",
}

var fakeTitleForms = []string{
	"Tips for {topic} on a budget",
	"Question about my {thing}",
	"What I learned after {n} months of {topic}",
	"Show and tell: my {adj} {thing}",
	"Is a {adj} {thing} worth it?",
	"Beginner question: {topic}",
	"Finally fixed the {thing}",
	"Recommendations for a {thing}?",
	"{Topic}: my weekend project",
	"Looking for people into {topic}",
	"Update on the {thing}",
	"Help! {Thing} keeps failing",
	"Lessons from a year of {topic}",
	"Anyone near {place} into {topic}?",
	"A {adj} trick for the {thing}",
	"Weekly thread: {topic}",
}

var fakeSentenceForms = []string{
	"I have been getting into {topic} for about {n} months now.",
	"Last weekend I finally sorted out the {thing}.",
	"The {adj} {thing} I picked up turned out better than expected.",
	"Does anyone have experience with a {adj} {thing}?",
	"My {thing} started acting up again and I am not sure why.",
	"Someone at the meetup suggested checking the {thing} first.",
	"It took {n} attempts but it works now.",
	"Happy to share notes if anyone near {place} wants them.",
	"I would love to hear how others approach this.",
	"Photos are in the thread below.",
	"Next step is a {adj} {thing}, any advice welcome.",
	"Honestly the hardest part was finding time.",
	"The guide I followed skipped the part about the {thing}.",
	"Thanks to everyone who answered my last question.",
	"Budget so far is about {n}0 euros.",
	"I am keeping a log of what works and what does not.",
}

var fakeTags = []string{
	"announcements", "baking", "community", "commuting", "cooking", "crafts", "cycling", "discussion",
	"events", "games", "gardening", "gear", "growing", "help", "making", "nature", "outdoors",
	"photography", "recipes", "repair", "running", "self-hosting", "show-and-tell", "tech", "training",
	"woodworking", "3d-printing",
}

var fakeReportReasons = []string{
	"spam", "spam", "spam", "harassment", "off-topic", "off-topic", "misinformation",
	"inappropriate content", "self-promotion", "duplicate post", "hate speech",
}

var fakeBanReasons = []string{
	"spam", "harassment", "repeated off-topic posting", "ban evasion", "scam links", "abusive language",
}

var fakeProviders = []string{"github", "google", "gitlab", "discord"}

var fakeEventTypes = []string{
	"page_view", "page_view", "page_view", "page_view", "click", "click", "scroll", "scroll",
	"button_click", "feature_used", "form_submit", "error_encountered",
}

var fakePagePaths = []string{
	"/", "/posts", "/posts/new", "/search", "/settings", "/settings/profile", "/notifications",
	"/tags/gardening", "/tags/cycling", "/tags/making", "/about", "/events", "/members",
}

var fakeUserAgents = []string{
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
	"Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
	"Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0",
	"Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
	"Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36",
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0",
}

// pick returns a random element of list.
func pick[T any](r *rand.Rand, list []T) T { return list[r.IntN(len(list))] }

// fakeText writes titles, posts and bios by filling templates. Templates
// are parsed once per Bulk call; expanding one costs a few appends.
type fakeText struct {
	titles    [][]tmplPart
	sentences [][]tmplPart
}

// tmplPart is literal text, or (when slot is set) a placeholder.
type tmplPart struct {
	text string
	slot string
}

// newFakeText parses the title and sentence templates.
func newFakeText() *fakeText {
	return &fakeText{titles: parseForms(fakeTitleForms), sentences: parseForms(fakeSentenceForms)}
}

// parseForms splits each form into text and {slot} placeholders.
func parseForms(forms []string) [][]tmplPart {
	out := make([][]tmplPart, len(forms))
	for i, f := range forms {
		for f != "" {
			open := strings.IndexByte(f, '{')
			if open < 0 {
				out[i] = append(out[i], tmplPart{text: f})
				break
			}
			closing := strings.IndexByte(f[open:], '}') + open
			if open > 0 {
				out[i] = append(out[i], tmplPart{text: f[:open]})
			}
			out[i] = append(out[i], tmplPart{slot: f[open+1 : closing]})
			f = f[closing+1:]
		}
	}
	return out
}

// expand appends parts to b, filling the placeholders for topic t.
func (ft *fakeText) expand(b []byte, r *rand.Rand, parts []tmplPart, t *fakeTopic) []byte {
	for _, p := range parts {
		switch p.slot {
		case "":
			b = append(b, p.text...)
		case "topic":
			b = append(b, t.name...)
		case "Topic":
			b = appendCapitalized(b, t.name)
		case "thing":
			b = append(b, pick(r, t.things)...)
		case "Thing":
			b = appendCapitalized(b, pick(r, t.things))
		case "adj":
			b = append(b, pick(r, fakeAdjectives)...)
		case "n":
			b = strconv.AppendInt(b, int64(2+r.IntN(11)), 10)
		case "place":
			loc := pick(r, fakeLocations)
			if i := strings.IndexByte(loc, ','); i > 0 {
				loc = loc[:i]
			}
			b = append(b, loc...)
		}
	}
	return b
}

// appendCapitalized appends s with its first ASCII letter in upper case.
func appendCapitalized(b []byte, s string) []byte {
	if s == "" {
		return b
	}
	if c := s[0]; c >= 'a' && c <= 'z' {
		return append(append(b, c-'a'+'A'), s[1:]...)
	}
	return append(b, s...)
}

// post returns a title and a content of 2 to 5 sentences (about 150 to 400
// characters) on a random topic, and the topic.
func (ft *fakeText) post(r *rand.Rand, buf []byte) (title, content string, t *fakeTopic) {
	t = &fakeTopics[r.IntN(len(fakeTopics))]
	buf = ft.expand(buf[:0], r, ft.titles[r.IntN(len(ft.titles))], t)
	title = string(buf)
	buf = buf[:0]
	n := 2 + r.IntN(4)
	for i := range n {
		if i > 0 {
			buf = append(buf, ' ')
		}
		buf = ft.expand(buf, r, ft.sentences[r.IntN(len(ft.sentences))], t)
	}
	return title, string(buf), t
}

// tags appends 0 to 3 distinct tags (0: 35%, 1: 40%, 2: 18%, 3: 7%),
// mostly ones that fit the topic.
func (ft *fakeText) tags(r *rand.Rand, t *fakeTopic, dst []string) []string {
	dst = dst[:0]
	var n int
	switch x := r.IntN(100); {
	case x < 35:
		return dst
	case x < 75:
		n = 1
	case x < 93:
		n = 2
	default:
		n = 3
	}
	for len(dst) < n {
		var tag string
		if r.IntN(4) == 0 {
			tag = pick(r, fakeTags)
		} else {
			tag = pick(r, t.tags)
		}
		dup := false
		for _, d := range dst {
			dup = dup || d == tag
		}
		if !dup {
			dst = append(dst, tag)
		}
	}
	return dst
}

// bio returns a short profile text, empty for about a fifth of users.
func (ft *fakeText) bio(r *rand.Rand, buf []byte) string {
	if r.IntN(5) == 0 {
		return ""
	}
	buf = append(buf[:0], pick(r, fakeBioRoles)...)
	buf = append(buf, ". I love "...)
	h1 := pick(r, fakeHobbies)
	buf = append(buf, h1...)
	if h2 := pick(r, fakeHobbies); h2 != h1 {
		buf = append(buf, " and "...)
		buf = append(buf, h2...)
	}
	buf = append(buf, '.')
	if end := pick(r, fakeBioEndings); end != "" {
		buf = append(buf, ' ')
		buf = append(buf, end...)
	}
	return string(buf)
}

// username builds a lowercase handle from a name and a unique number, in
// one of a few styles: "maria.garcia1234", "mgarcia1234", "maria_1234".
// Letters come only from the name and digits only from n, so two different
// numbers never give the same handle.
func username(buf []byte, first, last string, n int64, style int) []byte {
	buf = buf[:0]
	switch style % 4 {
	case 0:
		buf = appendLowerASCII(buf, first)
		buf = append(buf, '.')
		buf = appendLowerASCII(buf, last)
	case 1:
		buf = appendLowerASCII(buf, first[:1])
		buf = appendLowerASCII(buf, last)
	case 2:
		buf = appendLowerASCII(buf, first)
		buf = append(buf, '_')
	default:
		buf = appendLowerASCII(buf, first)
		buf = appendLowerASCII(buf, last)
	}
	return strconv.AppendInt(buf, n, 10)
}

// appendLowerASCII appends s lowercased, keeping only ASCII letters (names
// like "Bogotá" lose their accented letters).
func appendLowerASCII(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z':
			b = append(b, c-'A'+'a')
		case c >= 'a' && c <= 'z':
			b = append(b, c)
		}
	}
	return b
}

// randomHex returns n random bytes as hex.
func randomHex(r *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return hex.EncodeToString(b)
}

// uuidV7 builds a version 7 UUID from a Unix millisecond time and random bits.
func uuidV7(r *rand.Rand, unixMilli int64) [16]byte {
	var u [16]byte
	ms := uint64(unixMilli)
	u[0], u[1], u[2] = byte(ms>>40), byte(ms>>32), byte(ms>>24)
	u[3], u[4], u[5] = byte(ms>>16), byte(ms>>8), byte(ms)
	a, b := r.Uint64(), r.Uint64()
	for i := 6; i < 16; i++ {
		if i < 11 {
			u[i] = byte(a >> (8 * (i - 6)))
		} else {
			u[i] = byte(b >> (8 * (i - 11)))
		}
	}
	u[6] = u[6]&0x0f | 0x70 // version 7
	u[8] = u[8]&0x3f | 0x80 // RFC 4122 variant
	return u
}

// uuidString formats u as 8-4-4-4-12 hex.
func uuidString(u [16]byte) string {
	var b [36]byte
	hex.Encode(b[0:8], u[0:4])
	b[8] = '-'
	hex.Encode(b[9:13], u[4:6])
	b[13] = '-'
	hex.Encode(b[14:18], u[6:8])
	b[18] = '-'
	hex.Encode(b[19:23], u[8:10])
	b[23] = '-'
	hex.Encode(b[24:], u[10:])
	return string(b[:])
}
