package actions

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/plazahq/plaza/actions/policy"
	"github.com/plazahq/plaza/api"
	"github.com/plazahq/plaza/internal/access"
	"github.com/plazahq/plaza/internal/audit"
	"github.com/plazahq/plaza/internal/mail"
	"github.com/plazahq/plaza/models"
)

// AlertChoice is a change of one's staff alerts: a nil field stays as it
// is.
type AlertChoice struct {
	// Reports is one of models.AlertModes.
	Reports *string
	// Operations asks for a mail when a maintenance job or a backup fails.
	Operations *bool
}

// AlertPreferences are who's own staff alerts.
func (a *Actions) AlertPreferences(ctx context.Context, who *access.Principal) (models.AlertPreference, error) {
	if err := a.ActAsSelf(who, policy.SeeOwnAccount); err != nil {
		return models.AlertPreference{}, err
	}
	return a.Store.Alerts.AlertPreferenceOf(ctx, who.UserID)
}

// OffersOperationsAlerts reports whether who may turn operations alerts
// on, so that a page offers the choice only to them.
func (a *Actions) OffersOperationsAlerts(who *access.Principal) bool {
	return a.Policy.May(who, policy.SetOperationsAlerts, policy.AsSelf(who))
}

// SetAlertPreferences changes who's own staff alerts, audited with what
// changed. Report alerts are for staff (policy.SetAlerts); turning
// operations alerts on asks policy.SetOperationsAlerts too, and a change
// that leaves them as they are drops them for someone who may no longer
// have them (an admin made a moderator).
func (a *Actions) SetAlertPreferences(ctx context.Context, who *access.Principal, in AlertChoice) (models.AlertPreference, error) {
	var p models.AlertPreference
	if err := checkAlertChoice(in); err != nil {
		return p, err
	}
	err := a.Store.Change(ctx, func(ctx context.Context) error {
		if err := a.Policy.Check(who, policy.SetAlerts, policy.AsSelf(who)); err != nil {
			return err
		}
		old, err := a.Store.Alerts.AlertPreferenceOf(ctx, who.UserID)
		if err != nil {
			return err
		}
		next := old
		if in.Reports != nil {
			next.Reports = *in.Reports
		}
		if in.Operations != nil {
			next.Operations = *in.Operations
		}
		if next.Operations {
			if err := a.Policy.Check(who, policy.SetOperationsAlerts, policy.AsSelf(who)); err != nil {
				if in.Operations != nil {
					return err
				}
				next.Operations = false
			}
		}
		if p, err = a.Store.Alerts.SetAlertPreference(ctx, next); err != nil {
			return err
		}
		audit.Target(ctx, "user", itoa(who.UserID), map[string]any{"reports": p.Reports, "operations": p.Operations,
			"before": map[string]any{"reports": old.Reports, "operations": old.Operations}})
		return nil
	})
	return p, err
}

func checkAlertChoice(in AlertChoice) error {
	switch {
	case in.Reports == nil && in.Operations == nil:
		return refusal(nothingToChange("reports, operations"))
	case in.Reports != nil && !slices.Contains(models.AlertModes, *in.Reports):
		return refusal(&InvalidError{Field: "reports", Code: "invalid_enum_value", Reason: "reports must be now, hourly, daily or never"})
	}
	return nil
}

// AlertJob sends the staff alerts: a mail to each staff member who asked
// for one at once when a report is filed (Actions.FileReport), the report
// digests (the report_digest job), and the operations alert of a
// maintenance job or a backup that failed (models.Store.JobFailed). Every
// mail goes into the outbox in the change that causes it.
type AlertJob struct {
	Store *models.Store
	// Mail writes the messages; SendMail says a mail server is set, so
	// that they are sent rather than held.
	Mail     *mail.Composer
	SendMail bool
}

func (a *Actions) alerts() AlertJob {
	return AlertJob{Store: a.Store, Mail: a.Mail, SendMail: a.SendMail}
}

// Digests are counted up to digestSettle ago: a report's time is taken a
// moment before its change commits, and one committed after a digest read
// the reports would otherwise fall between two digests. A digest may go
// out up to digestEarly before its full period, since the hourly job does
// not start at the same second every hour, and a digest seconds short of
// its period would otherwise wait a whole period more.
const (
	digestSettle = time.Minute
	digestEarly  = 5 * time.Minute
)

