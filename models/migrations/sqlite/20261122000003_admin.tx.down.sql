DROP TABLE IF EXISTS settings;
--bun:split
DROP TABLE IF EXISTS api_tokens;
--bun:split
DROP TABLE IF EXISTS sessions;
--bun:split
DROP TABLE IF EXISTS locks;
--bun:split
DROP TABLE IF EXISTS audit_log;
--bun:split
DROP TABLE IF EXISTS feature_flags;
--bun:split
DROP TABLE IF EXISTS notifications;
--bun:split
DROP TABLE IF EXISTS broadcasts;
