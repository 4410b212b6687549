package handlers

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/markbates/goth"

	"github.com/plazahq/plaza/actions"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/auth"
	"github.com/plazahq/plaza/internal/session"
	"github.com/plazahq/plaza/models"
	"github.com/plazahq/plaza/views"
)

// OAuthLinker finds or makes the user behind an external identity.
type OAuthLinker interface {
	LinkOAuthUser(ctx context.Context, id models.OAuthIdentity) (*models.User, error)
}

// OAuthSessions is what the external sign-in round trip needs of the session
// manager: Sessions plus reading a value once (*scs.SessionManager fits).
type OAuthSessions interface {
	Sessions
	PopString(ctx context.Context, key string) string
}

// OAuthStateTTL is how long a begun external sign-in may take to come back.
const OAuthStateTTL = 10 * time.Minute

// oauthPending is what Begin leaves in the session for Callback.
type oauthPending struct {
	Provider string    `json:"provider"`
	State    string    `json:"state"`
	Session  string    `json:"session"` // the marshalled goth session
	Callback string    `json:"callback"`
	Expires  time.Time `json:"expires"`
	// Link is the signed-in user who started linking the provider to
	// their account (BeginLink); 0 for a sign-in.
	Link int64 `json:"link,omitempty"`
}

// OAuth signs in through an external provider. The
// state and goth's session live in the scs session (no gothic cookie store);
// once the provider vouches for the user, the session is opened exactly as
// password sign-in opens it (SignIn.start), with the provider id as the
// login method.
type OAuth struct {
	Providers []goth.Provider
	Users     OAuthLinker
	Sessions  OAuthSessions
	// SignIn opens sessions and renders the sign-in page.
	SignIn SignIn
	// Actions links and unlinks providers from the account page, and says
	// whether the registration rules let a provider open a new account.
	Actions *actions.Actions
	// Links lists the caller's linked providers for the account page.
	Links ProviderLinks
}

var errUnknownProvider = &api.Error{Status: http.StatusNotFound, Code: api.CodeNotFound, Message: "Unknown sign-in provider"}

// Begin answers GET /api/auth/signin/{provider}: 302 to the provider's
// authorization page, with a fresh state kept in the session together with
// the same-origin callbackUrl. An unknown or disabled provider is 404
// NOT_FOUND.
func (h OAuth) Begin(c echo.Context) error {
	authURL, err := h.begin(c, c.Param("provider"), c.QueryParam("callbackUrl"), 0)
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusFound, authURL)
}

// begin keeps a fresh state for provider id in the session, with the
// same-origin callback and the user linking it (0 for a sign-in), and
// returns the provider's authorization URL.
func (h OAuth) begin(c echo.Context, id, callback string, link int64) (string, error) {
	p := h.provider(id)
	if p == nil {
		return "", errUnknownProvider
	}
	state := rand.Text()
	sess, err := p.BeginAuth(state)
	if err != nil {
		return "", err
	}
	authURL, err := sess.GetAuthURL()
	if err != nil {
		return "", err
	}
	pending, err := json.Marshal(oauthPending{Provider: p.Name(), State: state, Session: sess.Marshal(),
		Callback: safeCallback(callback, h.SignIn.PublicURL, ""), Expires: h.SignIn.Now().Add(OAuthStateTTL), Link: link})
	if err != nil {
		return "", err
	}
	h.Sessions.Put(c.Request().Context(), session.OAuthPendingKey, string(pending))
	noStore(c)
	return authURL, nil
}

