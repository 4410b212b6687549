DROP TABLE IF EXISTS logins;
--bun:split
DROP TABLE IF EXISTS bans;
--bun:split
DROP TABLE IF EXISTS user_subscriptions;
--bun:split
DROP TABLE IF EXISTS subscription_types;
--bun:split
DROP TABLE IF EXISTS provider_accounts;
--bun:split
DROP TABLE IF EXISTS user_roles;
--bun:split
DROP TABLE IF EXISTS roles;
--bun:split
DROP TABLE IF EXISTS users;
