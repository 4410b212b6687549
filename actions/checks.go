package actions

import (
	"errors"
	"net/mail"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/models"
)

// The limits of what members write, in characters: posts, reports and
// profiles. The API documents the same numbers (TestActionLimitsDocumentedAsTheActionsDefineThem).
const (
	MaxPostTitle     = 200
	MaxPostContent   = 50_000
	MaxPostTags      = 10
	MaxReportReason  = 500
	MaxReportComment = 500
	MaxName          = 100
	MaxBio           = 500
	MaxLocation      = 100
	MaxImage         = 2048
	MaxEmail         = 254
)

// TagRule is the rule a tag follows, in words; tagPattern is it as a
// pattern, after lowercasing.
const TagRule = "a tag is 1 to 32 letters, digits or hyphens, starting with a letter or digit"

var tagPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,31}$`)

// ValidTag reports whether tag, lowercased, follows TagRule.
func ValidTag(tag string) bool { return tagPattern.MatchString(tag) }

// Invalid is input refused on several fields at once, in the order the
// fields were checked, so a form shows every mistake in one answer.
type Invalid []*InvalidError

func (e Invalid) Error() string {
	parts := make([]string, len(e))
	for i, ie := range e {
		parts[i] = ie.Error()
	}
	return strings.Join(parts, "; ")
}

// refusal is nil when no check refused anything.
func refusal(found ...*InvalidError) error {
	var out Invalid
	for _, ie := range found {
		if ie != nil {
			out = append(out, ie)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// checkText holds s to between minLen and maxLen characters; a one-line
// field takes no control characters either.
func checkText(field, s string, minLen, maxLen int, oneLine bool) *InvalidError {
	n := utf8.RuneCountInString(s)
	switch {
	case n < minLen && minLen == 1:
		return &InvalidError{Field: field, Code: "too_small", Reason: field + " is required"}
	case n < minLen:
		return &InvalidError{Field: field, Code: "too_small", Reason: field + " must be at least " + strconv.Itoa(minLen) + " characters"}
	case n > maxLen:
		return &InvalidError{Field: field, Code: "too_big", Reason: field + " must be at most " + strconv.Itoa(maxLen) + " characters"}
	case oneLine && strings.IndexFunc(s, unicode.IsControl) >= 0:
		return &InvalidError{Field: field, Code: "invalid_string", Reason: field + " must not contain control characters"}
	}
	return nil
}

// nothingToChange refuses an update that names no field.
func nothingToChange(fields string) *InvalidError {
	return &InvalidError{Path: []string{}, Code: "too_small", Reason: "at least one of " + fields + " is required"}
}

// checkContent requires some text (not only spaces), stored as given.
func checkContent(content string) *InvalidError {
	if strings.TrimSpace(content) == "" {
		return &InvalidError{Field: "content", Code: "too_small", Reason: "content is required"}
	}
	return checkText("content", content, 1, MaxPostContent, false)
}

// checkTags lowercases and deduplicates tags, and names each that breaks
// the rule.
func checkTags(tags []string) ([]string, []*InvalidError) {
	if len(tags) > MaxPostTags {
		return nil, []*InvalidError{{Field: "tags", Code: "too_big", Reason: "at most " + strconv.Itoa(MaxPostTags) + " tags"}}
	}
	out := make([]string, 0, len(tags))
	var refused []*InvalidError
	for i, t := range tags {
		t = strings.ToLower(strings.TrimSpace(t))
		if !ValidTag(t) {
			refused = append(refused, &InvalidError{Field: "tags", Path: []string{"tags", strconv.Itoa(i)}, Code: "invalid_string", Reason: TagRule})
		} else if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out, refused
}

// checkNewPost trims the title, normalizes the tags and checks a new post.
func checkNewPost(in *models.PostInput) error {
	in.Title = strings.TrimSpace(in.Title)
	tags, refused := checkTags(in.Tags)
	in.Tags = tags
	return refusal(append(refused, checkText("title", in.Title, 1, MaxPostTitle, true), checkContent(in.Content))...)
}

// check trims and checks what an edit changes; it must change something.
func (e *PostEdit) check() error {
	if !e.rewrites() && e.Published == nil {
		return refusal(nothingToChange("title, content, tags, published"))
	}
	var refused []*InvalidError
	if e.Title != nil {
		e.Title = trimmed(*e.Title)
		refused = append(refused, checkText("title", *e.Title, 1, MaxPostTitle, true))
	}
	if e.Content != nil {
		refused = append(refused, checkContent(*e.Content))
	}
	if e.Tags != nil {
		tags, is := checkTags(*e.Tags)
		e.Tags = &tags
		refused = append(refused, is...)
	}
	return refusal(refused...)
}

// checkReport trims and checks a report's reason and comment.
func checkReport(reason, comment *string) error {
	*reason, *comment = strings.TrimSpace(*reason), strings.TrimSpace(*comment)
	return refusal(checkText("reason", *reason, 1, MaxReportReason, false),
		checkText("comment", *comment, 0, MaxReportComment, false))
}

// checkProfile trims and checks what a profile change sets; it must set
// something.
func checkProfile(ch *models.ProfileChange) error {
	if *ch == (models.ProfileChange{}) {
		return refusal(nothingToChange("name, bio, location, image, profile_public"))
	}
	var refused []*InvalidError
	if ch.Name != nil {
		ch.Name = trimmed(*ch.Name)
		refused = append(refused, checkText("name", *ch.Name, 1, MaxName, true))
	}
	if ch.Bio != nil {
		ch.Bio = trimmed(*ch.Bio)
		refused = append(refused, checkText("bio", *ch.Bio, 0, MaxBio, false))
	}
	if ch.Location != nil {
		ch.Location = trimmed(*ch.Location)
		refused = append(refused, checkText("location", *ch.Location, 0, MaxLocation, true))
	}
	if ch.Image != nil {
		ch.Image = trimmed(*ch.Image)
		refused = append(refused, checkImage(*ch.Image))
	}
	return refusal(refused...)
}

func trimmed(s string) *string {
	s = strings.TrimSpace(s)
	return &s
}

// checkImage accepts no picture (""), an absolute http(s) URL or a path on
// this site: never a javascript: or data: URL that a page showing the
// picture would run or embed.
func checkImage(image string) *InvalidError {
	if image == "" {
		return nil
	}
	if len(image) > MaxImage {
		return &InvalidError{Field: "image", Code: "too_big", Reason: "image must be at most " + strconv.Itoa(MaxImage) + " characters"}
	}
	u, err := url.Parse(image)
	site := err == nil && u.Scheme == "" && u.Host == "" && strings.HasPrefix(image, "/") && !strings.HasPrefix(image, "//")
	web := err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
	if site || web {
		return nil
	}
	return &InvalidError{Field: "image", Code: "invalid_string", Reason: "image must be an http(s) URL or a path on this site"}
}

// checkEmail checks a sign-up's address: one address (RFC 5322) with no
// display name and a dot in its domain, since a member's mail must reach
// the Internet.
func checkEmail(email string) *InvalidError {
	ie := checkAddress(email)
	switch {
	case ie != nil && ie.Code != "invalid_string":
		return ie // missing or too long
	case ie == nil && ValidEmail(email):
		return nil
	}
	return &InvalidError{Field: "email", Code: "invalid_string", Reason: "email must be a valid email address, like ada@example.com"}
}

// checkAddress checks an address's syntax alone (RFC 5322, no display
// name), as the accounts the operator makes may have: the first admin is
// admin@localhost, and a password is forgotten there too.
func checkAddress(email string) *InvalidError {
	switch {
	case email == "":
		return &InvalidError{Field: "email", Code: "too_small", Reason: "email is required"}
	case len(email) > MaxEmail:
		return &InvalidError{Field: "email", Code: "too_big", Reason: "email must be at most " + strconv.Itoa(MaxEmail) + " characters"}
	}
	if a, err := mail.ParseAddress(email); err != nil || a.Name != "" || a.Address != email {
		return &InvalidError{Field: "email", Code: "invalid_string", Reason: "email must be one address, like ada@example.com, with no name around it"}
	}
	return nil
}

// ValidEmail reports whether email is one address (RFC 5322) with no
// display name and a dot in its domain.
func ValidEmail(email string) bool {
	if checkAddress(email) != nil {
		return false
	}
	domain := email[strings.LastIndexByte(email, '@')+1:]
	return strings.Contains(domain, ".") && !strings.HasPrefix(domain, ".") && !strings.HasSuffix(domain, ".")
}

// checkNewPassword refuses a missing password, or one the password rule
// refuses (too short or long, one of the most common passwords, the email
// itself), on field.
func checkNewPassword(field, password, email string) *InvalidError {
	if password == "" {
		return &InvalidError{Field: field, Code: "too_small", Reason: field + " is required"}
	}
	var weak *auth.PasswordRuleError
	if !errors.As(auth.CheckNewPassword(password, email), &weak) {
		return nil
	}
	code := "custom"
	switch weak.Rule {
	case auth.PasswordTooShort:
		code = "too_small"
	case auth.PasswordTooLong:
		code = "too_big"
	}
	return &InvalidError{Field: field, Code: code, Reason: weak.Error()}
}

// checkRegistration trims and checks a sign-up: a name, an address, a
// password the rule accepts, and an applicant's answer to the question.
func checkRegistration(reg *models.NewRegistration, password string, rules RegistrationRules, adm Admission) error {
	reg.Name, reg.Email, reg.Answer = strings.TrimSpace(reg.Name), strings.TrimSpace(reg.Email), strings.TrimSpace(reg.Answer)
	answerMin := 0
	if adm.Application != "" && rules.Question != "" {
		answerMin = 1 // an applicant answers the community's question
	}
	err := refusal(checkText("name", reg.Name, 1, MaxName, true), checkEmail(reg.Email), checkNewPassword("password", password, reg.Email),
		checkText("answer", reg.Answer, answerMin, MaxApplicationAnswer, false))
	reg.Email = models.NormalizeEmail(reg.Email)
	return err
}
