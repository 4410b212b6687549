CREATE INDEX posts_status_created_at_idx ON posts (status, created_at);
--bun:split
DROP INDEX IF EXISTS posts_status_created_id_idx;
