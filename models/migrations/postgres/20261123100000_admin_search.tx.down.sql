DROP TRIGGER IF EXISTS users_count_delete ON users;
--bun:split
DROP TRIGGER IF EXISTS users_count_insert ON users;
--bun:split
DROP FUNCTION IF EXISTS plaza_count_users();
--bun:split
DROP TABLE IF EXISTS row_counts;
--bun:split
DROP INDEX IF EXISTS provider_accounts_email_trgm_idx;
