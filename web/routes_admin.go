package web

import (
	"net/http"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
)

// adminRoutes is the unversioned admin family (docs/api.md, "Unversioned
// admin").
func adminRoutes(hs handlerSet) []Route {
	manage := []string{access.PermUsersManage}
	return []Route{
		{Method: http.MethodGet, Path: api.PathAdminUsers, Handler: hs.adminUsers.List, Family: api.FamilyAdmin, Scope: ScopeAdminUsers,
			Permissions: manage, Audit: Audit{Action: "users.list"},
			Doc: Doc{Summary: "List users with roles, subscriptions and timeouts", Query: api.AdminUsersQuery{}, Response: api.AdminUserList{}}},
		{Method: http.MethodPost, Path: api.PathAdminUserBan, Handler: hs.adminUsers.Ban, Action: policy.BanUser, Family: api.FamilyAdmin, Scope: ScopeAPIAdmin,
			Audit: Audit{Action: "user.ban", Target: "user"},
			Doc:   Doc{Summary: "Ban a user", Body: api.AdminBanRequest{}, Response: api.AdminBanResult{}}},
		{Method: http.MethodPost, Path: api.PathAdminUserUnban, Handler: hs.adminUsers.Unban, Action: policy.UnbanUser, Family: api.FamilyAdmin, Scope: ScopeAPIAdmin,
			Audit: Audit{Action: "user.unban", Target: "user"},
			Doc: Doc{Summary: "End a user's ban", Response: api.AdminBanResult{},
				Errors: map[int]string{http.StatusConflict: "The user is not banned."}}},
		{Method: http.MethodPost, Path: api.PathAdminUserSilence, Handler: hs.adminUsers.Silence, Action: policy.SilenceUser, Family: api.FamilyAdmin, Scope: ScopeAPIAdmin,
			Audit: Audit{Action: "user.silence", Target: "user"},
			Doc:   Doc{Summary: "Silence a user for a time", Body: api.SilenceRequest{}, Response: api.AdminSilenceResult{}}},
		{Method: http.MethodPost, Path: api.PathAdminUserUnsilence, Handler: hs.adminUsers.Unsilence, Action: policy.UnsilenceUser, Family: api.FamilyAdmin, Scope: ScopeAPIAdmin,
			Audit: Audit{Action: "user.unsilence", Target: "user"},
			Doc: Doc{Summary: "Lift a user's silence", Response: api.AdminSilenceResult{},
				Errors: map[int]string{http.StatusConflict: "The user is not silenced."}}},
		{Method: http.MethodGet, Path: api.PathAdminStats, Handler: hs.adminUsers.Stats, Family: api.FamilyAdmin, Scope: ScopeAPIAdmin,
			Permissions: manage, Audit: Audit{Action: "stats.view"},
			Doc: Doc{Summary: "Platform totals", Response: api.AdminStats{}}},
	}
}
