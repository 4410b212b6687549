package api

// The limits of an invitation (actions.MaxInvitationUses and the rest),
// for the documentation and the console's form.
const (
	MaxInvitationUses = 1000
	MaxInvitationNote = 200
)

// InvitationsQuery documents the query of GET /api/v1/admin/invitations.
type InvitationsQuery struct {
	Limit  int    `query:"limit" minimum:"1" maximum:"100" default:"50"`
	Offset int    `query:"offset" minimum:"0" default:"0"`
	State  string `query:"state" enum:"active,used_up,expired,revoked" description:"Only invitations in this state."`
}

// SignUpPageQuery documents the query of GET /signup.
type SignUpPageQuery struct {
	Invite string `query:"invite" description:"An invitation's token, from its link: the form sends it with the registration."`
}

// InvitationRequest is the body of POST /api/v1/admin/invitations.
type InvitationRequest struct {
	MaxUses  *int   `json:"maxUses,omitempty" minimum:"1" maximum:"1000" description:"How many accounts the link may open; default 1."`
	ValidFor string `json:"validFor,omitempty" maxLength:"10" description:"How long the link works, from 1h to 90d: <n>h, <n>d or <n>w; default 7d."`
	Note     string `json:"note,omitempty" maxLength:"200" description:"Who or what it is for, shown to staff only."`
	Email    string `json:"email,omitempty" maxLength:"254" description:"The one address that may sign up with it; it is verified by its link, as any sign-up's."`
}

// Invitation is an invitation as lists and its page show it; never its
// token, which only its creation answers.
type Invitation struct {
	ID        string  `json:"id"`
	Note      string  `json:"note"`
	Email     *string `json:"email" description:"The one address that may use it; null: anyone with the link."`
	MaxUses   int     `json:"maxUses"`
	Uses      int     `json:"uses"`
	State     string  `json:"state" enum:"active,used_up,expired,revoked"`
	ExpiresAt string  `json:"expiresAt" format:"date-time"`
	CreatedAt string  `json:"createdAt" format:"date-time"`
	CreatedBy *string `json:"createdBy" description:"The staff member's id; null once that account is deleted."`
	RevokedAt *string `json:"revokedAt" format:"date-time"`
	RevokedBy *string `json:"revokedBy"`
}

// NewInvitation answers an invitation's creation: the token and the
// sign-up link that carries it, shown this once.
type NewInvitation struct {
	Invitation
	Token string `json:"token" description:"Shown this once: Plaza keeps only its SHA-256."`
	URL   string `json:"url" description:"The sign-up link to hand out: {PUBLIC_APP_URL}/signup?invite={token}."`
}

// InvitationUse is one account an invitation opened.
type InvitationUse struct {
	UserID   *string `json:"userId" description:"null once that account is deleted; the use still counts."`
	Username string  `json:"username"`
	Email    string  `json:"email"`
	UsedAt   string  `json:"usedAt" format:"date-time"`
}

// InvitationDetail is one invitation with who used it, latest first.
type InvitationDetail struct {
	Invitation
	UsedBy []InvitationUse `json:"usedBy"`
}

// SignUpPage is the view model of the public sign-up page: what was
// typed (never the password), the invitation's token (from ?invite=,
// then a hidden field), Errors by field name when refused, and, once the
// account is made, Created with whether the mail is kept on the
// console's mail page (no mail server set).
type SignUpPage struct {
	Name, Email string
	Invitation  string
	// InvitationGiven hides the invitation field: the link filled it in.
	InvitationGiven bool
	Errors          map[string]string
	Created         bool
	MailKept        bool
	// Mode is what the instance's registration rules say to visitors
	// (approval, invite-only, closed, pause), shown above the form; empty
	// says nothing.
	Mode string
	// Question is what applicants answer under approval (the form then
	// asks it), and Answer the answer sent.
	Question, Answer string
	// Applied says the account opened as an application.
	Applied bool
}
