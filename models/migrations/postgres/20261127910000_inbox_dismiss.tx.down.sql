ALTER TABLE broadcast_reads DROP COLUMN dismissed_at;
--bun:split
ALTER TABLE notifications DROP COLUMN dismissed_at;
