-- The admin list's search sorted by post count walks this index in order
-- and tests each user's names as it goes; holding the names, it answers
-- that walk without reading the table (an index-only scan).
CREATE INDEX users_post_count_names_idx ON users (post_count, id) INCLUDE (username, email);
--bun:split
DROP INDEX users_post_count_idx;
