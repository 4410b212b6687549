package e2e

import (
	"strings"
	"testing"

	"github.com/go-rod/rod"

	"github.com/plazahq/plaza/api"
)

// TestConsoleRunJob: a super admin runs a backup from the page, watches
// its row reach 100% without a reload, sees the new file among the
// backups, and the API agrees; then deletes it after confirming.
func TestConsoleRunJob(t *testing.T) {
	pz := startPlaza(t)
	p, c := pz.as(t, pz.super, "/admin/system")
	accessible(t, p, "the jobs and backups page")
	step(t, p, "run a backup", func(p *rod.Page) {
		p.MustElement(`[data-testid="run-backup_database-submit"]`).MustClick()
	})
	toast(t, p, "Queued: Back up the database")
	step(t, p, "watch it finish", func(p *rod.Page) {
		p.MustElement(`[data-testid^="job-"][data-status]`)
		p.MustWait(`() => { const r = document.querySelector('[data-testid^="job-"][data-status]'); return r && r.dataset.status === 'completed' }`)
		p.MustElementR(`[data-testid="job-progress"]`, "100%")
	})
	var jobs struct{ Data []api.V1Job }
	pz.api(t, pz.super, "GET", api.PathAdminV1Jobs, &jobs)
	if len(jobs.Data) != 1 || jobs.Data[0].Status != "completed" || jobs.Data[0].Progress != 100 {
		t.Fatalf("the API's jobs: %+v", jobs.Data)
	}
	file, _ := jobs.Data[0].Result["file"].(string)
	if file == "" {
		t.Fatalf("the job's result names no file: %v", jobs.Data[0].Result)
	}
	step(t, p, "the backup shows and goes", func(p *rod.Page) {
		p.MustElement(`[data-testid="backup-` + file + `"]`)
		p.MustElement(`[data-testid="delete-open-` + file + `"]`).MustClick()
		p.MustElement(`[data-testid="confirm-delete-` + file + `"]`).MustClick()
		p.MustWait(`() => !document.querySelector('[data-testid="backup-` + file + `"]')`)
	})
	var left struct{ Data []api.V1Backup }
	pz.api(t, pz.super, "GET", api.PathAdminV1Backups, &left)
	for _, b := range left.Data {
		if strings.EqualFold(b.File, file) {
			t.Errorf("%s is still listed by the API", file)
		}
	}
	clean(t, c)
}
