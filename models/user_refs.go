package models

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/uptrace/bun"
)

// UserIDByRef finds the user a person filter names: an id ("37"), an
// email (anything with an @, ignoring case) or a username (ignoring
// case). ErrNotFound when nobody answers to it, including an id no user
// has: a filter on someone who is gone matches nothing.
func (s Users) UserIDByRef(ctx context.Context, ref string) (int64, error) {
	ref = strings.TrimSpace(ref)
	q := s.db(ctx).NewSelect().Model((*User)(nil)).Column("u.id").Limit(1)
	if id, err := strconv.ParseInt(ref, 10, 64); err == nil && id > 0 {
		q = q.Where("u.id = ?", id)
	} else if strings.Contains(ref, "@") {
		q = q.Where("lower(u.email) = ?", NormalizeEmail(ref))
	} else {
		q = q.Where("lower(u.username) = ?", strings.ToLower(ref))
	}
	var id int64
	err := q.Scan(ctx, &id)
	return id, notFound(err, "user "+ref)
}

// UsernamesByID is the usernames of the users with these ids, one query
// for a whole page; an id no user has (a deleted account) is absent.
func (s Users) UsernamesByID(ctx context.Context, ids []int64) (map[int64]string, error) {
	out := make(map[int64]string, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var rows []struct {
		ID       int64
		Username string
	}
	err := s.db(ctx).NewSelect().Model((*User)(nil)).Column("u.id", "u.username").
		Where("u.id IN (?)", bun.In(ids)).Scan(ctx, &rows)
	for _, r := range rows {
		out[r.ID] = r.Username
	}
	return out, err
}

// UserRef is a column that names a user: by id, or (Value) inside a value
// of its own ("user:<id>", an id as text beside a type column, a set of
// ids).
type UserRef struct {
	Table, Column string
	Value         bool
}

// KeptUserRefs are the columns that name a user with no foreign key to
// users, and why each is kept when its user is deleted. Every other column
// that names a user has a foreign key whose ON DELETE cascades or clears it
// (user_refs_test.go walks the schema for both). A kept row is a
// tombstone: it can never match a new account, as no id is handed out
// twice (SQLite's users.id is AUTOINCREMENT, PostgreSQL's an identity, and
// both start past every id these columns hold: migration 20261207010000,
// and resetIdentities after a restore).
var KeptUserRefs = map[UserRef]string{
	{Table: "sessions", Column: "user_id"}: "ended in the change that deletes or deactivates the user; " +
		"the ended row stays a while so that a request still running cannot write the session back",
	{Table: "audit_log", Column: "admin_id"}:                    "the audit trail is append-only and chained; admin_username keeps the name",
	{Table: "settled_reports", Column: "reporter_id"}:           "how a report was settled; reporters' standing is counted in reporter_stats, which cascades",
	{Table: "settled_reports", Column: "resolved_by"}:           "who settled a report, for the moderation report",
	{Table: "moderation_actions", Column: "author_id"}:          "whose post a decision was about, kept with the decision",
	{Table: "user_index_changes", Column: "user_id"}:            "the log the user index follows; the deletion itself is one of its entries",
	{Table: "audit_log", Column: "target_id", Value: true}:      "the target of an audited change (target_type user), kept with the entry",
	{Table: "locks", Column: "resource_id", Value: true}:        "a lock on the user's record (resource_type user); it runs out within its lease",
	{Table: "broadcast_targets", Column: "target", Value: true}: "a broadcast sent to user:<id>, kept with the broadcast",
	{Table: "activity_rollups", Column: "users", Value: true}:   "the set of users active in an hour or a day, for past analytics",
}

// keptUserIDsQuery is the largest user id the kept id columns name (0 for
// none), on PostgreSQL: a floor for the next user id.
func keptUserIDsQuery() string {
	var parts []string
	for r := range KeptUserRefs {
		if !r.Value {
			parts = append(parts, "COALESCE((SELECT max("+r.Column+") FROM "+r.Table+"), 0)")
		}
	}
	slices.Sort(parts) // one text for the same list
	return "SELECT GREATEST(0, " + strings.Join(parts, ", ") + ")"
}

// keptPostRefs names, for posts and their reports, the columns of the
// moderation history that keep their ids after they are deleted (with no
// foreign key), so that a restored sequence starts past them too.
var keptPostRefs = map[string][][2]string{
	"posts":        {{"moderation_actions", "post_id"}, {"settled_reports", "post_id"}},
	"post_reports": {{"settled_reports", "report_id"}},
}

// keptIDsQuery is the highest id of table that the kept history names.
func keptIDsQuery(table string) string {
	parts := []string{"0"}
	for _, r := range keptPostRefs[table] {
		parts = append(parts, "COALESCE((SELECT max("+r[1]+") FROM "+r[0]+"), 0)")
	}
	return "SELECT GREATEST(" + strings.Join(parts, ", ") + ")"
}
