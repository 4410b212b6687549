DROP INDEX IF EXISTS posts_review_idx;
--bun:split
DROP INDEX IF EXISTS posts_report_count_idx;
--bun:split
CREATE INDEX posts_report_count_idx ON posts (report_count, id) WHERE report_count > 0;