// Callback answers GET /api/auth/callback/{provider}: it checks the state
// against the session, exchanges the code, fetches the user, links or
// creates the Plaza user, opens the session and redirects (303) to the
// callbackUrl given to Begin or to the console. The pending state is used
// once, whatever the outcome.
//
// Refusals are 401 UNAUTHORIZED (the sign-in page with the message for
// browsers): a missing, mismatched or stale (OAuthStateTTL) state, a
// provider error or refused code, no account id or email from the provider,
// no verified email where one is needed, an existing account someone
// already uses (models.AccountInUseError: it is neither linked nor signed
// in), a banned or deactivated user, a new account with an email under a
// blocked domain. An unknown provider is 404; a provider whose user API fails, 502.
func (h OAuth) Callback(c echo.Context) error {
	ctx := c.Request().Context()
	noStore(c)
	p := h.provider(c.Param("provider"))
	if p == nil {
		return errUnknownProvider
	}
	id, name := p.Name(), auth.ProviderName(p.Name())
	var pending oauthPending
	raw := h.Sessions.PopString(ctx, session.OAuthPendingKey)
	q := c.QueryParams()
	state := q.Get("state")
	if raw == "" || json.Unmarshal([]byte(raw), &pending) != nil || pending.Provider != id || !h.SignIn.Now().Before(pending.Expires) ||
		state == "" || subtle.ConstantTimeCompare([]byte(state), []byte(pending.State)) != 1 {
		return h.refuse(c, "This sign-in link has expired or was not started here; please try again", nil)
	}
	if e := q.Get("error"); e != "" {
		return h.refuse(c, "Sign-in with "+name+" was cancelled or refused", errors.New("provider error: "+e))
	}
	gu, err := auth.CompleteOAuth(p, pending.Session, q)
	var oe *auth.OAuthError
	switch {
	case errors.Is(err, auth.ErrNoVerifiedEmail):
		return h.refuse(c, "Your "+name+" account has no verified email address", err)
	case errors.As(err, &oe) && oe.Step == auth.StepProfile:
		return &api.Error{Status: http.StatusBadGateway, Code: api.CodeServerError,
			Message: name + " did not answer; please try again later", Cause: err}
	case err != nil:
		return h.refuse(c, name+" did not confirm the sign-in; please try again", err)
	}
	if gu.UserID == "" || strings.TrimSpace(gu.Email) == "" {
		return h.refuse(c, name+" did not share an email address with Plaza", nil)
	}
	if pending.Link != 0 {
		return h.finishLink(c, pending.Link, identity(id, gu))
	}
	who := identity(id, gu)
	who.IP = c.RealIP() // a new account's sign-up address
	refused, err := h.Actions.ProviderSignUpRefused(ctx, who.Email, who.IP)
	if err != nil {
		return err
	}
	who.NoNewAccount = refused != ""
	user, err := h.Users.LinkOAuthUser(ctx, who)
	var ue *models.UnverifiedEmailError
	var ie *models.InactiveUserError
	switch {
	case errors.Is(err, models.ErrAccountInUse):
		return h.refuse(c, "An account with this email exists; sign in with your password, then link "+name+" from your account page", err)
	case errors.Is(err, models.ErrNewAccountRefused):
		return h.refuse(c, refused, err)
	case errors.As(err, &ue):
		return h.refuse(c, "Your "+name+" email address is not verified; verify it with "+name+" and try again", err)
	case errors.As(err, &ie):
		msg, serr := h.Actions.SignInRefusal(ctx, &models.User{ID: ie.UserID, Status: ie.Status})
		if serr != nil {
			return serr
		}
		return h.refuse(c, msg, err)
	case err != nil:
		return err
	}
	enrolled, err := h.SignIn.Factor.Enabled(ctx, user.ID)
	if err != nil {
		return err
	}
	if enrolled { // the provider stands in for the password; the code is still asked for
		return h.SignIn.askCode(c, user, pending.Callback, "")
	}
	if err := h.SignIn.start(c, user, id); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, safeCallback(pending.Callback, h.SignIn.PublicURL, api.PathConsole))
}

func (h OAuth) provider(id string) goth.Provider {
	for _, p := range h.Providers {
		if p.Name() == id {
			return p
		}
	}
	return nil
}

// refuse answers a refused external sign-in: the sign-in page with the
// message for browsers, a 401 UNAUTHORIZED error for everyone else.
func (h OAuth) refuse(c echo.Context, msg string, cause error) error {
	if !wantsJSON(c) {
		page := api.SignInPage{Providers: h.SignIn.Providers(), Error: msg}
		return render(c, http.StatusUnauthorized, views.SignInPage(page))
	}
	return &api.Error{Status: http.StatusUnauthorized, Code: api.CodeUnauthorized, Message: msg, Cause: cause}
}

// identity is the goth user as the user store takes it.
func identity(providerID string, u goth.User) models.OAuthIdentity {
	name := strings.TrimSpace(u.Name)
	if name == "" {
		name = strings.TrimSpace(strings.TrimSpace(u.FirstName) + " " + strings.TrimSpace(u.LastName))
	}
	return models.OAuthIdentity{Provider: providerID, ProviderUserID: u.UserID, Email: u.Email,
		EmailVerified: auth.EmailVerified(providerID, u), Name: name, Username: u.NickName, AvatarURL: u.AvatarURL}
}
