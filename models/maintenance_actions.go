package models

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/uptrace/bun"

	"github.com/plazahq/plaza/internal/backups"
)

// CacheClearNotice is the payload on ChangeChannel that tells every
// instance to drop the callers and flags it holds.
const CacheClearNotice = "cache_clear"

// clearCaches clears what scope names: "sessions" deletes expired
// sessions; "queries" purges every instance's callers and flags;
// "previews" has nothing to clear (link previews are never cached); "all"
// does all three and signs everyone out but the session of key keepKey.
func (s *Store) clearCaches(ctx context.Context, scope, keepKey string) (map[string]any, error) {
	out := map[string]any{}
	if scope == "sessions" || scope == "all" {
		q := s.DB.NewDelete().Model((*Session)(nil))
		key := "expiredSessions"
		if scope == "all" {
			q, key = q.Where("token <> ?", keepKey), "sessions"
		} else {
			q = q.Where("expiry <= ?", s.now())
		}
		res, err := q.Exec(ctx)
		s.SessionCache.Purge()
		if err != nil {
			return nil, fmt.Errorf("delete sessions: %w", err)
		}
		n, _ := res.RowsAffected()
		out[key] = n
	}
	if scope == "previews" || scope == "all" {
		out["previews"] = 0
	}
	if scope == "queries" || scope == "all" {
		if err := s.purgeEverywhere(ctx); err != nil {
			return nil, err
		}
		out["queries"] = "purged"
	}
	return out, nil
}

// purgeEverywhere drops the cached callers and flags of this instance and,
// on PostgreSQL, of every other through the change channel.
func (s *Store) purgeEverywhere(ctx context.Context) error {
	s.changed()
	if s.Dialect() != "postgres" {
		return nil
	}
	_, err := s.DB.ExecContext(ctx, "SELECT pg_notify(?, ?)", ChangeChannel, CacheClearNotice)
	return err
}

// searchIndexes are the indexes rebuild_search rebuilds on PostgreSQL, by
// scope; on SQLite the FTS5 tables.
var searchIndexes = map[string][]string{
	"posts": {"posts_search_idx", "post_titles_trgm_idx"},
	"users": {"users_username_trgm_idx", "users_email_trgm_idx", "users_profile_search_trgm_idx", "users_staff_search_trgm_idx",
		"provider_accounts_provider_trgm_idx", "provider_accounts_email_trgm_idx"},
}

// rebuildSearch rebuilds the search indexes of scope (users, posts or
// all). On PostgreSQL each index is rebuilt with REINDEX CONCURRENTLY,
// which lets writes go on, and the respelling dictionary is refilled; on
// SQLite each FTS5 index is refilled in batches beside the one in use and
// swapped in (rebuildFTS).
func (s *Store) rebuildSearch(ctx context.Context, scope string, progress func(int)) (map[string]any, error) {
	kinds := []string{"users", "posts"}
	if scope != "all" {
		kinds = []string{scope}
	}
	start := time.Now()
	var rebuilt []string
	var err error
	if s.Dialect() == "postgres" {
		rebuilt, err = s.reindexSearch(ctx, kinds, progress)
	} else {
		rebuilt, err = s.rebuildFTSTables(ctx, kinds, progress)
	}
	if err != nil {
		return nil, fmt.Errorf("rebuild search: %w", err)
	}
	return map[string]any{"rebuilt": rebuilt, "seconds": time.Since(start).Round(time.Millisecond).Seconds()}, nil
}

// reindexSearch rebuilds the PostgreSQL search indexes of kinds one by
// one, then relearns their words.
func (s *Store) reindexSearch(ctx context.Context, kinds []string, progress func(int)) ([]string, error) {
	var steps []func() error
	var rebuilt []string
	for _, kind := range kinds {
		for _, idx := range searchIndexes[kind] {
			steps = append(steps, func() error {
				_, err := s.DB.ExecContext(ctx, "REINDEX INDEX CONCURRENTLY "+idx)
				return err
			})
			rebuilt = append(rebuilt, idx)
		}
		steps = append(steps, func() error { return s.Search.LearnSearchWords(ctx, kind, 0) })
	}
	for i, step := range steps {
		if err := step(); err != nil {
			return nil, err
		}
		progress((i + 1) * 100 / len(steps))
	}
	return rebuilt, nil
}

// rebuildFTSTables rebuilds the FTS5 indexes of kinds, progress counting
// the rows loaded of all the rows their content tables held at the start.
func (s *Store) rebuildFTSTables(ctx context.Context, kinds []string, progress func(int)) ([]string, error) {
	var tables []ftsTable
	var total, loaded int64
	for _, kind := range kinds {
		for _, t := range searchTables[kind] {
			n, err := s.DB.NewSelect().Table(t.content).Count(ctx)
			if err != nil {
				return nil, err
			}
			tables, total = append(tables, t), total+int64(n)
		}
	}
	var rebuilt []string
	for _, t := range tables {
		err := s.rebuildFTS(ctx, t, func(rows int64) {
			loaded += rows
			progress(int(loaded * 100 / max(total, 1)))
		})
		if err != nil {
			return nil, err
		}
		rebuilt = append(rebuilt, t.name)
	}
	return rebuilt, nil
}

