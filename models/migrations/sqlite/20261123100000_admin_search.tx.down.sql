DROP INDEX IF EXISTS users_id_idx;
--bun:split
DROP TRIGGER IF EXISTS provider_accounts_fts_update;
--bun:split
DROP TRIGGER IF EXISTS provider_accounts_fts_delete;
--bun:split
DROP TRIGGER IF EXISTS provider_accounts_fts_insert;
--bun:split
DROP TABLE IF EXISTS provider_accounts_fts;
--bun:split
DROP TRIGGER IF EXISTS users_count_delete;
--bun:split
DROP TRIGGER IF EXISTS users_count_insert;
--bun:split
DROP TABLE IF EXISTS row_counts;
