package mail

import (
	"embed"
	"errors"
	"fmt"
	htmltemplate "html/template"
	"net/url"
	"strings"
	texttemplate "text/template"
	"time"
	"unicode/utf8"
)

// Each kind has a text and an HTML template under templates/, read with
// the layout of its format: the text one defines "subject" and "body",
// the HTML one "body".
//
//go:embed templates
var templateFiles embed.FS

// Pages that messages link to, on PUBLIC_APP_URL. The web layer serves
// them; a link carries its token as ?token=.
const (
	ResetPasswordPath  = "/reset-password"
	ForgotPasswordPath = "/forgot-password"
	VerifyEmailPath    = "/verify-email"
	// SignUpPath is the sign-up page; an invitation's link carries its
	// token as ?invite=.
	SignUpPath = "/signup"
	// SignInPath is the sign-in page, where an approved applicant goes.
	SignInPath = "/api/auth/signin"
)

// Community is who mail comes from and where its links lead.
type Community struct {
	// Name is the community's name (COMMUNITY_NAME): every subject and
	// signature carries it.
	Name string
	// URL is where people reach Plaza (PUBLIC_APP_URL); every link
	// starts with it.
	URL string
	// AlertsPath is the page where staff choose the alerts they get; an
	// alert ends with a link to it. Empty leaves the link out.
	AlertsPath string
}

// Report is one report, as the staff alerts tell it.
type Report struct {
	// Target is what was reported, in words: "a post by @ana".
	Target string
	// Reason is the reporter's reason.
	Reason string
	// Excerpt is the start of the reported text; an alert shows at most
	// MaxExcerpt characters of it.
	Excerpt string
	At      time.Time
	// Path is the console page that shows the report.
	Path string
}

// MaxExcerpt is how many characters of a reported text an alert shows.
const MaxExcerpt = 300

// Digest is the new reports of one period, told in one mail.
type Digest struct {
	Since, Until time.Time
	// Reports are the period's reports, newest first; the mail lists the
	// first DigestListed and counts the rest.
	Reports []Report
	// Count is how many reports the period had, when Reports holds only
	// the first of them (a busy period need not load every one); zero
	// counts Reports.
	Count int
	// Path is the console's queue of reports.
	Path string
}

// DigestListed is how many reports a digest lists one by one.
const DigestListed = 20

// Failure is a maintenance job or a backup that failed, as the operations
// alert tells it.
type Failure struct {
	// What is what failed, in words: "The scheduled backup".
	What string
	At   time.Time
	// Error is the failure's error; an alert shows at most MaxError
	// characters of it.
	Error string
	// Path is the console's page of jobs and backups.
	Path string
}

// MaxError is how many characters of a failure's error an alert shows.
const MaxError = 2000

// Decision is a moderation decision that concerns a member, told to them
// with its reasons.
type Decision struct {
	// Title says what was decided, as a sentence: "Your post was hidden."
	Title string
	// Rule is the community rule the decision applies, with its version.
	Rule string
	// Reason is the statement of reasons, as the moderator wrote it.
	Reason string
	// Until is when the decision ends; zero when it does not end by
	// itself.
	Until time.Time
	// Path is the page where the member reads the decision in full.
	Path string
}

// Composer writes Plaza's messages for one community.
type Composer struct {
	community Community
	base      string
	text      map[Kind]*texttemplate.Template
	html      map[Kind]*htmltemplate.Template
}

var kinds = []Kind{
	KindPasswordReset, KindPasswordChanged, KindEmailVerify, KindEmailChange, KindEmailChangeNotice,
	KindReportAlert, KindReportDigest, KindOpsAlert, KindDecision, KindTest,
	KindApplicationApproved, KindApplicationRejected,
}

// NewComposer reads the templates of every kind, for c.
func NewComposer(c Community) (*Composer, error) {
	if strings.TrimSpace(c.Name) == "" {
		return nil, errors.New("mail composer: no community name")
	}
	u, err := url.Parse(c.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("mail composer: %q is not an absolute http(s) URL", c.URL)
	}
	cm := &Composer{
		community: c,
		base:      strings.TrimRight(c.URL, "/"),
		text:      make(map[Kind]*texttemplate.Template, len(kinds)),
		html:      make(map[Kind]*htmltemplate.Template, len(kinds)),
	}
	for _, k := range kinds {
		if err := cm.parse(k); err != nil {
			return nil, fmt.Errorf("mail composer: %s: %w", k, err)
		}
	}
	return cm, nil
}

