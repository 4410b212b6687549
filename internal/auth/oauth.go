package auth

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/markbates/goth"
	"github.com/markbates/goth/providers/discord"
	"github.com/markbates/goth/providers/github"
	"github.com/markbates/goth/providers/gitlab"
	"github.com/markbates/goth/providers/google"
)

// External sign-in provider ids: the {provider} of /api/auth/signin/{provider}
// and /api/auth/callback/{provider}, and provider_accounts.provider.
const (
	ProviderGitHub  = "github"
	ProviderGoogle  = "google"
	ProviderGitLab  = "gitlab"
	ProviderDiscord = "discord"
)

// CallbackPath is the path a provider sends the browser back to, followed by
// the provider id.
const CallbackPath = "/api/auth/callback/"

// gitLabProfileURL is GitLab's current user endpoint. goth's default still
// names API v3, which gitlab.com no longer serves.
const gitLabProfileURL = "https://gitlab.com/api/v4/user"

// providerTimeout bounds each call Plaza makes to a provider (token exchange,
// profile, emails): goth's default client never gives up.
const providerTimeout = 10 * time.Second

// ProviderKeys are the OAuth client keys and secrets of the external
// sign-in providers. Its fields are those of config.Providers, in the same
// order, so that a conversion (auth.ProviderKeys(cfg.Providers)) passes
// them; this package declares its own type so as not to import the
// configuration.
type ProviderKeys struct {
	GitHubKey     string
	GitHubSecret  string
	GoogleKey     string
	GoogleSecret  string
	GitLabKey     string
	GitLabSecret  string
	DiscordKey    string
	DiscordSecret string
}

// OAuthProviders builds the external sign-in providers whose key and secret
// are both set, in a fixed order (GitHub, Google, GitLab, Discord). Each asks
// for the scopes that reveal the user's email, and is called back at
// publicURL + CallbackPath + id. The providers are goth's; Plaza calls them
// directly (no gothic, no gorilla sessions): the state lives in scs.
func OAuthProviders(cfg ProviderKeys, publicURL string) []goth.Provider {
	base := strings.TrimRight(publicURL, "/")
	cb := func(id string) string { return base + CallbackPath + id }
	client := func() *http.Client { return &http.Client{Timeout: providerTimeout} }
	var ps []goth.Provider
	if cfg.GitHubKey != "" && cfg.GitHubSecret != "" {
		p := github.New(cfg.GitHubKey, cfg.GitHubSecret, cb(ProviderGitHub), "user:email")
		p.HTTPClient = client()
		ps = append(ps, p)
	}
	if cfg.GoogleKey != "" && cfg.GoogleSecret != "" {
		p := google.New(cfg.GoogleKey, cfg.GoogleSecret, cb(ProviderGoogle), "email", "profile")
		p.HTTPClient = client()
		ps = append(ps, p)
	}
	if cfg.GitLabKey != "" && cfg.GitLabSecret != "" {
		p := gitlab.NewCustomisedURL(cfg.GitLabKey, cfg.GitLabSecret, cb(ProviderGitLab),
			gitlab.AuthURL, gitlab.TokenURL, gitLabProfileURL, "read_user")
		p.HTTPClient = client()
		ps = append(ps, p)
	}
	if cfg.DiscordKey != "" && cfg.DiscordSecret != "" {
		p := discord.New(cfg.DiscordKey, cfg.DiscordSecret, cb(ProviderDiscord), discord.ScopeIdentify, discord.ScopeEmail)
		p.HTTPClient = client()
		ps = append(ps, p)
	}
	return ps
}

// ProviderName is the display name of a provider id ("GitHub" for github);
// an unknown id is its own name.
func ProviderName(id string) string {
	switch id {
	case ProviderGitHub:
		return "GitHub"
	case ProviderGoogle:
		return "Google"
	case ProviderGitLab:
		return "GitLab"
	case ProviderDiscord:
		return "Discord"
	}
	return id
}

// EmailVerified reports whether the provider vouches for the user's email,
// which is what lets an external sign-in reach an existing Plaza account:
//   - GitHub: goth returns either the public profile email, which GitHub only
//     lets a user pick among verified addresses, or the primary address from
//     /user/emails, and only when it is verified (else FetchUser fails with
//     ErrNoVerifiedEmail): any email it returns is verified.
//   - Google: verified_email (userinfo v2) or email_verified (OpenID Connect).
//   - GitLab: confirmed_at is set.
//   - Discord: verified.
//
// An empty email, or a provider Plaza does not know, is never verified.
func EmailVerified(providerID string, u goth.User) bool {
	if strings.TrimSpace(u.Email) == "" {
		return false
	}
	switch providerID {
	case ProviderGitHub:
		return true
	case ProviderGoogle:
		return truthy(u.RawData["verified_email"]) || truthy(u.RawData["email_verified"])
	case ProviderGitLab:
		s, ok := u.RawData["confirmed_at"].(string)
		return ok && s != ""
	case ProviderDiscord:
		return truthy(u.RawData["verified"])
	}
	return false
}

// truthy reads a JSON boolean that some providers send as a string.
func truthy(v any) bool {
	switch v := v.(type) {
	case bool:
		return v
	case string:
		return strings.EqualFold(v, "true")
	}
	return false
}

// ErrNoVerifiedEmail means the provider has no verified email for the account.
var ErrNoVerifiedEmail = errors.New("provider has no verified email for the account")

// OAuth round-trip steps, as OAuthError reports them.
const (
	StepSession  = "session"  // the stored goth session could not be read
	StepExchange = "exchange" // the provider refused the code
	StepProfile  = "profile"  // the provider's user API failed
)

// OAuthError is a failed step of the round trip with a provider.
type OAuthError struct {
	Provider string
	Step     string
	Err      error
}

func (e *OAuthError) Error() string {
	return fmt.Sprintf("%s oauth %s: %v", e.Provider, e.Step, e.Err)
}

func (e *OAuthError) Unwrap() error { return e.Err }

// CompleteOAuth finishes an external sign-in: it restores the goth session
// stored when the sign-in began, exchanges the callback's code for a token and
// fetches the user. Failures are *OAuthError; a GitHub account without a
// verified primary email also matches ErrNoVerifiedEmail.
func CompleteOAuth(p goth.Provider, stored string, params url.Values) (goth.User, error) {
	sess, err := p.UnmarshalSession(stored)
	if err != nil {
		return goth.User{}, &OAuthError{Provider: p.Name(), Step: StepSession, Err: err}
	}
	if _, err := sess.Authorize(p, params); err != nil {
		return goth.User{}, &OAuthError{Provider: p.Name(), Step: StepExchange, Err: err}
	}
	u, err := p.FetchUser(sess)
	if errors.Is(err, github.ErrNoVerifiedGitHubPrimaryEmail) {
		err = fmt.Errorf("%w: %w", ErrNoVerifiedEmail, err)
	}
	if err != nil {
		return goth.User{}, &OAuthError{Provider: p.Name(), Step: StepProfile, Err: err}
	}
	return u, nil
}
