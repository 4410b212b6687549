package api

import (
	"net/url"
	"strings"
)

// User is a user as the general API shows it, plus
// username and post_count. Email and the sign-in activity (last_login,
// login_count) appear only for the user itself and for holders of
// users:manage, status only for the latter; last_login is also left out
// while the user has never signed in.
type User struct {
	ID            string  `json:"id"`
	Username      string  `json:"username"`
	Name          *string `json:"name"`
	Email         string  `json:"email,omitempty"`
	EmailVerified *string `json:"emailVerified"`
	Image         *string `json:"image"`
	ProfilePublic bool    `json:"profile_public"`
	Bio           string  `json:"bio"`
	Location      string  `json:"location"`
	CreatedAt     string  `json:"created_at"`
	LastLogin     *string `json:"last_login,omitempty"`
	LoginCount    *int    `json:"login_count,omitempty"`
	PostCount     int     `json:"post_count"`
	Status        string  `json:"status,omitempty"`
	// Application is "pending" in the answer to a sign-up that opened an
	// application (docs/api.md, "Registration"): the account is inactive
	// until staff approve it.
	Application string `json:"application,omitempty" enum:"pending"`
}

// UserList answers GET /api/users.
type UserList struct {
	Users  []User `json:"users"`
	Total  int    `json:"total"`
	Limit  int    `json:"limit"`
	Offset int    `json:"offset"`
}

// UserListQuery documents the query of GET /api/users.
type UserListQuery struct {
	Limit  int `query:"limit"`
	Offset int `query:"offset"`
}

// Registration is the body of POST /api/users.
type Registration struct {
	Name     string `json:"name" required:"true" maxLength:"100"`
	Email    string `json:"email" required:"true" maxLength:"254"`
	Password string `json:"password" required:"true"`
	// Answer is the applicant's answer to the community's question, needed
	// when sign-ups need approval and a question is set.
	Answer string `json:"answer,omitempty" maxLength:"2000" description:"The answer to the community's question (GET /api/auth/registration), required when sign-ups need approval and a question is set."`
	// Invitation is the token of an invitation link (the invite query of
	// /signup?invite=…).
	Invitation string `json:"invitation,omitempty" maxLength:"100" description:"The token of an invitation link (/signup?invite=…): it must be valid (known, not revoked or expired, with a use left, and for this email if it names one), and one use is spent as the account opens. An invitation for one address verifies it."`
}

// ProfileUpdate is the body of PUT /api/users/{id}: every field optional,
// at least one given. An empty image removes the picture.
type ProfileUpdate struct {
	Name          *string  `json:"name" maxLength:"100"`
	Bio           *string  `json:"bio" maxLength:"500"`
	Location      *string  `json:"location" maxLength:"100"`
	Image         *string  `json:"image" maxLength:"2048"`
	ProfilePublic *bool    `json:"profile_public"`
	_             struct{} `minProperties:"1"`
}

// AccountDeletion is the body of DELETE /api/users/{id}: the password
// confirms deleting one's own account; an admin deleting someone else's
// sends none.
type AccountDeletion struct {
	Password string `json:"password,omitempty" description:"Your password, to delete your own account."`
}

// ForceRequestBody asks the OpenAPI reflector to document this body,
// which it leaves out for DELETE requests unless a type asks.
func (AccountDeletion) ForceRequestBody() {}

// Deleted answers the general API's deletions.
type Deleted struct {
	Deleted bool   `json:"deleted"`
	ID      string `json:"id"`
}

// Post is a post as the general API shows it, plus
// status and author ({id, username}).
type Post struct {
	ID        string     `json:"id"`
	Title     string     `json:"title"`
	Content   string     `json:"content"`
	AuthorID  string     `json:"author_id"`
	Author    PostAuthor `json:"author"`
	CreatedAt string     `json:"created_at"`
	UpdatedAt string     `json:"updated_at"`
	Published bool       `json:"published"`
	Status    string     `json:"status"`
	Tags      []string   `json:"tags"`
}

// PostAuthor names a post's author.
type PostAuthor struct {
	ID       string `json:"id"`
	Username string `json:"username"`
}

// PostList answers GET /api/posts.
type PostList struct {
	Posts  []Post `json:"posts"`
	Total  int    `json:"total"`
	Limit  int    `json:"limit"`
	Offset int    `json:"offset"`
}

// PostListQuery documents the query of GET /api/posts.
type PostListQuery struct {
	Author    string `query:"author"`
	Published bool   `query:"published"`
	Tag       string `query:"tag"`
	Sort      string `query:"sort"`
	Order     string `query:"order"`
	Limit     int    `query:"limit"`
	Offset    int    `query:"offset"`
}

// NewPost is the body of POST /api/posts.
type NewPost struct {
	Title     string   `json:"title" required:"true" maxLength:"200"`
	Content   string   `json:"content" required:"true" maxLength:"50000"`
	Tags      []string `json:"tags" maxItems:"10"`
	Published bool     `json:"published"`
}

// PostUpdate is the body of PUT /api/posts/{id}: every field optional, at
// least one given.
type PostUpdate struct {
	Title     *string   `json:"title" maxLength:"200"`
	Content   *string   `json:"content" maxLength:"50000"`
	Tags      *[]string `json:"tags" maxItems:"10"`
	Published *bool     `json:"published"`
	_         struct{}  `minProperties:"1"`
}

// ReportRequest is the body of POST /api/posts/{id}/report.
type ReportRequest struct {
	Reason  string `json:"reason" required:"true" minLength:"1" maxLength:"500"`
	Comment string `json:"comment,omitempty" maxLength:"500" description:"What the reporter wants moderators to know; shown to them with the report."`
}

// Report answers POST /api/posts/{id}/report.
type Report struct {
	ID        string `json:"id"`
	PostID    string `json:"post_id"`
	Reason    string `json:"reason"`
	Comment   string `json:"comment"`
	Status    string `json:"status"`
	CreatedAt string `json:"created_at"`
}

// General API lists default to 20 items, not the v1 family's 50.
const GeneralDefaultLimit = 20

// ParseGeneralPage reads limit (1..100, default 20) and offset (>= 0) as
// ParsePage does: anything else is an issue, never silently clamped.
func ParseGeneralPage(q url.Values) (PageParams, []Issue) {
	p, issues := ParsePage(q)
	if _, ok := param(q, "limit"); !ok {
		p.Limit = GeneralDefaultLimit
	}
	return p, issues
}

// ParseChoice reads an optional parameter that must be one of choices
// (ignoring case); absent gives def.
func ParseChoice(q url.Values, name, def string, choices ...string) (string, []Issue) {
	v, ok := param(q, name)
	if !ok {
		return def, nil
	}
	for _, c := range choices {
		if strings.EqualFold(v, c) {
			return c, nil
		}
	}
	return def, []Issue{{Path: []string{name}, Code: "invalid_enum_value", Expected: strings.Join(choices, " | "), Received: v,
		Message: name + " must be one of " + strings.Join(choices, ", ")}}
}
