package mail

// Kind names what a message is for. The outbox keeps it beside the
// message, and the console's mail page shows it.
type Kind string

// The kinds of message Plaza sends, each written by its Composer method.
const (
	KindPasswordReset     Kind = "password_reset"      // a link to choose a new password
	KindPasswordChanged   Kind = "password_changed"    // the password was changed
	KindEmailVerify       Kind = "email_verify"        // a link that confirms the account's address
	KindEmailChange       Kind = "email_change"        // a link, to the new address, that confirms a change
	KindEmailChangeNotice Kind = "email_change_notice" // the old address is told of the change
	KindReportAlert       Kind = "report_alert"        // one new report, to a moderator or admin
	KindReportDigest      Kind = "report_digest"       // the new reports of a period, in one mail
	KindOpsAlert          Kind = "ops_alert"           // a maintenance job or a backup failed, to an admin
	KindDecision          Kind = "decision"            // a moderation decision, with its reasons
	KindTest              Kind = "test"                // an admin's test of the mail settings
	// KindApplicationApproved and KindApplicationRejected tell an
	// applicant what the staff decided on their application.
	KindApplicationApproved Kind = "application_approved"
	KindApplicationRejected Kind = "application_rejected"
)

// Message is one mail to one person.
type Message struct {
	// To is the recipient: an address, or "Name <address>".
	To      string
	Subject string
	// Text is the plain-text body, and HTML the same in HTML (which mail
	// programs show when they can); HTML may be empty.
	Text string
	HTML string
	Kind Kind
	// Secret means the body carries a token (a reset or confirmation
	// link): it is for the recipient's eyes only, and the console shows
	// that the message was sent, never its body.
	Secret bool
}
