// Package webhook signs and sends Plaza's outgoing webhooks in the
// Standard Webhooks style: a JSON message {type, timestamp, data} POSTed
// with the headers webhook-id, webhook-timestamp and webhook-signature
// ("v1,<base64 HMAC-SHA256 of id.timestamp.body>"). Connections go through
// the address policy link previews use too (netguard.Guard), so a target
// that is, or resolves to, an internal address is refused when it is
// dialled, whatever it resolved to when it was registered. It knows nothing of
// HTTP servers or the database.
package webhook

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/plazahq/plaza/internal/netguard"
	"github.com/plazahq/plaza/internal/wiretime"
)

// The events an endpoint may subscribe to, and the ping its test sends.
const (
	EventUserBanned = "user.banned"
	// EventUserSilenced: a member was made read-only for a time.
	EventUserSilenced  = "user.silenced"
	EventPostModerated = "post.moderated"
	EventReportCreated = "report.created"
	EventBroadcastSent = "broadcast.sent"
	// EventAuditAnchor carries the audit chain's anchor, on a schedule
	// (AUDIT_ANCHOR_EVERY), to be kept outside Plaza.
	EventAuditAnchor = "audit.anchor"
	EventPing        = "ping"
)

// Events are the events an endpoint may subscribe to, in the order the
// console lists them.
var Events = []string{EventUserBanned, EventUserSilenced, EventPostModerated, EventReportCreated, EventBroadcastSent, EventAuditAnchor}

// KnownEvent reports whether e is one of Events.
func KnownEvent(e string) bool {
	for _, k := range Events {
		if k == e {
			return true
		}
	}
	return false
}

// secretPrefix marks a secret as a webhook signing secret, as the
// Standard Webhooks libraries expect it.
const secretPrefix = "whsec_"

// NewSecret returns 32 random bytes to sign with.
func NewSecret() ([]byte, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return nil, fmt.Errorf("webhook secret: %w", err)
	}
	return b, nil
}

// FormatSecret is the secret as a receiver configures it: whsec_<base64>.
func FormatSecret(raw []byte) string {
	return secretPrefix + base64.StdEncoding.EncodeToString(raw)
}

// Sign is the webhook-signature header of body sent as message id at ts.
func Sign(secret []byte, id string, ts time.Time, body []byte) (string, error) {
	wh, err := standardwebhooks.NewWebhookRaw(secret)
	if err != nil {
		return "", err
	}
	return wh.Sign(id, ts, body)
}

// Time formats t as the messages' timestamps.
func Time(t time.Time) string { return wiretime.Format(t) }

// Message is the body of one event: its type, when it happened, and data.
func Message(typ string, at time.Time, data map[string]any) ([]byte, error) {
	return json.Marshal(struct {
		Type      string         `json:"type"`
		Timestamp string         `json:"timestamp"`
		Data      map[string]any `json:"data"`
	}{typ, Time(at), data})
}

// ErrBadTarget is a target URL the policy refuses: not http(s), with
// credentials, malformed, or naming an internal address.
var ErrBadTarget = errors.New("target not allowed")

// AllowPrivateHint says which setting lets a webhook reach a private
// address, for whoever was refused one.
const AllowPrivateHint = "private, loopback and link-local addresses and localhost are refused unless the server sets WEBHOOK_ALLOW_PRIVATE=true"

// CheckTarget checks a target URL before it is stored; the error wraps
// ErrBadTarget and says why (and, for a private address, which setting
// allows it).
func (s *Sender) CheckTarget(raw string) error {
	if len(raw) > 2048 {
		return fmt.Errorf("%w: URL is too long", ErrBadTarget)
	}
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() {
		return fmt.Errorf("%w: not an absolute URL", ErrBadTarget)
	}
	if err := s.guard.CheckURL(u); err != nil {
		var ge *netguard.Error
		if errors.As(err, &ge) && ge.Private {
			return fmt.Errorf("%w: %s (%s)", ErrBadTarget, ge.Details, AllowPrivateHint)
		}
		if errors.As(err, &ge) {
			return fmt.Errorf("%w: %s", ErrBadTarget, ge.Details)
		}
		return fmt.Errorf("%w: %v", ErrBadTarget, err)
	}
	return nil
}

// Sender POSTs signed messages. It is safe for concurrent use.
type Sender struct {
	guard     *netguard.Guard
	client    *http.Client
	userAgent string
}

// DefaultTimeout bounds one attempt: connecting, sending and the answer's
// headers.
const DefaultTimeout = 10 * time.Second

// NewSender builds a Sender whose connections go through guard.
func NewSender(guard *netguard.Guard, timeout time.Duration, userAgent string) *Sender {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	tr := &http.Transport{
		Proxy:             nil, // a proxy would dial for us, past the policy
		DialContext:       guard.DialContext,
		DisableKeepAlives: true, // every attempt dials, and is checked, afresh
	}
	return &Sender{guard: guard, userAgent: userAgent, client: &http.Client{
		Transport: tr,
		Timeout:   timeout,
		// A redirect is an answer that is not 2xx: following it would
		// send the signed body somewhere nobody registered.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// Result is the outcome of one attempt: the answer's status (0 when there
// was none) and, when the attempt failed, why, in words fit for the
// delivery log.
type Result struct {
	StatusCode int
	Err        error
}

// OK reports whether the receiver took the message (a 2xx answer).
func (r Result) OK() bool { return r.Err == nil }

// Send POSTs body, signed with secret as message id at ts, to target. The
// target is checked again here: an address policy may have changed since
// it was stored, and DNS may now answer differently.
func (s *Sender) Send(ctx context.Context, target string, secret []byte, id string, ts time.Time, body []byte) Result {
	if err := s.CheckTarget(target); err != nil {
		return Result{Err: err}
	}
	sig, err := Sign(secret, id, ts, body)
	if err != nil {
		return Result{Err: err}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, strings.NewReader(string(body)))
	if err != nil {
		return Result{Err: fmt.Errorf("%w: %v", ErrBadTarget, err)}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", s.userAgent)
	req.Header.Set(standardwebhooks.HeaderWebhookID, id)
	req.Header.Set(standardwebhooks.HeaderWebhookTimestamp, strconv.FormatInt(ts.Unix(), 10))
	req.Header.Set(standardwebhooks.HeaderWebhookSignature, sig)
	resp, err := s.client.Do(req)
	if err != nil {
		if netguard.RefusedPrivate(err) {
			return Result{Err: fmt.Errorf("%w: the address is not allowed (%s)", ErrBadTarget, AllowPrivateHint)}
		}
		if netguard.Refused(err) {
			return Result{Err: fmt.Errorf("%w: the address is not allowed", ErrBadTarget)}
		}
		return Result{Err: errors.New(describe(err))}
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) // the answer's body is not kept
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return Result{StatusCode: resp.StatusCode, Err: fmt.Errorf("answered %d %s", resp.StatusCode, http.StatusText(resp.StatusCode))}
	}
	return Result{StatusCode: resp.StatusCode}
}

// describe says why a request failed without the URL, which the log
// already names.
func describe(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		if ue.Timeout() {
			return "no answer in time"
		}
		err = ue.Err
	}
	return err.Error()
}
