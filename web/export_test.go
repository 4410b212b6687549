package web

// PrincipalCacheTTL lets the external tests wait for less than the cache's
// TTL, so that only the change listener's news can explain what they see.
const PrincipalCacheTTL = principalCacheTTL

// Declared is a route's Permissions as the route table wrote them, before
// they were derived from its action's rule or its family's gate.
func Declared(r Route) []string { return r.declared }
