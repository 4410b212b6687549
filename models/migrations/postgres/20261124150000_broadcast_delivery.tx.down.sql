DROP TRIGGER IF EXISTS users_delete_notifications ON users;
--bun:split
DROP FUNCTION IF EXISTS plaza_delete_notifications();
--bun:split
DELETE FROM notifications n WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = n.user_id);
--bun:split
ALTER TABLE notifications ADD CONSTRAINT notifications_user_id_fkey FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE;
--bun:split
UPDATE notifications n SET broadcast_id = NULL WHERE NOT EXISTS (SELECT 1 FROM broadcasts b WHERE b.id = n.broadcast_id);
--bun:split
ALTER TABLE notifications ADD CONSTRAINT notifications_broadcast_id_fkey FOREIGN KEY (broadcast_id) REFERENCES broadcasts (id) ON DELETE SET NULL;
--bun:split
DROP INDEX IF EXISTS notifications_broadcast_read_idx;
--bun:split
ALTER TABLE broadcasts DROP COLUMN delivered_at;
--bun:split
ALTER TABLE broadcasts DROP COLUMN delivered;
--bun:split
ALTER TABLE broadcasts DROP COLUMN delivered_through;
--bun:split
ALTER TABLE broadcasts DROP COLUMN last_user_id;
