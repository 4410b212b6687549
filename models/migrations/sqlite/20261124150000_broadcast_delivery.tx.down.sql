DROP INDEX IF EXISTS notifications_broadcast_read_idx;
--bun:split
ALTER TABLE broadcasts DROP COLUMN delivered_at;
--bun:split
ALTER TABLE broadcasts DROP COLUMN delivered;
--bun:split
ALTER TABLE broadcasts DROP COLUMN delivered_through;
--bun:split
ALTER TABLE broadcasts DROP COLUMN last_user_id;
