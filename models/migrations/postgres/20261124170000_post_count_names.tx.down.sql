CREATE INDEX users_post_count_idx ON users (post_count, id);
--bun:split
DROP INDEX users_post_count_names_idx;
