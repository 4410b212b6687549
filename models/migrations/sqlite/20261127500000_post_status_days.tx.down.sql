DROP TRIGGER IF EXISTS posts_status_days_update;
--bun:split
DROP TRIGGER IF EXISTS posts_status_days_delete;
--bun:split
DROP TRIGGER IF EXISTS posts_status_days_insert;
--bun:split
DROP TABLE IF EXISTS post_status_days;
