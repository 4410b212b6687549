DROP TABLE applications;
--bun:split
ALTER TABLE blocks DROP COLUMN severity;