func (c *Composer) parse(k Kind) error {
	funcs := map[string]any{"when": when, "line": line, "quote": quote, "link": c.link}
	t, err := texttemplate.New(string(k)).Funcs(funcs).
		ParseFS(templateFiles, "templates/layout.txt", "templates/"+string(k)+".txt")
	if err != nil {
		return err
	}
	h, err := htmltemplate.New(string(k)).Funcs(funcs).
		ParseFS(templateFiles, "templates/layout.html", "templates/"+string(k)+".html")
	if err != nil {
		return err
	}
	c.text[k], c.html[k] = t, h
	return nil
}

// view is what every template reads: the community, the mail's one
// button (Link, Action), and the facts of its kind.
type view struct {
	Community string
	Home      string
	Subject   string
	Link      string
	Action    string
	Alerts    string
	ValidFor  string
	At        time.Time
	Address   string
	Report    Report
	Digest    digestView
	Failure   Failure
	Decision  Decision
}

type digestView struct {
	Since, Until time.Time
	Count, More  int
	Listed       []Report
}

// PasswordReset is the mail with a link to choose a new password; token
// is the reset token, which works for validFor.
func (c *Composer) PasswordReset(to, token string, validFor time.Duration) (Message, error) {
	return c.render(KindPasswordReset, to, true, view{
		Link: c.PasswordResetLink(token), Action: "Choose a new password", ValidFor: duration(validFor),
	})
}

// PasswordResetLink is the page where the reset token chooses a new
// password: the link the reset mail carries, and the one staff hand over
// when no mail can be sent.
func (c *Composer) PasswordResetLink(token string) string {
	return c.tokenLink(ResetPasswordPath, token)
}

// InvitationLink is the sign-up page with an invitation's token filled
// in: the link staff hand out, shown once when the invitation is made.
func (c *Composer) InvitationLink(token string) string {
	return c.link(SignUpPath) + "?invite=" + url.QueryEscape(token)
}

// PasswordChanged tells the account's address that its password was
// changed at at, and where to turn if that was someone else.
func (c *Composer) PasswordChanged(to string, at time.Time) (Message, error) {
	return c.render(KindPasswordChanged, to, false, view{Link: c.link(ForgotPasswordPath), At: at})
}

// EmailVerify is the mail with a link that confirms the account's
// address; token works for validFor.
func (c *Composer) EmailVerify(to, token string, validFor time.Duration) (Message, error) {
	return c.render(KindEmailVerify, to, true, view{
		Link: c.tokenLink(VerifyEmailPath, token), Action: "Confirm my address", ValidFor: duration(validFor),
	})
}

// EmailChange is the mail, to the new address, with a link that confirms
// the change of an account's address; token works for validFor.
func (c *Composer) EmailChange(to, token string, validFor time.Duration) (Message, error) {
	return c.render(KindEmailChange, to, true, view{
		Link: c.tokenLink(VerifyEmailPath, token), Action: "Confirm the new address", ValidFor: duration(validFor),
	})
}

// EmailChangeNotice tells the account's old address that a change to
// newAddress was asked for.
func (c *Composer) EmailChangeNotice(to, newAddress string) (Message, error) {
	return c.render(KindEmailChangeNotice, to, false, view{Link: c.link(ForgotPasswordPath), Address: newAddress})
}

// ReportAlert tells a moderator or admin of one new report.
func (c *Composer) ReportAlert(to string, r Report) (Message, error) {
	r.Excerpt = cut(r.Excerpt, MaxExcerpt)
	return c.render(KindReportAlert, to, false, view{
		Link: c.link(r.Path), Action: "Review the report", Alerts: c.alerts(), Report: r,
	})
}

