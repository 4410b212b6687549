-- The analytics collector stores tens of thousands of events a second, and
-- the foreign key on analytics_events.user_id made every stored row look
-- its user up (about half of each row's insert cost). A trigger on users
-- keeps what the key did on delete (SET NULL) without a check per insert;
-- the collector takes user_id from the signed-in session, so it names an
-- existing user anyway.
ALTER TABLE analytics_events DROP CONSTRAINT analytics_events_user_id_fkey;

--bun:split

CREATE FUNCTION plaza_detach_user_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE analytics_events SET user_id = NULL WHERE user_id = OLD.id;
    RETURN NULL;
END
$$;

--bun:split

CREATE TRIGGER users_detach_events
    AFTER DELETE ON users
    FOR EACH ROW EXECUTE FUNCTION plaza_detach_user_events();
