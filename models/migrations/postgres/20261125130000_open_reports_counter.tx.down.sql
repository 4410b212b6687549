DROP TRIGGER IF EXISTS post_reports_open_insert ON post_reports;
--bun:split
DROP TRIGGER IF EXISTS post_reports_open_delete ON post_reports;
--bun:split
DROP TRIGGER IF EXISTS post_reports_open_update ON post_reports;
--bun:split
DROP FUNCTION IF EXISTS plaza_count_reports_open();
--bun:split
DELETE FROM row_counts WHERE table_name = 'reports_open';
