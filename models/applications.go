package models

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/uptrace/bun"
)

// Application states.
const (
	ApplicationPending  = "pending"
	ApplicationApproved = "approved"
	ApplicationRejected = "rejected"
)

// Application is an account opened while sign-ups needed approval: the
// account stays inactive until staff approve it. Why names what made it
// one: the mode, or a block on the network or email domain.
type Application struct {
	bun.BaseModel `bun:"table:applications,alias:ap"`

	UserID    int64      `bun:",pk"`
	Answer    string     `bun:",notnull"`
	Why       string     `bun:",notnull"`
	Status    string     `bun:",notnull"`
	Reason    string     `bun:",notnull"`
	DecidedBy *int64     `bun:""`
	DecidedAt *time.Time `bun:""`
	CreatedAt time.Time  `bun:",notnull"`
}

// OpenApplication records the application of the account userID, pending.
// Call it inside the change that opens the account.
func (s Users) OpenApplication(ctx context.Context, userID int64, answer, why string) error {
	row := &Application{UserID: userID, Answer: answer, Why: why, Status: ApplicationPending, CreatedAt: s.now()}
	if _, err := s.db(ctx).NewInsert().Model(row).Exec(ctx); err != nil {
		return fmt.Errorf("open application: %w", err)
	}
	return nil
}

// ApplicationOf reads the application of userID; sql.ErrNoRows when the
// account opened without one.
func (s Users) ApplicationOf(ctx context.Context, userID int64) (*Application, error) {
	row := new(Application)
	err := s.db(ctx).NewSelect().Model(row).Where("ap.user_id = ?", userID).Scan(ctx)
	if err != nil {
		return nil, err
	}
	return row, nil
}

// ErrDecided refuses a decision on an application decided already; the
// error wraps the application as it stands (DecidedError).
var ErrDecided = errors.New("application decided already")

// DecidedError names the application a decision found decided already.
type DecidedError struct {
	UserID int64
	Status string
}

func (e *DecidedError) Error() string {
	return fmt.Sprintf("the application of user %d is %s already", e.UserID, e.Status)
}

func (e *DecidedError) Unwrap() error { return ErrDecided }

// ListedApplication is an application as staff list it: the applicant's
// name, address and sign-up, the decider's name, and the signals beside
// it (ApplicationSignals).
type ListedApplication struct {
	Application
	Username       string
	Email          string
	EmailCanonical string
	SignupNet      string
	DecidedByName  *string
	Signals        ApplicationSignals
}

// ApplicationSignals are what staff weigh beside an application: how many
// accounts are related to the applicant (by its sign-up range, or its
// mailbox: RelatedAccounts' rules, read for an applicant who never signed
// in), and how many other accounts signed up from its range in the
// SignupBurstWindow before it applied.
type ApplicationSignals struct {
	Related      int
	RangeSignUps int
}

// SignupBurstWindow is how far back an application's signal counts the
// sign-ups from its range.
const SignupBurstWindow = time.Hour

// ApplicationFilter narrows the list of applications: one status
// (pending when empty), a page.
type ApplicationFilter struct {
	Status        string
	Limit, Offset int
}

// ListApplications reads a page of the applications of f's status, with
// their signals, and how many there are. Pending ones come oldest first,
// as they wait; decided ones newest first. Three statements whatever the
// page's size: the count and the page through applications' (status,
// created_at) index, then the signals of the whole page at once.
func (s Users) ListApplications(ctx context.Context, f ApplicationFilter) ([]ListedApplication, int, error) {
	if f.Status == "" {
		f.Status = ApplicationPending
	}
	db := s.db(ctx)
	total, err := db.NewSelect().Model((*Application)(nil)).Where("ap.status = ?", f.Status).Count(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("count applications: %w", err)
	}
	order := "ap.created_at ASC, ap.user_id ASC"
	if f.Status != ApplicationPending {
		order = "ap.created_at DESC, ap.user_id DESC"
	}
	q := db.NewSelect().Model((*Application)(nil)).Where("ap.status = ?", f.Status).OrderExpr(order)
	if f.Limit > 0 {
		q = q.Limit(int64(f.Limit)).Offset(int64(f.Offset))
	}
	rows, err := s.listedApplications(ctx, q)
	if err != nil {
		return nil, 0, err
	}
	return rows, int(total), nil
}

// ApplicationsByID reads the applications of ids as ListedApplications
// with their signals; ids no application has are left out.
func (s Users) ApplicationsByID(ctx context.Context, ids []int64) ([]ListedApplication, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	q := s.db(ctx).NewSelect().Model((*Application)(nil)).Where("ap.user_id IN (?)", bun.In(ids)).OrderExpr("ap.created_at, ap.user_id")
	return s.listedApplications(ctx, q)
}

// listedApplications reads the applications q selects (from applications
// AS ap) with their applicants and signals.
func (s Users) listedApplications(ctx context.Context, q *bun.SelectQuery) ([]ListedApplication, error) {
	var rows []ListedApplication
	err := q.ColumnExpr("ap.*").ColumnExpr("u.username, u.email, u.email_canonical, u.signup_net").ColumnExpr("d.username AS decided_by_name").
		Join("JOIN users AS u ON u.id = ap.user_id").
		Join("LEFT JOIN users AS d ON d.id = ap.decided_by").Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("list applications: %w", err)
	}
	if err := s.signalsOf(ctx, rows); err != nil {
		return nil, err
	}
	return rows, nil
}

