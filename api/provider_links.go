package api

import "strings"

// LinkedProvider is one provider account linked to the caller's own.
type LinkedProvider struct {
	Provider   string  `json:"provider" description:"The provider id: github, google, gitlab, discord."`
	Name       string  `json:"name" description:"The provider's display name."`
	Email      *string `json:"email" description:"The email the provider gave when last used."`
	LinkedAt   string  `json:"linkedAt"`
	LastUsedAt *string `json:"lastUsedAt"`
}

// ProviderLinks answers GET /api/auth/links: the caller's linked provider
// accounts, and the enabled providers, each of which may be linked.
type ProviderLinks struct {
	Links     []LinkedProvider `json:"links"`
	Providers []Provider       `json:"providers" description:"The enabled sign-in providers (password sign-in left out)."`
}

// Linked reports whether a provider account of provider id is linked.
func (l ProviderLinks) Linked(id string) bool {
	for _, k := range l.Links {
		if k.Provider == id {
			return true
		}
	}
	return false
}

// ProviderLinkPath is the link route of provider id.
func ProviderLinkPath(id string) string {
	return strings.Replace(PathProviderLink, ":provider", id, 1)
}

// ProviderUnlinked answers DELETE /api/auth/links/{provider}.
type ProviderUnlinked struct {
	Unlinked int `json:"unlinked" description:"How many links went (a provider may be linked more than once)."`
}