// uploadFolders are the folders of UPLOADS_DIR each scope of
// cleanup_uploads looks in.
var uploadFolders = map[string][]string{"all": {"."}, "avatars": {"avatars"}, "attachments": {"attachments"}}

// orphanAge is how old an unreferenced upload must be to go: a younger
// one may belong to a write that has not committed yet.
const orphanAge = time.Hour

// cleanupUploads removes the files under dir's folders of scope that no
// uploads row references and that are older than orphanAge.
func (s *Store) cleanupUploads(ctx context.Context, scope, dir string, progress func(int)) (map[string]any, error) {
	var candidates []string
	cutoff := time.Now().Add(-orphanAge)
	for _, folder := range uploadFolders[scope] {
		err := filepath.WalkDir(filepath.Join(dir, folder), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				if os.IsNotExist(err) {
					return filepath.SkipDir
				}
				return err
			}
			if info, err := d.Info(); err == nil && d.Type().IsRegular() && info.ModTime().Before(cutoff) {
				candidates = append(candidates, path)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("walk %s: %w", folder, err)
		}
	}
	removed, freed := 0, int64(0)
	for i := 0; i < len(candidates); i += 500 {
		batch := candidates[i:min(i+500, len(candidates))]
		orphans, err := s.unreferenced(ctx, dir, batch)
		if err != nil {
			return nil, err
		}
		for _, path := range orphans {
			info, err := os.Stat(path)
			if err == nil && os.Remove(path) == nil {
				removed, freed = removed+1, freed+info.Size()
			}
		}
		progress((i + len(batch)) * 100 / len(candidates))
	}
	return map[string]any{"scanned": len(candidates), "removed": removed, "bytesFreed": freed}, nil
}

// unreferenced keeps the files of paths (under dir) that no uploads row
// names; rows name files by their path relative to dir, with slashes.
func (s *Store) unreferenced(ctx context.Context, dir string, paths []string) ([]string, error) {
	rel := make([]string, len(paths))
	for i, p := range paths {
		r, err := filepath.Rel(dir, p)
		if err != nil {
			return nil, err
		}
		rel[i] = filepath.ToSlash(r)
	}
	var known []string
	if err := s.DB.NewSelect().Model((*Upload)(nil)).Column("path").Where("path IN (?)", bun.In(rel)).Scan(ctx, &known); err != nil {
		return nil, fmt.Errorf("referenced uploads: %w", err)
	}
	referenced := make(map[string]bool, len(known))
	for _, k := range known {
		referenced[k] = true
	}
	var out []string
	for i, r := range rel {
		if !referenced[r] {
			out = append(out, paths[i])
		}
	}
	return out, nil
}

// backupWithChecksum writes a backup (Store.Backup), measures it, and
// deletes all but the newest BackupKeep backups.
func (s *Store) backupWithChecksum(ctx context.Context, cfg MaintenanceConfig) (map[string]any, error) {
	start := time.Now()
	path, err := s.Maintenance.Backup(ctx, cfg.BackupDir, cfg.DatabaseURL)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h := sha256.New()
	size, err := io.Copy(h, f)
	if err != nil {
		return nil, fmt.Errorf("checksum %s: %w", path, err)
	}
	out := map[string]any{"file": filepath.Base(path), "sizeBytes": size, "sha256": hex.EncodeToString(h.Sum(nil)),
		"seconds": time.Since(start).Round(time.Millisecond).Seconds()}
	if cfg.BackupKeep > 0 {
		pruned, err := backups.Prune(cfg.BackupDir, cfg.BackupKeep)
		if err != nil {
			return nil, fmt.Errorf("prune old backups: %w", err)
		}
		out["pruned"] = append([]string{}, pruned...) // [] rather than null when none
	}
	return out, nil
}

// OtherLiveSessions counts the sessions a sign-out of everyone but the
// session of token keepSession would end: those not expired, and the
// people they belong to (sessions written before sessions named their
// user count as one person each).
func (s Auth) OtherLiveSessions(ctx context.Context, keepSession string) (sessions, people int, err error) {
	err = s.db(ctx).NewSelect().Model((*Session)(nil)).
		ColumnExpr("count(*), count(DISTINCT s.user_id) + COALESCE(sum(CASE WHEN s.user_id IS NULL THEN 1 ELSE 0 END), 0)").
		Where("s.token <> ? AND s.expiry > ?", SessionKey(keepSession), s.now()).Scan(ctx, &sessions, &people)
	if err != nil {
		return 0, 0, fmt.Errorf("count live sessions: %w", err)
	}
	return sessions, people, nil
}
