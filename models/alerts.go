package models

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// How a staff member hears of new reports: a mail for each at once, one
// digest mail an hour or a day, or no mail.
const (
	AlertsNow    = "now"
	AlertsHourly = "hourly"
	AlertsDaily  = "daily"
	AlertsNever  = "never"
)

// AlertModes are the report alert settings, in the order a form offers
// them.
var AlertModes = []string{AlertsNow, AlertsHourly, AlertsDaily, AlertsNever}

// DigestPeriod is how long a digest setting gathers reports for one mail;
// zero for a setting that sends no digest.
func DigestPeriod(mode string) time.Duration {
	switch mode {
	case AlertsHourly:
		return time.Hour
	case AlertsDaily:
		return 24 * time.Hour
	}
	return 0
}

// AlertPreference is the mail one staff member asked for. No row reads as
// AlertsNever and no operations alerts (AlertPreferenceOf).
type AlertPreference struct {
	bun.BaseModel `bun:"table:alert_preferences,alias:ap"`

	UserID int64 `bun:",pk"`
	// Reports is one of AlertModes.
	Reports string `bun:",notnull"`
	// Operations asks for a mail when a maintenance job or a backup fails
	// (admins only).
	Operations bool `bun:",notnull"`
	// LastDigestAt is where the next digest starts counting: the end of
	// the last one, or nil before the first (DigestStart).
	LastDigestAt *time.Time `bun:""`
	UpdatedAt    time.Time  `bun:",notnull"`
}

// DigestStart is where p's next digest starts counting: the end of the
// last one, else the moment the setting was chosen, so that turning a
// digest on does not mail the reports that came before.
func (p AlertPreference) DigestStart() time.Time {
	if p.LastDigestAt != nil {
		return *p.LastDigestAt
	}
	return p.UpdatedAt
}

// AlertPreferenceOf is what userID asked for, the default when they never
// chose.
func (s Alerts) AlertPreferenceOf(ctx context.Context, userID int64) (AlertPreference, error) {
	var p AlertPreference
	err := s.db(ctx).NewSelect().Model(&p).Where("ap.user_id = ?", userID).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return AlertPreference{UserID: userID, Reports: AlertsNever}, nil
	}
	return p, err
}

// SetAlertPreference stores p as its user's choice. A digest changed for
// another digest goes on counting from where the last one ended; one
// turned on starts counting now. Call it inside a change.
func (s Alerts) SetAlertPreference(ctx context.Context, p AlertPreference) (AlertPreference, error) {
	old, err := s.AlertPreferenceOf(ctx, p.UserID)
	if err != nil {
		return p, err
	}
	p.UpdatedAt, p.LastDigestAt = s.now(), nil
	if DigestPeriod(old.Reports) > 0 && DigestPeriod(p.Reports) > 0 {
		start := old.DigestStart()
		p.LastDigestAt = &start
	}
	_, err = s.db(ctx).NewInsert().Model(&p).On("CONFLICT (user_id) DO UPDATE").
		Set("reports = EXCLUDED.reports").Set("operations = EXCLUDED.operations").
		Set("last_digest_at = EXCLUDED.last_digest_at").Set("updated_at = EXCLUDED.updated_at").Exec(ctx)
	if err != nil {
		return p, fmt.Errorf("set alert preferences: %w", err)
	}
	return p, nil
}

// Recipient is a staff member an alert goes to.
type Recipient struct {
	UserID int64  `bun:"user_id"`
	Email  string `bun:"email"`
}

// alertedStaff selects the alert settings of the people who may still
// get staff alerts: active accounts with an address that hold at least
// the role of rank minRank. Someone demoted or banned keeps their row
// and gets nothing.
func (s *Store) alertedStaff(ctx context.Context, minRank int) *bun.SelectQuery {
	status, args := statusNow(s.now())
	return s.db(ctx).NewSelect().Model((*AlertPreference)(nil)).
		Join("JOIN users AS u ON u.id = ap.user_id").
		Where(status+" = ?", append(args, UserActive)...).
		Where("u.email <> ''").
		Where("EXISTS (SELECT 1 FROM user_roles AS ur JOIN roles AS r ON r.id = ur.role_id WHERE ur.user_id = u.id AND r.rank >= ?)", minRank)
}

// ReportAlertRecipients are the staff who asked for a mail at once for
// each new report, but except, who filed it.
func (s Alerts) ReportAlertRecipients(ctx context.Context, except int64) ([]Recipient, error) {
	var out []Recipient
	err := s.alertedStaff(ctx, rankModerator).ColumnExpr("ap.user_id, u.email").
		Where("ap.reports = ? AND ap.user_id <> ?", AlertsNow, except).Order("ap.user_id").Scan(ctx, &out)
	return out, err
}

