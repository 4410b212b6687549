ALTER TABLE users ADD COLUMN silenced_until timestamptz;
--bun:split
ALTER TABLE users ADD COLUMN silence_reason text NOT NULL DEFAULT '';
