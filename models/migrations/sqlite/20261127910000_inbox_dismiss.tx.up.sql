-- A person may dismiss a message from their inbox: their own notification
-- keeps the time in its row, a broadcast in their read mark, which a
-- dismissal makes if they had not read it yet.
ALTER TABLE notifications ADD COLUMN dismissed_at TIMESTAMP;
--bun:split
ALTER TABLE broadcast_reads ADD COLUMN dismissed_at TIMESTAMP;
