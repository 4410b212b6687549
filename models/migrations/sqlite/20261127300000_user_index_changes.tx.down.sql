DROP TRIGGER IF EXISTS users_index_insert;
--bun:split
DROP TRIGGER IF EXISTS users_index_update;
--bun:split
DROP TRIGGER IF EXISTS users_index_delete;
--bun:split
DROP TRIGGER IF EXISTS user_roles_index_insert;
--bun:split
DROP TRIGGER IF EXISTS user_roles_index_update;
--bun:split
DROP TRIGGER IF EXISTS user_roles_index_delete;
--bun:split
DROP TRIGGER IF EXISTS user_roles_index_update_old;
--bun:split
DROP TRIGGER IF EXISTS bans_index_insert;
--bun:split
DROP TRIGGER IF EXISTS bans_index_update;
--bun:split
DROP TRIGGER IF EXISTS bans_index_delete;
--bun:split
DROP TRIGGER IF EXISTS bans_index_update_old;
--bun:split
DROP TRIGGER IF EXISTS provider_accounts_index_insert;
--bun:split
DROP TRIGGER IF EXISTS provider_accounts_index_update;
--bun:split
DROP TRIGGER IF EXISTS provider_accounts_index_delete;
--bun:split
DROP TRIGGER IF EXISTS provider_accounts_index_update_old;
--bun:split
DROP TABLE IF EXISTS user_index_epoch;
--bun:split
DROP TABLE IF EXISTS user_index_changes;
