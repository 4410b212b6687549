-- Every instance may hold sessions it has read (the per-instance session
-- cache). A session written back or ended tells every instance on the
-- change channel, with its key; a statement touching many sessions at once
-- (the sweep, "sign everyone out") tells them to drop all they hold.
CREATE FUNCTION plaza_sessions_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF (SELECT count(*) FROM old_rows) > 100 THEN
        PERFORM pg_notify('plaza_auth', 'sessions');
    ELSE
        PERFORM pg_notify('plaza_auth', 'sessions:' || token) FROM old_rows;
    END IF;
    RETURN NULL;
END
$$;
--bun:split
CREATE TRIGGER sessions_changed AFTER UPDATE ON sessions REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_sessions_changed();
--bun:split
CREATE TRIGGER sessions_gone AFTER DELETE ON sessions REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_sessions_changed();
