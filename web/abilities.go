package web

import (
	"net/http"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/views"
)

// gates are the routes by method and path, so that the console can ask
// whether a route would let a caller through before showing its control.
type gates map[string]Route

func gatesOf(rs []Route) gates {
	g := gates{}
	for _, r := range rs {
		g[r.Method+" "+r.Path] = r
	}
	return g
}

// lets reports whether the route method path would let pr through: its
// declared permissions and the staff second factor (authorize's gate),
// then the policy's answer for the action it is a door to, perhaps once
// the caller confirms it's them. A path the table lacks lets no one.
func (p *pipeline) lets(pr *access.Principal, method, path string) bool {
	r, ok := p.gates[method+" "+path]
	if !ok || pr == nil || p.gate(pr, r) != nil {
		return false
	}
	if r.Action == "" {
		return true
	}
	target := policy.Platform
	if rule := policy.Table[r.Action]; rule.Owner && rule.Permission == "" {
		target = policy.AsSelf(pr) // an owner's own route: the inbox
	}
	return p.policy.MayOnceConfirmed(pr, r.Action, target)
}

// abilities are what the console shows pr: each control's answer is its
// route's (views.Abilities), so a page offers nothing that would answer
// 403, and says nothing of permissions.
func (p *pipeline) abilities(pr *access.Principal) views.Abilities {
	may := func(method, path string) bool { return p.lets(pr, method, path) }
	a := views.Abilities{
		Pages:             map[string]bool{},
		SeeUsers:          may(http.MethodGet, api.PathConsoleUser),
		BulkUpdateUsers:   may(http.MethodPost, api.PathAdminV1BulkUpdate),
		PurgeUsers:        may(http.MethodPost, api.PathAdminV1PurgePreview) && may(http.MethodPost, api.PathAdminV1Purge),
		DeletePosts:       p.policy.MayOnceConfirmed(pr, policy.DeletePost, policy.Platform),
		ExportAudit:       may(http.MethodGet, api.PathAdminAuditExport),
		CreateBlocks:      may(http.MethodPost, api.PathAdminV1Blocks),
		SetRegistration:   may(http.MethodPut, api.PathAdminV1Registration),
		DeleteBlocks:      may(http.MethodDelete, api.PathAdminV1Block),
		CreateInvitations: may(http.MethodPost, api.PathConsoleInvitations),
		SendBroadcasts:    may(http.MethodPost, api.PathAdminV1Broadcast),
		ChangeFlags:       may(http.MethodPut, api.PathAdminV1Flag) && may(http.MethodDelete, api.PathAdminV1Flag),
		RunMaintenance:    may(http.MethodPost, api.PathAdminV1Maintenance),
		ManageBackups:     may(http.MethodGet, api.PathAdminV1Backup) && may(http.MethodDelete, api.PathAdminV1Backup),
		ChangeWebhooks:    may(http.MethodPost, api.PathAdminWebhooks) && may(http.MethodPatch, api.PathAdminWebhook),
		DeleteWebhooks:    may(http.MethodDelete, api.PathAdminWebhook),
		ResendMail:        may(http.MethodPost, api.PathAdminV1MailResend),
		TestMail:          may(http.MethodPost, api.PathAdminV1MailTest),
	}
	for _, path := range views.ConsolePaths() {
		a.Pages[path] = may(http.MethodGet, path)
	}
	return a
}