// ReportDigest tells a moderator or admin of a period's new reports in
// one mail, however many there are.
func (c *Composer) ReportDigest(to string, d Digest) (Message, error) {
	if len(d.Reports) == 0 {
		return Message{}, errors.New("mail composer: a report digest without reports")
	}
	dv := digestView{Since: d.Since, Until: d.Until, Count: max(d.Count, len(d.Reports)), Listed: d.Reports}
	if len(dv.Listed) > DigestListed {
		dv.Listed = d.Reports[:DigestListed]
	}
	dv.More = dv.Count - len(dv.Listed)
	return c.render(KindReportDigest, to, false, view{
		Link: c.link(d.Path), Action: "Review the reports", Alerts: c.alerts(), Digest: dv,
	})
}

// OpsAlert tells an admin that a maintenance job or a backup failed.
func (c *Composer) OpsAlert(to string, f Failure) (Message, error) {
	f.Error = cut(f.Error, MaxError)
	return c.render(KindOpsAlert, to, false, view{
		Link: c.link(f.Path), Action: "Open jobs and backups", Alerts: c.alerts(), Failure: f,
	})
}

// Decision tells a member of a moderation decision that concerns them,
// with its reasons.
func (c *Composer) Decision(to string, d Decision) (Message, error) {
	return c.render(KindDecision, to, false, view{Link: c.link(d.Path), Action: "Read the decision", Decision: d})
}

// ApplicationApproved tells an applicant that their account is open,
// with the staff's note if they wrote one, and where to sign in.
func (c *Composer) ApplicationApproved(to, note string) (Message, error) {
	return c.render(KindApplicationApproved, to, false, view{Link: c.link(SignInPath), Action: "Sign in", Decision: Decision{Reason: note}})
}

// ApplicationRejected tells an applicant that their application was
// turned down, and the staff's reasons.
func (c *Composer) ApplicationRejected(to, reason string) (Message, error) {
	return c.render(KindApplicationRejected, to, false, view{Decision: Decision{Reason: reason}})
}

// Test is the message an admin sends themself to check the mail
// settings, asked for at at.
func (c *Composer) Test(to string, at time.Time) (Message, error) {
	return c.render(KindTest, to, false, view{At: at})
}

func (c *Composer) render(k Kind, to string, secret bool, v view) (Message, error) {
	v.Community, v.Home = c.community.Name, c.base+"/"
	var subject, text, html strings.Builder
	if err := c.text[k].ExecuteTemplate(&subject, "subject", v); err != nil {
		return Message{}, fmt.Errorf("mail %s: %w", k, err)
	}
	v.Subject = line(subject.String())
	if err := c.text[k].ExecuteTemplate(&text, "layout", v); err != nil {
		return Message{}, fmt.Errorf("mail %s: %w", k, err)
	}
	if err := c.html[k].ExecuteTemplate(&html, "layout", v); err != nil {
		return Message{}, fmt.Errorf("mail %s: %w", k, err)
	}
	return Message{To: to, Subject: v.Subject, Text: text.String(), HTML: html.String(), Kind: k, Secret: secret}, nil
}

// link is path on PUBLIC_APP_URL.
func (c *Composer) link(path string) string {
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	return c.base + path
}

func (c *Composer) tokenLink(path, token string) string {
	return c.link(path) + "?token=" + url.QueryEscape(token)
}

func (c *Composer) alerts() string {
	if c.community.AlertsPath == "" {
		return ""
	}
	return c.link(c.community.AlertsPath)
}

// duration says how long a link works, in the unit people count it in:
// "60 minutes", "24 hours", "7 days".
func duration(d time.Duration) string {
	n, unit := int(d/time.Minute), "minute"
	switch {
	case d >= 48*time.Hour:
		n, unit = int(d/(24*time.Hour)), "day"
	case d >= 2*time.Hour:
		n, unit = int(d/time.Hour), "hour"
	}
	if n == 1 {
		return "1 " + unit
	}
	return fmt.Sprintf("%d %ss", n, unit)
}

// when writes a time in UTC: a mail cannot know its reader's zone.
func when(t time.Time) string { return t.UTC().Format("2 January 2006 at 15:04 UTC") }

// line keeps a value that people wrote on one line, so that it cannot
// pose as lines of Plaza's own text.
func line(s string) string { return strings.Join(strings.Fields(s), " ") }

// quote sets text people wrote apart from Plaza's own, as mail quotes do.
func quote(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight("> "+l, " \r")
	}
	return strings.Join(lines, "\n")
}

// cut shortens s to at most n characters, marking the cut.
func cut(s string, n int) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n-1])) + "…"
}
