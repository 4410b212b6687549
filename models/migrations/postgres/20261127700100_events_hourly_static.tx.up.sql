-- The events' hourly counter, kept by a trigger of its own. The shared
-- plaza_daily_rows names its table and column at run time, so every
-- statement it serves is parsed and planned again; on the busiest insert
-- path (analytics collection, a COPY of a few hundred rows many times a
-- second) that was about a fifth of the database's time per COPY. A
-- function with its statements written out keeps its plans.
CREATE FUNCTION plaza_events_hourly() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO hourly_counts (hour, metric, n)
        SELECT date_trunc('hour', occurred_at, 'UTC'), 'events', count(*) FROM new_rows GROUP BY 1
        ORDER BY 1 -- one lock order, so concurrent writers never deadlock
        ON CONFLICT (hour, metric) DO UPDATE SET n = hourly_counts.n + EXCLUDED.n;
    ELSE
        INSERT INTO hourly_counts (hour, metric, n)
        SELECT date_trunc('hour', occurred_at, 'UTC'), 'events', -count(*) FROM old_rows GROUP BY 1
        ORDER BY 1
        ON CONFLICT (hour, metric) DO UPDATE SET n = hourly_counts.n + EXCLUDED.n;
    END IF;
    RETURN NULL;
END
$$;
--bun:split
DROP TRIGGER analytics_events_hourly ON analytics_events;
--bun:split
DROP TRIGGER analytics_events_hourly_gone ON analytics_events;
--bun:split
CREATE TRIGGER analytics_events_hourly AFTER INSERT ON analytics_events REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_events_hourly();
--bun:split
CREATE TRIGGER analytics_events_hourly_gone AFTER DELETE ON analytics_events REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_events_hourly();
