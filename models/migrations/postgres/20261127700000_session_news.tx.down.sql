DROP TRIGGER IF EXISTS sessions_gone ON sessions;
--bun:split
DROP TRIGGER IF EXISTS sessions_changed ON sessions;
--bun:split
DROP FUNCTION IF EXISTS plaza_sessions_changed();
