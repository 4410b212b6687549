-- The delivery columns come back; read marks become read rows. Unread
-- broadcasts are not written into inboxes again.
ALTER TABLE broadcasts ADD COLUMN last_user_id bigint NOT NULL DEFAULT 0;
--bun:split
ALTER TABLE broadcasts ADD COLUMN delivered_through bigint NOT NULL DEFAULT 0;
--bun:split
ALTER TABLE broadcasts ADD COLUMN delivered integer NOT NULL DEFAULT 0;
--bun:split
ALTER TABLE broadcasts ADD COLUMN delivered_at timestamptz;
--bun:split
ALTER TABLE notifications ADD COLUMN broadcast_id bigint;
--bun:split
CREATE INDEX notifications_broadcast_read_idx ON notifications (broadcast_id) WHERE read_at IS NOT NULL;
--bun:split
INSERT INTO notifications (user_id, broadcast_id, title, message, type, created_at, read_at)
SELECT br.user_id, bc.id, '', '', bc.type, bc.sent_at, br.read_at
FROM broadcast_reads AS br
JOIN broadcasts AS bc ON bc.id = br.broadcast_id;
--bun:split
ALTER TABLE broadcasts ALTER COLUMN sent_at DROP NOT NULL;
--bun:split
UPDATE broadcasts SET sent_at = NULL WHERE status = 'scheduled';
--bun:split
DROP TABLE broadcast_reads;
--bun:split
DROP TABLE broadcast_targets;
