// Package emailcanon reduces an email address to the mailbox it reaches,
// so that staff see one person's sign-ups under several spellings of one
// address (a.b+spam1@gmail.com, ab+spam2@googlemail.com) as one.
package emailcanon

import "strings"

// dotless are the domains whose mailboxes ignore dots in the local part,
// each with the domain its addresses deliver to: Gmail's two domains,
// one mailbox for ada.lovelace@gmail.com, adalovelace@googlemail.com and
// a.da.love.lace@gmail.com.
var dotless = map[string]string{
	"gmail.com":      "gmail.com",
	"googlemail.com": "gmail.com",
}

// Canonical is email lower-cased, without a +tag in its local part
// (ada+news@example.org is ada@example.org): most providers deliver
// local+anything to local (Gmail, Outlook, iCloud, Fastmail, Proton and
// many a self-hosted server), and the few that do not are not worth a
// false miss. For the domains of dotless the dots of the local part go
// too and the domain becomes the one its mail reaches. Dots elsewhere
// stay: a.b@example.org and ab@example.org are two mailboxes. Text without
// an @ is returned lower-cased and trimmed. It is a pure function of
// email, stored beside it (users.email_canonical) and compared for
// equality.
func Canonical(email string) string {
	email = strings.ToLower(strings.TrimSpace(email))
	at := strings.LastIndexByte(email, '@')
	if at < 0 {
		return email
	}
	local, domain := email[:at], email[at+1:]
	if plus := strings.IndexByte(local, '+'); plus > 0 {
		local = local[:plus]
	}
	if to, ok := dotless[domain]; ok {
		if stripped := strings.ReplaceAll(local, ".", ""); stripped != "" {
			local = stripped
		}
		domain = to
	}
	return local + "@" + domain
}