// SendReportDigests queues every digest whose period has run, each in a
// change of its own with the claim of its period (models.ClaimDigest), so
// that two runs at once (two instances) send each digest once. A digest of
// a period without reports sends nothing and still moves on.
func (j AlertJob) SendReportDigests(ctx context.Context) error {
	now := j.Store.Timestamp()
	due, err := j.Store.Alerts.DueDigests(ctx, now.Add(digestEarly-models.DigestPeriod(models.AlertsHourly)),
		now.Add(digestEarly-models.DigestPeriod(models.AlertsDaily)))
	if err != nil {
		return err
	}
	var errs []error
	for _, d := range due {
		errs = append(errs, j.sendDigest(ctx, d, now.Add(-digestSettle)))
	}
	return errors.Join(errs...)
}

func (j AlertJob) sendDigest(ctx context.Context, d models.DueDigest, until time.Time) error {
	return j.Store.Change(ctx, func(ctx context.Context) error {
		claimed, err := j.Store.Alerts.ClaimDigest(ctx, d, until)
		if err != nil || !claimed {
			return err
		}
		since := d.DigestStart()
		lines, n, err := j.Store.Alerts.ReportsFiled(ctx, since, until, mail.DigestListed)
		if err != nil || n == 0 {
			return err
		}
		if j.Mail == nil {
			return errNoComposer
		}
		reports := make([]mail.Report, len(lines))
		for i, l := range lines {
			reports[i] = alertReport(l)
		}
		m, err := j.Mail.ReportDigest(d.Email, mail.Digest{Since: since, Until: until, Reports: reports, Count: n,
			Path: api.PathConsoleModeration})
		if err != nil {
			return err
		}
		_, err = queueMail(ctx, j.Store, j.SendMail, d.UserID, m)
		return err
	})
}

// reportFiled mails report r at once to the staff who asked for that,
// but its reporter, in the change that files it.
func (j AlertJob) reportFiled(ctx context.Context, r *models.PostReport) error {
	to, err := j.Store.Alerts.ReportAlertRecipients(ctx, r.ReporterID)
	if err != nil || len(to) == 0 {
		return err
	}
	if j.Mail == nil {
		return errNoComposer
	}
	line, err := j.Store.Alerts.ReportLineByID(ctx, r.ID)
	if err != nil {
		return err
	}
	report := alertReport(line)
	for _, staff := range to {
		m, err := j.Mail.ReportAlert(staff.Email, report)
		if err != nil {
			return err
		}
		if _, err := queueMail(ctx, j.Store, j.SendMail, staff.UserID, m); err != nil {
			return err
		}
	}
	return nil
}

// alertReport is a report as the alerts tell it, leading to the post's
// console page, where its reports and decisions are.
func alertReport(l models.ReportLine) mail.Report {
	target := "“" + l.Title + "”"
	if l.Author != "" {
		target += " by @" + l.Author
	}
	reason := l.Reason
	if l.Comment != "" {
		reason += ": " + l.Comment
	}
	return mail.Report{Target: target, Reason: reason, Excerpt: l.Content, At: l.CreatedAt, Path: api.ConsolePostPath(itoa(l.PostID))}
}

// JobFailed mails the admins who asked for operations alerts that
// maintenance job j failed, inside the change that records the failure.
func (j AlertJob) JobFailed(ctx context.Context, job *models.MaintenanceJob) error {
	to, err := j.Store.Alerts.OperationsAlertRecipients(ctx)
	if err != nil || len(to) == 0 {
		return err
	}
	if j.Mail == nil {
		return errNoComposer
	}
	f := mail.Failure{What: failedJob(job), At: j.Store.Timestamp(), Path: api.PathConsoleSystem}
	if job.FinishedAt != nil {
		f.At = *job.FinishedAt
	}
	if job.Error != nil {
		f.Error = *job.Error
	}
	for _, admin := range to {
		m, err := j.Mail.OpsAlert(admin.Email, f)
		if err != nil {
			return err
		}
		if _, err := queueMail(ctx, j.Store, j.SendMail, admin.UserID, m); err != nil {
			return err
		}
	}
	return nil
}

// failedJob names job for an alert's subject: a backup the schedule ran
// (no one queued it), a backup someone asked for, or another job.
func failedJob(job *models.MaintenanceJob) string {
	switch {
	case job.Action == "backup_database" && job.QueuedBy == nil:
		return "The scheduled backup"
	case job.Action == "backup_database":
		return "A backup of the database"
	}
	return "The " + job.Action + " job (" + job.Scope + ")"
}
