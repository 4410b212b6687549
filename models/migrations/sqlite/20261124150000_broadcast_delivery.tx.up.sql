-- A broadcast is delivered in steps over user ids, each its own
-- transaction: last_user_id fixes the audience when it is sent,
-- delivered_through is the cursor a retried job resumes from.
ALTER TABLE broadcasts ADD COLUMN last_user_id INTEGER NOT NULL DEFAULT 0;
--bun:split
ALTER TABLE broadcasts ADD COLUMN delivered_through INTEGER NOT NULL DEFAULT 0;
--bun:split
ALTER TABLE broadcasts ADD COLUMN delivered INTEGER NOT NULL DEFAULT 0;
--bun:split
ALTER TABLE broadcasts ADD COLUMN delivered_at TIMESTAMP;
--bun:split
-- Read counts per broadcast. Only read rows are indexed, so a delivery
-- of a million unread rows adds nothing to this index.
CREATE INDEX notifications_broadcast_read_idx ON notifications (broadcast_id) WHERE read_at IS NOT NULL;
