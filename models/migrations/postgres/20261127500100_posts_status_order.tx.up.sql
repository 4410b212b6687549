-- A page of one status's posts walks them in the list's order, creation
-- time then id; with the id in the index the walk reads the index alone
-- instead of fetching each post to check its status.
CREATE INDEX posts_status_created_id_idx ON posts (status, created_at, id);
--bun:split
DROP INDEX IF EXISTS posts_status_created_at_idx;
