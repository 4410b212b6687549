DROP INDEX IF EXISTS sessions_user_id_idx;
--bun:split
ALTER TABLE sessions DROP COLUMN user_agent;
--bun:split
ALTER TABLE sessions DROP COLUMN ip;
--bun:split
ALTER TABLE sessions DROP COLUMN last_seen_at;
--bun:split
ALTER TABLE sessions DROP COLUMN created_at;
--bun:split
ALTER TABLE sessions DROP COLUMN user_id;
