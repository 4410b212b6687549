-- A user's page lists their latest posts by (created_at, id): with id in the
-- index, the latest ten are read from its end instead of sorting every post
-- a prolific author wrote, or walking all posts by date.
DROP INDEX IF EXISTS posts_author_id_idx;
--bun:split
CREATE INDEX posts_author_id_idx ON posts (author_id, created_at, id);