// OperationsAlertRecipients are the admins who asked for a mail when a
// maintenance job or a backup fails.
func (s Alerts) OperationsAlertRecipients(ctx context.Context) ([]Recipient, error) {
	var out []Recipient
	err := s.alertedStaff(ctx, rankAdmin).ColumnExpr("ap.user_id, u.email").
		Where("ap.operations").Order("ap.user_id").Scan(ctx, &out)
	return out, err
}

// DueDigest is a digest to send: whose, to which address, and the setting
// it was found with, which ClaimDigest checks is still the stored one.
type DueDigest struct {
	AlertPreference `bun:",extend"`
	Email           string `bun:",scanonly"`
}

// DueDigests are the digests whose period has run: an hourly one that
// started counting at hourlyFrom or before, a daily one at dailyFrom or
// before.
func (s Alerts) DueDigests(ctx context.Context, hourlyFrom, dailyFrom time.Time) ([]DueDigest, error) {
	var out []DueDigest
	start := "COALESCE(ap.last_digest_at, ap.updated_at)"
	err := s.alertedStaff(ctx, rankModerator).ColumnExpr("ap.*, u.email").
		Where("(ap.reports = ? AND "+start+" <= ?) OR (ap.reports = ? AND "+start+" <= ?)",
			AlertsHourly, hourlyFrom, AlertsDaily, dailyFrom).
		Order("ap.user_id").Scan(ctx, &out)
	return out, err
}

// ClaimDigest moves d's start on to until, in one update that only
// succeeds if the stored setting is still d's: false when another run
// (another instance) claimed this digest first, or its owner changed the
// setting meanwhile, and the digest is not this caller's to send. Call it
// inside the change that queues the digest: until it commits, a second
// claim of the row waits (PostgreSQL) and then finds it moved on.
func (s Alerts) ClaimDigest(ctx context.Context, d DueDigest, until time.Time) (bool, error) {
	q := s.db(ctx).NewUpdate().Model((*AlertPreference)(nil)).Set("last_digest_at = ?", until).
		Where("user_id = ? AND reports = ? AND updated_at = ?", d.UserID, d.Reports, d.UpdatedAt)
	if d.LastDigestAt == nil {
		q = q.Where("last_digest_at IS NULL")
	} else {
		q = q.Where("last_digest_at = ?", *d.LastDigestAt)
	}
	res, err := q.Exec(ctx)
	if err != nil {
		return false, fmt.Errorf("claim the digest of user %d: %w", d.UserID, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// ReportLine is one report as an alert tells it.
type ReportLine struct {
	ID        int64     `bun:"id"`
	PostID    int64     `bun:"post_id"`
	Title     string    `bun:"title"`
	Author    string    `bun:"author"`
	Content   string    `bun:"content"`
	Reason    string    `bun:"reason"`
	Comment   string    `bun:"comment"`
	CreatedAt time.Time `bun:"created_at"`
}

func (s *Store) reportLines(ctx context.Context) *bun.SelectQuery {
	return s.db(ctx).NewSelect().TableExpr("post_reports AS pr").
		Join("JOIN posts AS p ON p.id = pr.post_id").
		Join("LEFT JOIN users AS u ON u.id = p.author_id").
		ColumnExpr("pr.id, pr.post_id, p.title, COALESCE(u.username, '') AS author, p.content, pr.reason, pr.comment, pr.created_at")
}

// ReportLineByID is report id as an alert tells it; an unknown id is
// ErrNotFound.
func (s Alerts) ReportLineByID(ctx context.Context, id int64) (ReportLine, error) {
	var r ReportLine
	err := s.reportLines(ctx).Where("pr.id = ?", id).Scan(ctx, &r)
	return r, notFound(err, "report")
}

// ReportsFiled are the reports filed after since and up to until, newest
// first, at most limit of them, and how many there are in all.
func (s Alerts) ReportsFiled(ctx context.Context, since, until time.Time, limit int) ([]ReportLine, int, error) {
	n, err := s.db(ctx).NewSelect().TableExpr("post_reports AS pr").
		Where("pr.created_at > ? AND pr.created_at <= ?", since, until).Count(ctx)
	if err != nil || n == 0 {
		return nil, 0, err
	}
	var out []ReportLine
	err = s.reportLines(ctx).Where("pr.created_at > ? AND pr.created_at <= ?", since, until).
		OrderExpr("pr.created_at DESC, pr.id DESC").Limit(int64(limit)).Scan(ctx, &out)
	return out, int(n), err
}
