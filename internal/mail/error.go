package mail

import (
	"errors"
	"fmt"
	"net/textproto"
	"strings"
)

// Stage is the step of a delivery that failed.
type Stage string

// The steps of a delivery, in order.
const (
	StageMessage   Stage = "message"   // the message itself (a recipient address that does not parse)
	StageConnect   Stage = "connect"   // reaching the server
	StageGreeting  Stage = "greeting"  // its greeting and our EHLO
	StageTLS       Stage = "tls"       // STARTTLS or the TLS handshake
	StageAuth      Stage = "auth"      // signing in with SMTP_URL's user
	StageSender    Stage = "sender"    // MAIL FROM
	StageRecipient Stage = "recipient" // RCPT TO
	StageData      Stage = "data"      // the message's content and the server's answer to it
)

// Errors a Sender decides itself, before the server could refuse.
var (
	ErrNoStartTLS = errors.New("the server does not offer STARTTLS, which SMTP_URL requires (?tls=optional or ?tls=none sends without it)")
	ErrNoAuth     = errors.New("the server offers no sign-in (AUTH), but SMTP_URL names a user")
)

// Error is a failed delivery: the step, what it was about (the server's
// address, the recipient…), and the server's reply code when it answered
// with one. Its text is meant for an admin reading the console's mail
// page, so it never holds the password or the message.
type Error struct {
	Stage Stage
	About string
	// Code is the server's SMTP reply code (550, 421…), or 0 when the
	// failure was not a reply (a refused connection, a timeout, TLS), and
	// Reply the server's words with it, on one line.
	Code  int
	Reply string
	Err   error
}

func (e *Error) Error() string {
	what := string(e.Stage)
	if e.About != "" {
		what += " " + e.About
	}
	if e.Code != 0 {
		return fmt.Sprintf("smtp %s refused: %d %s", what, e.Code, e.Reply)
	}
	return fmt.Sprintf("smtp %s: %v", what, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// Permanent reports whether sending the same message again cannot
// succeed without a change: the server refused it with a 5xx reply (a
// recipient that does not exist, a sign-in refused), or the message itself
// is wrong. Anything else (no answer, a timeout, a 4xx reply) is
// temporary and worth retrying.
func (e *Error) Permanent() bool {
	return e.Code >= 500 || e.Stage == StageMessage
}

// Permanent reports whether err is a delivery error that retrying will
// not mend (Error.Permanent).
func Permanent(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Permanent()
}

func fail(stage Stage, about string, err error) *Error {
	e := &Error{Stage: stage, About: about, Err: err}
	var reply *textproto.Error
	if errors.As(err, &reply) {
		e.Code, e.Reply = reply.Code, strings.Join(strings.Fields(reply.Msg), " ")
	}
	return e
}
