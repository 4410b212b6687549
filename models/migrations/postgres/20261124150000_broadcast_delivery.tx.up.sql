-- A broadcast is delivered in steps over user ids, each its own
-- transaction: last_user_id fixes the audience when it is sent,
-- delivered_through is the cursor a retried job resumes from.
ALTER TABLE broadcasts ADD COLUMN last_user_id bigint NOT NULL DEFAULT 0;
--bun:split
ALTER TABLE broadcasts ADD COLUMN delivered_through bigint NOT NULL DEFAULT 0;
--bun:split
ALTER TABLE broadcasts ADD COLUMN delivered integer NOT NULL DEFAULT 0;
--bun:split
ALTER TABLE broadcasts ADD COLUMN delivered_at timestamptz;
--bun:split
-- Read counts per broadcast. Only read rows are indexed, so a delivery
-- of a million unread rows adds nothing to this index.
CREATE INDEX notifications_broadcast_read_idx ON notifications (broadcast_id) WHERE read_at IS NOT NULL;

--bun:split

-- A foreign key checks each inserted row by locking the row it names
-- (FOR KEY SHARE): a delivery to a million users would lock and dirty a
-- million user rows and take three times as long. Broadcasts are never
-- deleted, so their key goes; a user's notifications go with the user by
-- a statement trigger instead. A row delivered while its user is being
-- deleted can outlive the user; no one can read it, as ids are never
-- reused.
ALTER TABLE notifications DROP CONSTRAINT notifications_broadcast_id_fkey;
--bun:split
ALTER TABLE notifications DROP CONSTRAINT notifications_user_id_fkey;
--bun:split
CREATE FUNCTION plaza_delete_notifications() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM notifications n USING gone_users g WHERE n.user_id = g.id;
    RETURN NULL;
END
$$;
--bun:split
CREATE TRIGGER users_delete_notifications
    AFTER DELETE ON users REFERENCING OLD TABLE AS gone_users
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_delete_notifications();
