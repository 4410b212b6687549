DROP TRIGGER IF EXISTS post_reports_count_delete ON post_reports;
--bun:split
DROP TRIGGER IF EXISTS post_reports_count_update ON post_reports;
--bun:split
DROP TRIGGER IF EXISTS post_reports_count_insert ON post_reports;
--bun:split
DROP FUNCTION IF EXISTS plaza_count_open_reports();
--bun:split
DROP INDEX IF EXISTS posts_open_reports_idx;
--bun:split
ALTER TABLE posts DROP COLUMN IF EXISTS open_reports;
