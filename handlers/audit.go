package handlers

import (
	"context"

	"github.com/plazahq/plaza/internal/audit"
)

// setAuditTarget names the resource and adds details to the request's
// audit entry, for handlers whose target is not in the path.
func setAuditTarget(ctx context.Context, typ, id string, details map[string]any) {
	d := audit.DraftFrom(ctx)
	if d == nil {
		return
	}
	d.TargetType, d.TargetID = typ, id
	for k, v := range details {
		d.Set(k, v)
	}
}
