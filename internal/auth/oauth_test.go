package auth

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/markbates/goth"
	"github.com/markbates/goth/providers/github"
)

func TestOAuthProvidersEnabledByKeys(t *testing.T) {
	all := ProviderKeys{GitHubKey: "gh", GitHubSecret: "ghs", GoogleKey: "go", GoogleSecret: "gos",
		GitLabKey: "gl", GitLabSecret: "gls", DiscordKey: "dc", DiscordSecret: "dcs"}
	tests := []struct {
		name string
		cfg  ProviderKeys
		want []string
	}{
		{"none", ProviderKeys{}, nil},
		{"github only", ProviderKeys{GitHubKey: "k", GitHubSecret: "s"}, []string{"github"}},
		{"key without secret", ProviderKeys{GitHubKey: "k", GoogleSecret: "s"}, nil},
		{"google and discord", ProviderKeys{GoogleKey: "k", GoogleSecret: "s", DiscordKey: "k", DiscordSecret: "s"}, []string{"google", "discord"}},
		{"all", all, []string{"github", "google", "gitlab", "discord"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, p := range OAuthProviders(tt.cfg, "https://plaza.example/") {
				got = append(got, p.Name())
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

func TestOAuthProvidersAuthURLs(t *testing.T) {
	all := ProviderKeys{GitHubKey: "gh", GitHubSecret: "ghs", GoogleKey: "go", GoogleSecret: "gos",
		GitLabKey: "gl", GitLabSecret: "gls", DiscordKey: "dc", DiscordSecret: "dcs"}
	wantScopes := map[string]string{"github": "user:email", "google": "email profile", "gitlab": "read_user", "discord": "identify email"}
	for _, p := range OAuthProviders(all, "https://plaza.example/") {
		sess, err := p.BeginAuth("the-state")
		if err != nil {
			t.Fatal(err)
		}
		raw, err := sess.GetAuthURL()
		if err != nil {
			t.Fatal(err)
		}
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		q := u.Query()
		if q.Get("redirect_uri") != "https://plaza.example/api/auth/callback/"+p.Name() || q.Get("state") != "the-state" || q.Get("scope") != wantScopes[p.Name()] {
			t.Errorf("%s: auth URL %s", p.Name(), raw)
		}
	}
}

func TestProviderName(t *testing.T) {
	for id, want := range map[string]string{"github": "GitHub", "google": "Google", "gitlab": "GitLab", "discord": "Discord", "other": "other"} {
		if got := ProviderName(id); got != want {
			t.Errorf("ProviderName(%q) = %q, want %q", id, got, want)
		}
	}
}

func TestEmailVerified(t *testing.T) {
	user := func(email string, raw map[string]any) goth.User { return goth.User{Email: email, RawData: raw} }
	tests := []struct {
		name, provider string
		user           goth.User
		want           bool
	}{
		{"github email", "github", user("a@x.org", nil), true},
		{"github no email", "github", user("", nil), false},
		{"google verified_email", "google", user("a@x.org", map[string]any{"verified_email": true}), true},
		{"google email_verified", "google", user("a@x.org", map[string]any{"email_verified": "true"}), true},
		{"google unverified", "google", user("a@x.org", map[string]any{"verified_email": false}), false},
		{"google silent", "google", user("a@x.org", map[string]any{}), false},
		{"gitlab confirmed", "gitlab", user("a@x.org", map[string]any{"confirmed_at": "2024-01-02T03:04:05Z"}), true},
		{"gitlab unconfirmed", "gitlab", user("a@x.org", map[string]any{"confirmed_at": nil}), false},
		{"gitlab silent", "gitlab", user("a@x.org", map[string]any{}), false},
		{"discord verified", "discord", user("a@x.org", map[string]any{"verified": true}), true},
		{"discord unverified", "discord", user("a@x.org", map[string]any{"verified": false}), false},
		{"discord verified without email", "discord", user(" ", map[string]any{"verified": true}), false},
		{"unknown provider", "myspace", user("a@x.org", map[string]any{"verified": true}), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := EmailVerified(tt.provider, tt.user); got != tt.want {
				t.Errorf("got %t, want %t", got, tt.want)
			}
		})
	}
}

// fakeGitHub serves the GitHub endpoints goth's github provider calls.
func fakeGitHub(t *testing.T, profile, emails string, tokenStatus int) *github.Provider {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("POST /token", func(w http.ResponseWriter, r *http.Request) {
		if tokenStatus != http.StatusOK {
			http.Error(w, `{"error":"bad_verification_code"}`, tokenStatus)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"access_token":"tok","token_type":"bearer"}`))
	})
	mux.HandleFunc("GET /user", func(w http.ResponseWriter, r *http.Request) {
		if profile == "" {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte(profile))
	})
	mux.HandleFunc("GET /user/emails", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(emails)) })
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return github.NewCustomisedURL("k", "s", "http://127.0.0.1/cb", srv.URL+"/authorize", srv.URL+"/token", srv.URL+"/user", srv.URL+"/user/emails", "user:email")
}

func begin(t *testing.T, p goth.Provider) string {
	t.Helper()
	sess, err := p.BeginAuth("st")
	if err != nil {
		t.Fatal(err)
	}
	return sess.Marshal()
}

func TestCompleteOAuth(t *testing.T) {
	code := url.Values{"code": {"c"}, "state": {"st"}}
	t.Run("private primary email", func(t *testing.T) {
		p := fakeGitHub(t, `{"id":7,"login":"ada","name":"Ada"}`, `[{"email":"old@x.org","primary":false,"verified":true},{"email":"ada@x.org","primary":true,"verified":true}]`, 200)
		u, err := CompleteOAuth(p, begin(t, p), code)
		if err != nil || u.UserID != "7" || u.Email != "ada@x.org" || u.NickName != "ada" || !EmailVerified("github", u) {
			t.Errorf("got %+v, %v", u, err)
		}
	})
	t.Run("no verified primary email", func(t *testing.T) {
		p := fakeGitHub(t, `{"id":7,"login":"ada"}`, `[{"email":"ada@x.org","primary":true,"verified":false}]`, 200)
		_, err := CompleteOAuth(p, begin(t, p), code)
		var oe *OAuthError
		if !errors.Is(err, ErrNoVerifiedEmail) || !errors.As(err, &oe) || oe.Step != StepProfile {
			t.Errorf("got %v, want ErrNoVerifiedEmail at the profile step", err)
		}
	})
	t.Run("code refused", func(t *testing.T) {
		p := fakeGitHub(t, `{"id":7}`, `[]`, http.StatusBadRequest)
		_, err := CompleteOAuth(p, begin(t, p), code)
		var oe *OAuthError
		if !errors.As(err, &oe) || oe.Step != StepExchange {
			t.Errorf("got %v, want an exchange error", err)
		}
	})
	t.Run("profile down", func(t *testing.T) {
		p := fakeGitHub(t, "", `[]`, 200)
		_, err := CompleteOAuth(p, begin(t, p), code)
		var oe *OAuthError
		if !errors.As(err, &oe) || oe.Step != StepProfile || errors.Is(err, ErrNoVerifiedEmail) {
			t.Errorf("got %v, want a profile error", err)
		}
	})
	t.Run("corrupt stored session", func(t *testing.T) {
		p := fakeGitHub(t, `{"id":7}`, `[]`, 200)
		_, err := CompleteOAuth(p, "{not json", code)
		var oe *OAuthError
		if !errors.As(err, &oe) || oe.Step != StepSession || !strings.Contains(err.Error(), "github oauth session") {
			t.Errorf("got %v, want a session error", err)
		}
	})
}
