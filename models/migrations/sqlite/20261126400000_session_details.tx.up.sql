-- What a person's list of sessions shows: whose session it is (indexed, so
-- that ending all of a user's sessions is one indexed statement), when it
-- began and was last written back, and from where. Sessions from before
-- this change keep nulls until their next write-back fills them in.
ALTER TABLE sessions ADD COLUMN user_id INTEGER;
--bun:split
ALTER TABLE sessions ADD COLUMN created_at TIMESTAMP;
--bun:split
ALTER TABLE sessions ADD COLUMN last_seen_at TIMESTAMP;
--bun:split
ALTER TABLE sessions ADD COLUMN ip TEXT;
--bun:split
ALTER TABLE sessions ADD COLUMN user_agent TEXT;
--bun:split
CREATE INDEX sessions_user_id_idx ON sessions (user_id);
