package api

// The mail page's routes (docs/api.md, "Mail"): the outbox's messages,
// a failed or held one sent again, and a test message to oneself.
const (
	PathAdminV1Mail       = PathAdminV1 + "/mail"
	PathAdminV1MailResend = PathAdminV1Mail + "/:id/resend"
	PathAdminV1MailTest   = PathAdminV1Mail + "/test"
	PathConsoleMail       = "/admin/mail"
)

// AdminV1MailResendPath is where message id is sent again.
func AdminV1MailResendPath(id string) string { return PathAdminV1Mail + "/" + id + "/resend" }

// MailStatuses are the states of an outgoing message: queued until sent
// or out of attempts; held when no mail server is set (SMTP_URL).
var MailStatuses = []string{"queued", "sent", "failed", "held"}

// V1MailQuery documents the query of GET /api/v1/admin/mail.
type V1MailQuery struct {
	Limit  int    `query:"limit" minimum:"1" maximum:"100" default:"50"`
	Offset int    `query:"offset" minimum:"0" default:"0"`
	Status string `query:"status" enum:"queued,sent,failed,held" description:"Only messages in this state."`
}

// V1MailMessage is one message of the outbox as the list answers it:
// never its body, which may carry a sign-in or reset link.
type V1MailMessage struct {
	ID        string  `json:"id"`
	Kind      string  `json:"kind" description:"What the message is: password_reset, password_changed, email_verify, email_change, email_change_notice, report_alert, report_digest, ops_alert, decision, application_approved, application_rejected, test."`
	Recipient string  `json:"recipient"`
	Subject   string  `json:"subject"`
	Status    string  `json:"status" enum:"queued,sent,failed,held"`
	Attempts  int     `json:"attempts" description:"How many times sending was tried."`
	LastError string  `json:"lastError" description:"The last attempt's error; empty when it had none."`
	Secret    bool    `json:"secret" description:"The body carries a token (a reset or verification link): only its recipient reads it."`
	CreatedAt string  `json:"createdAt" format:"date-time"`
	SentAt    *string `json:"sentAt" format:"date-time" description:"When the mail server took it; null until then."`
}
