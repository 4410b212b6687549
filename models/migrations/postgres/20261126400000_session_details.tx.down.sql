DROP INDEX IF EXISTS sessions_user_id_idx;
--bun:split
ALTER TABLE sessions DROP COLUMN user_agent, DROP COLUMN ip, DROP COLUMN last_seen_at,
    DROP COLUMN created_at, DROP COLUMN user_id;
