-- What a person's list of sessions shows: whose session it is (indexed, so
-- that ending all of a user's sessions is one indexed statement), when it
-- began and was last written back, and from where. Sessions from before
-- this change keep nulls until their next write-back fills them in.
ALTER TABLE sessions
    ADD COLUMN user_id      bigint,
    ADD COLUMN created_at   timestamptz,
    ADD COLUMN last_seen_at timestamptz,
    ADD COLUMN ip           text,
    ADD COLUMN user_agent   text;
--bun:split
CREATE INDEX sessions_user_id_idx ON sessions (user_id);
