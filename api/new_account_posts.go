package api

// NewAccountPosts is the hold of new accounts' posts (Plaza's addition):
// which posts of new accounts wait for a moderator's approval before they
// appear, and whether their authors are told why.
type NewAccountPosts struct {
	HoldFirst  int  `json:"holdFirst" minimum:"0" maximum:"50" description:"An account's first this many posts put up for publication (deleted ones included) wait for approval; 0 is off."`
	HoldDays   int  `json:"holdDays" minimum:"0" maximum:"90" description:"Every post of an account younger than this many days waits for approval; 0 is off."`
	TellAuthor bool `json:"tellAuthor" description:"The author's inbox says the post was held because the account is new; otherwise the post is only awaiting approval (status pending), like any post under review."`
}

// NewAccountPostsChange changes the hold, as JSON or a form (formData
// tags). A field left out stays as it is, except tellAuthor in a form,
// where a checkbox left unticked sends nothing and so turns it off.
type NewAccountPostsChange struct {
	HoldFirst  *int     `json:"holdFirst,omitempty" formData:"holdFirst" minimum:"0" maximum:"50" description:"0 (off) to 50 posts."`
	HoldDays   *int     `json:"holdDays,omitempty" formData:"holdDays" minimum:"0" maximum:"90" description:"0 (off) to 90 days."`
	TellAuthor *bool    `json:"tellAuthor,omitempty" formData:"tellAuthor"`
	_          struct{} `minProperties:"1"`
}

// ForceJSONRequestBody tells the OpenAPI reflector that the body comes as
// JSON too, not only as the form its formData tags describe.
func (NewAccountPostsChange) ForceJSONRequestBody() {}

// NewAccountsPageQuery documents the query of the console's "New
// accounts" page.
type NewAccountsPageQuery struct {
	Saved string `query:"saved" enum:"1" description:"The page a plain form's post lands on: it says the setting is saved."`
}
