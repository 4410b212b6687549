DROP TRIGGER IF EXISTS post_reports_daily_resolved_moved ON post_reports;
--bun:split
DROP TRIGGER IF EXISTS post_reports_daily_resolved_gone ON post_reports;
--bun:split
DROP TRIGGER IF EXISTS post_reports_daily_resolved ON post_reports;
--bun:split
DROP FUNCTION IF EXISTS plaza_daily_resolved_moved();
--bun:split
DROP FUNCTION IF EXISTS plaza_daily_resolved_rows();
--bun:split
DELETE FROM daily_counts WHERE metric IN ('reports_resolved', 'reports_wait_seconds');
--bun:split
DROP TRIGGER IF EXISTS posts_flagged_update ON posts;
--bun:split
DROP TRIGGER IF EXISTS posts_flagged_delete ON posts;
--bun:split
DROP TRIGGER IF EXISTS posts_flagged_insert ON posts;
--bun:split
DROP FUNCTION IF EXISTS plaza_count_flagged();
--bun:split
DELETE FROM row_counts WHERE table_name = 'posts_flagged';
