DROP INDEX IF EXISTS post_reports_open_created_idx;
