DROP TRIGGER IF EXISTS posts_order_counts_update ON posts;
--bun:split
DROP TRIGGER IF EXISTS posts_order_counts_delete ON posts;
--bun:split
DROP TRIGGER IF EXISTS posts_order_counts_insert ON posts;
--bun:split
DROP FUNCTION IF EXISTS plaza_post_order_counts();
--bun:split
DROP TABLE IF EXISTS post_report_runs;
--bun:split
DROP TABLE IF EXISTS post_updated_hours;
