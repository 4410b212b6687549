DROP TRIGGER IF EXISTS post_reports_open_insert;
--bun:split
DROP TRIGGER IF EXISTS post_reports_open_delete;
--bun:split
DROP TRIGGER IF EXISTS post_reports_open_update;
--bun:split
DELETE FROM row_counts WHERE table_name = 'reports_open';
