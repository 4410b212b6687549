package handlers

import (
	"context"

	"github.com/plazahq/plaza/internal/audit"
)

// setAuditTarget names the resource and adds details to the request's
// audit entry, for handlers whose target is not in the path.
func setAuditTarget(ctx context.Context, typ, id string, details map[string]any) {
	audit.Target(ctx, typ, id, details)
}
