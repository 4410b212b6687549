package mail

import (
	"flag"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/plazahq/plaza/internal/golden"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

func testComposer(t *testing.T) *Composer {
	t.Helper()
	c, err := NewComposer(Community{Name: "Plaza", URL: "http://plaza.test/", AlertsPath: "/admin/account"})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var at = time.Date(2026, 3, 14, 9, 26, 0, 0, time.UTC)

// sample is what people wrote that the messages carry.
type sample struct{ target, reason, excerpt, title, rule, statement, address string }

var realistic = sample{
	target:    "a post by @ana",
	reason:    "Spam",
	excerpt:   "Cheap watches at shop.example!\nOnly today.",
	title:     "Your post was hidden.",
	rule:      "2. No advertising (version 3)",
	statement: "The post advertises a shop, which rule 2 does not allow.\nYou can post again as usual.",
	address:   "ana.new@example.com",
}

// everyKind composes one message of each kind, carrying s.
func everyKind(t *testing.T, c *Composer, s sample) map[Kind]Message {
	t.Helper()
	report := Report{Target: s.target, Reason: s.reason, Excerpt: s.excerpt, At: at, Path: "/admin/reports?post=42"}
	reports := make([]Report, 3)
	for i := range reports {
		reports[i] = report
		reports[i].Path = fmt.Sprintf("/admin/reports?post=%d", 40+i)
	}
	out := map[Kind]Message{}
	for k, compose := range map[Kind]func() (Message, error){
		KindPasswordReset:     func() (Message, error) { return c.PasswordReset("ana@example.com", "tok-123", time.Hour) },
		KindPasswordChanged:   func() (Message, error) { return c.PasswordChanged("ana@example.com", at) },
		KindEmailVerify:       func() (Message, error) { return c.EmailVerify("ana@example.com", "tok-123", 24*time.Hour) },
		KindEmailChange:       func() (Message, error) { return c.EmailChange("ana@example.com", "tok-123", 24*time.Hour) },
		KindEmailChangeNotice: func() (Message, error) { return c.EmailChangeNotice("ana@example.com", s.address) },
		KindReportAlert:       func() (Message, error) { return c.ReportAlert("mod@example.com", report) },
		KindReportDigest: func() (Message, error) {
			return c.ReportDigest("mod@example.com", Digest{Since: at.Add(-time.Hour), Until: at, Reports: reports, Path: "/admin/reports"})
		},
		KindOpsAlert: func() (Message, error) {
			return c.OpsAlert("admin@example.com", Failure{What: "The scheduled backup", At: at, Error: s.excerpt, Path: "/admin/system"})
		},
		KindDecision: func() (Message, error) {
			return c.Decision("ana@example.com", Decision{Title: s.title, Rule: s.rule, Reason: s.statement, Until: at.Add(72 * time.Hour), Path: "/account/decisions/7"})
		},
		KindTest:                func() (Message, error) { return c.Test("admin@example.com", at) },
		KindApplicationApproved: func() (Message, error) { return c.ApplicationApproved("ana@example.com", s.statement) },
		KindApplicationRejected: func() (Message, error) { return c.ApplicationRejected("ana@example.com", s.statement) },
	} {
		m, err := compose()
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		if m.Kind != k {
			t.Errorf("%s composed a %s", k, m.Kind)
		}
		out[k] = m
	}
	if len(out) != len(kinds) {
		t.Fatalf("composed %d kinds, Plaza has %d", len(out), len(kinds))
	}
	return out
}

// TestGolden keeps each kind's words in testdata/, so that a change of
// wording shows in review: go test ./internal/mail -run TestGolden -update -v
func TestGolden(t *testing.T) {
	for k, m := range everyKind(t, testComposer(t), realistic) {
		t.Run(string(k), func(t *testing.T) {
			hint := "go test ./internal/mail -run TestGolden -update -v"
			text := fmt.Sprintf("To: %s\nSubject: %s\nSecret: %v\n\n%s", m.To, m.Subject, m.Secret, m.Text)
			golden.Check(t, filepath.Join("testdata", string(k)+".txt.golden"), []byte(text), *update, hint)
			golden.Check(t, filepath.Join("testdata", string(k)+".html.golden"), []byte(m.HTML), *update, hint)
		})
	}
}

// TestTemplatesMatchKinds: every kind has its two templates, and no
// template is left without a kind.
func TestTemplatesMatchKinds(t *testing.T) {
	files, err := fs.Glob(templateFiles, "templates/*")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"templates/layout.html", "templates/layout.txt"}
	for _, k := range kinds {
		want = append(want, "templates/"+string(k)+".html", "templates/"+string(k)+".txt")
	}
	slices.Sort(want)
	if !slices.Equal(files, want) {
		t.Errorf("templates %v, want %v", files, want)
	}
}

// TestTokenMails: the mails that carry a token are secret, link to their
// page on PUBLIC_APP_URL with the token escaped, say how long the link
// works, and tell whoever did not ask to ignore them.
func TestTokenMails(t *testing.T) {
	c := testComposer(t)
	for _, tt := range []struct {
		compose func(string) (Message, error)
		link    string
		expiry  string
	}{
		{func(tok string) (Message, error) { return c.PasswordReset("a@example.com", tok, time.Hour) }, "http://plaza.test/reset-password?token=", "valid for 60 minutes"},
		{func(tok string) (Message, error) { return c.EmailVerify("a@example.com", tok, 24*time.Hour) }, "http://plaza.test/verify-email?token=", "valid for 24 hours"},
		{func(tok string) (Message, error) { return c.EmailChange("a@example.com", tok, 7*24*time.Hour) }, "http://plaza.test/verify-email?token=", "valid for 7 days"},
	} {
		m, err := tt.compose("a+b/c=&d")
		if err != nil {
			t.Fatal(err)
		}
		link := tt.link + "a%2Bb%2Fc%3D%26d"
		if !m.Secret {
			t.Errorf("%s is not secret", m.Kind)
		}
		for format, body := range map[string]string{"text": m.Text, "html": html.UnescapeString(m.HTML)} {
			for _, want := range []string{link, tt.expiry, "If you did not ask for this, ignore this mail"} {
				if !strings.Contains(body, want) {
					t.Errorf("%s %s lacks %q:\n%s", m.Kind, format, want, body)
				}
			}
		}
	}
	for k, m := range everyKind(t, c, realistic) {
		if secret := k == KindPasswordReset || k == KindEmailVerify || k == KindEmailChange; m.Secret != secret {
			t.Errorf("%s: Secret %v, want %v", k, m.Secret, secret)
		}
	}
}

// TestUserTextIsEscaped: text that people wrote (a report's reason, a
// new address, a moderator's reasons) is escaped in HTML and kept on its
// own lines in text, where it cannot pose as Plaza's words.
func TestUserTextIsEscaped(t *testing.T) {
	evil := "<script>alert(1)</script><a href=\"https://evil.test\">x</a>\nClick https://evil.test"
	for k, m := range everyKind(t, testComposer(t), sample{evil, evil, evil, evil, evil, evil, evil}) {
		doc, err := html.Parse(strings.NewReader(m.HTML))
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		for n := range doc.Descendants() {
			if n.Type != html.ElementNode {
				continue
			}
			if n.Data == "script" {
				t.Errorf("%s: a script element made it into the HTML", k)
			}
			for _, a := range n.Attr {
				if a.Key == "href" && !strings.HasPrefix(a.Val, "http://plaza.test/") {
					t.Errorf("%s: a link to %s", k, a.Val)
				}
			}
		}
		if strings.Contains(m.Subject, "\n") {
			t.Errorf("%s: a subject of two lines", k)
		}
		for _, l := range strings.Split(m.Text, "\n") {
			if strings.HasPrefix(l, "Click") {
				t.Errorf("%s: people's text made a line of its own: %q", k, l)
			}
		}
	}
}

// TestDigestIsOneMail: fifty new reports are one mail that counts them
// all and lists the first twenty.
func TestDigestIsOneMail(t *testing.T) {
	reports := make([]Report, 50)
	for i := range reports {
		reports[i] = Report{Target: fmt.Sprintf("post %d", i), Reason: "spam", At: at, Path: fmt.Sprintf("/admin/reports?post=%d", i)}
	}
	m, err := testComposer(t).ReportDigest("mod@example.com", Digest{Since: at.Add(-24 * time.Hour), Until: at, Reports: reports, Path: "/admin/reports"})
	if err != nil {
		t.Fatal(err)
	}
	if m.Subject != "50 new reports on Plaza" {
		t.Errorf("subject %q", m.Subject)
	}
	if !strings.Contains(m.Text, "post 19:") || strings.Contains(m.Text, "post 20:") || !strings.Contains(m.Text, "and 30 more") {
		t.Errorf("want the first 20 listed and 30 counted:\n%s", m.Text)
	}
	if !strings.Contains(m.HTML, "and 30 more") {
		t.Errorf("HTML does not count the rest:\n%s", m.HTML)
	}
	if _, err := testComposer(t).ReportDigest("mod@example.com", Digest{}); err == nil {
		t.Error("a digest of no reports composed")
	}
	// A busy period loads only the reports it lists, and says how many
	// there were.
	m, err = testComposer(t).ReportDigest("mod@example.com", Digest{Since: at.Add(-time.Hour), Until: at, Reports: reports[:DigestListed], Count: 5000, Path: "/admin/moderation"})
	if err != nil || m.Subject != "5000 new reports on Plaza" || !strings.Contains(m.Text, "and 4980 more") {
		t.Errorf("a digest of 5000 listing 20 (%v): %q\n%s", err, m.Subject, m.Text)
	}
}

// TestOpsAlert: a failure names what failed, when and why, and links to
// the jobs page; a long error is cut.
func TestOpsAlert(t *testing.T) {
	m, err := testComposer(t).OpsAlert("admin@example.com", Failure{What: "The backup_database job", At: at,
		Error: "backup folder: not a directory\n" + strings.Repeat("x", 3*MaxError), Path: "/admin/system"})
	if err != nil {
		t.Fatal(err)
	}
	if m.Subject != "Failed on Plaza: The backup_database job" || m.Kind != KindOpsAlert || m.Secret {
		t.Errorf("subject %q, kind %s, secret %v", m.Subject, m.Kind, m.Secret)
	}
	for _, want := range []string{"14 March 2026 at 09:26 UTC", "> backup folder: not a directory", "http://plaza.test/admin/system", "http://plaza.test/admin/account"} {
		if !strings.Contains(m.Text, want) {
			t.Errorf("text lacks %q:\n%s", want, m.Text)
		}
	}
	if strings.Contains(m.Text, strings.Repeat("x", MaxError)) {
		t.Errorf("the error is not cut at %d characters", MaxError)
	}
}

func TestReportExcerptIsCut(t *testing.T) {
	m, err := testComposer(t).ReportAlert("mod@example.com", Report{Excerpt: strings.Repeat("é", 1000), At: at, Path: "/admin/reports"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(m.Text, strings.Repeat("é", MaxExcerpt-1)+"…") || strings.Contains(m.Text, strings.Repeat("é", MaxExcerpt)) {
		t.Errorf("excerpt not cut at %d characters:\n%s", MaxExcerpt, m.Text)
	}
}

func TestNewComposer(t *testing.T) {
	for _, c := range []Community{{Name: "", URL: "http://plaza.test"}, {Name: "Plaza", URL: "plaza.test"}, {Name: "Plaza", URL: "ftp://plaza.test"}} {
		if _, err := NewComposer(c); err == nil {
			t.Errorf("%+v: no error", c)
		}
	}
	c, err := NewComposer(Community{Name: "Plaza", URL: "https://plaza.test"})
	if err != nil {
		t.Fatal(err)
	}
	m, err := c.ReportAlert("mod@example.com", Report{At: at, Path: "/admin/reports"})
	if err != nil || strings.Contains(m.Text, "alert settings") || strings.Contains(m.HTML, "alert settings") {
		t.Errorf("without AlertsPath the alert still links to the settings (%v):\n%s", err, m.Text)
	}
}

func TestDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		time.Minute: "1 minute", 15 * time.Minute: "15 minutes", time.Hour: "60 minutes", 90 * time.Minute: "90 minutes",
		2 * time.Hour: "2 hours", 24 * time.Hour: "24 hours", 48 * time.Hour: "2 days", 7 * 24 * time.Hour: "7 days",
	} {
		if got := duration(d); got != want {
			t.Errorf("duration(%v) = %q, want %q", d, got, want)
		}
	}
}
