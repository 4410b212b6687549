CREATE INDEX users_last_login_at_idx ON users (last_login_at, id);
--bun:split
DROP INDEX IF EXISTS users_last_login_nulls_first_idx;