// signalRow is one application's signals as the signals query reads them.
type signalRow struct {
	UserID       int64 `bun:"user_id"`
	Related      int   `bun:"related"`
	RangeSignUps int   `bun:"range_signups"`
}

// signalsOf fills in the signals of rows in one statement: a part per
// application joined by UNION ALL, each counting through the indexes
// related accounts use (users by signup_net and created_at, and by
// email_canonical; logins by ip_net), so that a page costs one round trip
// and a few index lookups per application, whatever the size of users.
func (s Users) signalsOf(ctx context.Context, rows []ListedApplication) error {
	if len(rows) == 0 {
		return nil
	}
	var parts []string
	var args []any
	for i := range rows {
		part, partArgs := signalPart(&rows[i])
		parts = append(parts, part)
		args = append(args, partArgs...)
	}
	var found []signalRow
	if err := s.db(ctx).NewRaw(strings.Join(parts, "\nUNION ALL\n"), args...).Scan(ctx, &found); err != nil {
		return fmt.Errorf("signals of applications: %w", err)
	}
	byID := make(map[int64]ApplicationSignals, len(found))
	for _, f := range found {
		byID[f.UserID] = ApplicationSignals{Related: f.Related, RangeSignUps: f.RangeSignUps}
	}
	for i := range rows {
		rows[i].Signals = byID[rows[i].UserID]
	}
	return nil
}

// signalPart is the signals query's part for one application: the
// accounts related to its applicant (RelatedAccounts' matches for an
// account that never signed in: a sign-up or sign-in in its sign-up range,
// which holds its address, or its mailbox; a sign-up within a minute from
// its range is one of the range's), and the other sign-ups from its range
// in the SignupBurstWindow before it applied.
func signalPart(ap *ListedApplication) (string, []any) {
	args := []any{ap.UserID}
	var related []string
	if ap.SignupNet != "" {
		related = append(related, "SELECT id AS uid FROM users WHERE signup_net = ?", "SELECT user_id AS uid FROM logins WHERE ip_net = ?")
		args = append(args, ap.SignupNet, ap.SignupNet)
	}
	if ap.EmailCanonical != "" {
		related = append(related, "SELECT id AS uid FROM users WHERE email_canonical = ?")
		args = append(args, ap.EmailCanonical)
	}
	count := "0"
	if related != nil {
		count = "(SELECT count(*) FROM (" + strings.Join(related, " UNION ") + ") AS r WHERE r.uid <> ?)"
		args = append(args, ap.UserID)
	}
	burst := "0"
	if ap.SignupNet != "" {
		burst = "(SELECT count(*) FROM users WHERE signup_net = ? AND created_at >= ? AND created_at <= ? AND id <> ?)"
		args = append(args, ap.SignupNet, ap.CreatedAt.Add(-SignupBurstWindow), ap.CreatedAt, ap.UserID)
	}
	return "SELECT ? AS user_id, " + count + " AS related, " + burst + " AS range_signups", args
}

// DecideApplications decides every application of ids, all pending:
// status (ApplicationApproved or ApplicationRejected) with reason, by
// staff member by, now; an approval opens the applicant's account
// (active). A claim on any of them ends. One that another decision
// settled first makes it *DecidedError, so that the caller's change rolls
// back whole. Call it inside a change.
func (s Users) DecideApplications(ctx context.Context, ids []int64, status, reason string, by int64) error {
	db, now := s.db(ctx), s.now()
	res, err := db.NewUpdate().Model((*Application)(nil)).Set("status = ?", status).Set("reason = ?", reason).
		Set("decided_by = ?", by).Set("decided_at = ?", now).
		Where("user_id IN (?) AND status = ?", bun.In(ids), ApplicationPending).Exec(ctx)
	if err != nil {
		return fmt.Errorf("decide applications: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil || int(n) != len(ids) {
		if err != nil {
			return err
		}
		return s.decidedAmong(ctx, ids)
	}
	if status == ApplicationApproved {
		_, err := db.NewUpdate().Model((*User)(nil)).Set("status = ?", UserActive).Set("is_active = ?", true).
			Set("updated_at = ?", now).Where("id IN (?) AND status = ?", bun.In(ids), UserInactive).Exec(ctx)
		if err != nil {
			return fmt.Errorf("open approved accounts: %w", err)
		}
	}
	if _, err := db.NewDelete().Table(applicationClaims.table).Where("application_id IN (?)", bun.In(ids)).Exec(ctx); err != nil {
		return fmt.Errorf("end the claims on applications: %w", err)
	}
	return nil
}

// decidedAmong is the DecidedError of the first application of ids that
// is no longer pending (ErrNotFound when one is gone).
func (s Users) decidedAmong(ctx context.Context, ids []int64) error {
	var rows []Application
	if err := s.db(ctx).NewSelect().Model(&rows).Where("ap.user_id IN (?)", bun.In(ids)).Scan(ctx); err != nil {
		return err
	}
	for _, r := range rows {
		if r.Status != ApplicationPending {
			return &DecidedError{UserID: r.UserID, Status: r.Status}
		}
	}
	return fmt.Errorf("application: %w", ErrNotFound)
}

// PendingApplications counts the applications awaiting a decision, for
// the desk's tab.
func (s Users) PendingApplications(ctx context.Context) (int, error) {
	n, err := s.db(ctx).NewSelect().Model((*Application)(nil)).Where("ap.status = ?", ApplicationPending).Count(ctx)
	return int(n), err
}
