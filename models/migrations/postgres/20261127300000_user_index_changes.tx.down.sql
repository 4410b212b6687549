DROP TRIGGER IF EXISTS users_index_insert ON users;
--bun:split
DROP TRIGGER IF EXISTS users_index_update ON users;
--bun:split
DROP TRIGGER IF EXISTS users_index_delete ON users;
--bun:split
DROP TRIGGER IF EXISTS user_roles_index_insert ON user_roles;
--bun:split
DROP TRIGGER IF EXISTS user_roles_index_update ON user_roles;
--bun:split
DROP TRIGGER IF EXISTS user_roles_index_update_new ON user_roles;
--bun:split
DROP TRIGGER IF EXISTS user_roles_index_delete ON user_roles;
--bun:split
DROP TRIGGER IF EXISTS bans_index_insert ON bans;
--bun:split
DROP TRIGGER IF EXISTS bans_index_update ON bans;
--bun:split
DROP TRIGGER IF EXISTS bans_index_delete ON bans;
--bun:split
DROP TRIGGER IF EXISTS provider_accounts_index_insert ON provider_accounts;
--bun:split
DROP TRIGGER IF EXISTS provider_accounts_index_update ON provider_accounts;
--bun:split
DROP TRIGGER IF EXISTS provider_accounts_index_update_new ON provider_accounts;
--bun:split
DROP TRIGGER IF EXISTS provider_accounts_index_delete ON provider_accounts;
--bun:split
DROP FUNCTION IF EXISTS plaza_user_index_log();
--bun:split
DROP TABLE IF EXISTS user_index_epoch;
--bun:split
DROP TABLE IF EXISTS user_index_changes;
