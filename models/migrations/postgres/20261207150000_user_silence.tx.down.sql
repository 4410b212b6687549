ALTER TABLE users DROP COLUMN silence_reason;
--bun:split
ALTER TABLE users DROP COLUMN silenced_until;
