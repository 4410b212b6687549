CREATE INDEX users_name_trgm_idx ON users USING gin (name gin_trgm_ops);
--bun:split
DROP INDEX IF EXISTS users_staff_search_trgm_idx;
--bun:split
DROP INDEX IF EXISTS users_profile_search_trgm_idx;
