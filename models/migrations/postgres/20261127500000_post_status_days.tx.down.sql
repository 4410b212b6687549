DROP TRIGGER IF EXISTS posts_status_days_update ON posts;
--bun:split
DROP TRIGGER IF EXISTS posts_status_days_delete ON posts;
--bun:split
DROP TRIGGER IF EXISTS posts_status_days_insert ON posts;
--bun:split
DROP FUNCTION IF EXISTS plaza_post_status_days();
--bun:split
DROP TABLE IF EXISTS post_status_days;
