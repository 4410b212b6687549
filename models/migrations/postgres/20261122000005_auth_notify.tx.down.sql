DROP TRIGGER IF EXISTS api_tokens_auth_changed ON api_tokens;
--bun:split
DROP TRIGGER IF EXISTS roles_auth_changed ON roles;
--bun:split
DROP TRIGGER IF EXISTS user_roles_auth_changed ON user_roles;
--bun:split
DROP TRIGGER IF EXISTS users_auth_changed ON users;
--bun:split
DROP FUNCTION IF EXISTS plaza_auth_changed();
