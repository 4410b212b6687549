DROP INDEX IF EXISTS posts_author_id_idx;
--bun:split
CREATE INDEX posts_author_id_idx ON posts (author_id, created_at);
