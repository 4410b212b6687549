DROP TRIGGER IF EXISTS post_reports_daily_resolved_moved;
--bun:split
DROP TRIGGER IF EXISTS post_reports_daily_resolved_gone;
--bun:split
DROP TRIGGER IF EXISTS post_reports_daily_resolved;
--bun:split
DELETE FROM daily_counts WHERE metric IN ('reports_resolved', 'reports_wait_seconds');
--bun:split
DROP TRIGGER IF EXISTS posts_flagged_update;
--bun:split
DROP TRIGGER IF EXISTS posts_flagged_delete;
--bun:split
DROP TRIGGER IF EXISTS posts_flagged_insert;
--bun:split
DELETE FROM row_counts WHERE table_name = 'posts_flagged';
