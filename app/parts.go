package app

import (
	"github.com/plazahq/plaza/internal/jobs"
	"github.com/plazahq/plaza/models"
)

// anchorer is the audit anchor job's reach: the chain's head, and the
// webhook outbox it announces the anchor through, in one unit of work.
func anchorer(s *models.Store) jobs.AuditAnchorer {
	return struct {
		*models.Store
		models.Audit
		models.Hooks
	}{s, s.Audit, s.Hooks}
}
