package api

import "net/url"

// Application states, as the list's status filter names them.
var ApplicationStatuses = []string{"pending", "approved", "rejected"}

// V1ApplicationsQuery documents the query of GET
// /api/v1/admin/applications.
type V1ApplicationsQuery struct {
	Limit  int    `query:"limit" minimum:"1" maximum:"100" default:"50"`
	Offset int    `query:"offset" minimum:"0" default:"0"`
	Status string `query:"status" enum:"pending,approved,rejected" default:"pending" description:"Pending ones come oldest first, decided ones newest first."`
}

// ApplicationsParams is the list's query, read.
type ApplicationsParams struct {
	Page   PageParams
	Status string
}

// ParseApplications reads the list's query: a page and a status
// (pending when absent).
func ParseApplications(q url.Values) (ApplicationsParams, error) {
	page, issues := ParsePage(q)
	status, more := ParseChoice(q, "status", "pending", ApplicationStatuses...)
	issues = append(issues, more...)
	if len(issues) > 0 {
		return ApplicationsParams{}, Invalid(issues...)
	}
	return ApplicationsParams{Page: page, Status: status}, nil
}

// V1Application is an application as staff read it: the applicant, their
// answer to the community's question, why the sign-up was an application,
// where it stands, and the signals beside it.
type V1Application struct {
	ID        string               `json:"id" description:"The applicant's user id: one application an account."`
	User      V1ClaimedBy          `json:"user"`
	Answer    string               `json:"answer" description:"The applicant's answer to the community's question; empty when none was asked."`
	Why       string               `json:"why" enum:"mode,network,email_domain" description:"mode: sign-ups needed approval; network or email_domain: a block of the sign-up's range or email domain required approval."`
	Status    string               `json:"status" enum:"pending,approved,rejected"`
	Reason    string               `json:"reason" description:"The decision's reason (a rejection's is mailed to the applicant); empty while pending."`
	DecidedBy *V1Decider           `json:"decidedBy" nullable:"true" description:"Who decided; null while pending, or once that account is deleted."`
	DecidedAt *string              `json:"decidedAt" format:"date-time"`
	CreatedAt string               `json:"createdAt" format:"date-time"`
	Signals   V1ApplicationSignals `json:"signals"`
	Claim     *V1ApplicationClaim  `json:"claim,omitempty" description:"Who is reviewing it at the desk, while a claim holds (the desk's listing only)."`
}

// V1Decider is the staff member who decided an application.
type V1Decider struct {
	ID       string `json:"id"`
	Username string `json:"username"`
}

// V1ApplicationSignals are the signals staff weigh beside an application.
type V1ApplicationSignals struct {
	RelatedAccounts int    `json:"relatedAccounts" description:"Other accounts that signed up or signed in from the applicant's sign-up range (/24 or /64), or whose email reaches the same mailbox: GET /api/v1/admin/users/{id}/related lists them."`
	EmailDomain     string `json:"emailDomain" description:"The domain of the applicant's email."`
	RangeSignUps    int    `json:"rangeSignUps" description:"Other accounts that signed up from the applicant's sign-up range in the hour before the application."`
}

// V1ApplicationClaim is a moderator's claim on an application of the
// desk: "Ana is reviewing".
type V1ApplicationClaim struct {
	ApplicationID string      `json:"applicationId"`
	By            V1ClaimedBy `json:"by"`
	ClaimedAt     string      `json:"claimedAt" format:"date-time"`
	ExpiresAt     string      `json:"expiresAt" format:"date-time"`
}

// V1ApplicationReleased answers the release of a claim on an
// application: whether the caller held one.
type V1ApplicationReleased struct {
	ApplicationID string `json:"applicationId"`
	Released      bool   `json:"released"`
}

// V1ApproveApplication is the body of an approval: an optional note,
// mailed to the applicant.
type V1ApproveApplication struct {
	Reason string `json:"reason,omitempty" maxLength:"500" description:"A note to the applicant, mailed with the approval."`
}

// V1RejectApplication is the body of a rejection: the reason, mailed to
// the applicant and shown when they try to sign in.
type V1RejectApplication struct {
	Reason string `json:"reason" required:"true" minLength:"1" maxLength:"500"`
}

// V1BulkApplications is the body of a decision on many applications.
type V1BulkApplications struct {
	IDs      []string `json:"ids" required:"true" minItems:"1" maxItems:"200" description:"Applicants' user ids (strings of digits); a repeated id counts once."`
	Decision string   `json:"decision" required:"true" enum:"approve,reject"`
	Reason   string   `json:"reason,omitempty" requiredWhen:"decision=reject" maxLength:"500" description:"Required to reject; mailed to every applicant."`
}

// Check reads the ids (distinct, in the order given), or says what is
// wrong with them; the decision and its reason are the action's to check.
func (b *V1BulkApplications) Check() ([]int64, error) {
	ids, issues := idList("ids", "application", b.IDs, MaxBulkApplications)
	if len(issues) > 0 {
		return nil, Invalid(issues...)
	}
	return ids, nil
}

// MaxBulkApplications is how many applications one bulk decision names
// at most (actions.MaxBulkApplications).
const MaxBulkApplications = 200

// V1BulkApplicationsResult answers a bulk decision: how many applications
// it decided, and their ids.
type V1BulkApplicationsResult struct {
	Decided int      `json:"decided"`
	IDs     []string `json:"ids"`
}
