package web

// PrincipalCacheTTL lets the external tests wait for less than the cache's
// TTL, so that only the change listener's news can explain what they see.
const PrincipalCacheTTL = principalCacheTTL
