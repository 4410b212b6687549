DROP TRIGGER posts_status_order_counts_insert ON posts;
--bun:split
DROP TRIGGER posts_status_order_counts_delete ON posts;
--bun:split
DROP TRIGGER posts_status_order_counts_update ON posts;
--bun:split
DROP FUNCTION plaza_post_status_order_counts();
--bun:split
DROP TABLE post_status_title_marks;
--bun:split
DROP TABLE post_status_report_runs;
--bun:split
DROP TABLE post_status_updated_hours;
