DROP TRIGGER IF EXISTS post_reports_count_delete;
--bun:split
DROP TRIGGER IF EXISTS post_reports_count_update;
--bun:split
DROP TRIGGER IF EXISTS post_reports_count_insert;
--bun:split
DROP INDEX IF EXISTS posts_open_reports_idx;
--bun:split
ALTER TABLE posts DROP COLUMN open_reports;
