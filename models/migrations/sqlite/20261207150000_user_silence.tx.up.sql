ALTER TABLE users ADD COLUMN silenced_until TIMESTAMP;
--bun:split
ALTER TABLE users ADD COLUMN silence_reason TEXT NOT NULL DEFAULT '';
