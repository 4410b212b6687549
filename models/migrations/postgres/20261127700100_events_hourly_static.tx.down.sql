DROP TRIGGER analytics_events_hourly ON analytics_events;
--bun:split
DROP TRIGGER analytics_events_hourly_gone ON analytics_events;
--bun:split
CREATE TRIGGER analytics_events_hourly AFTER INSERT ON analytics_events REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_daily_rows('events', 'occurred_at', 'hourly');
--bun:split
CREATE TRIGGER analytics_events_hourly_gone AFTER DELETE ON analytics_events REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_daily_rows('events', 'occurred_at', 'hourly');
--bun:split
DROP FUNCTION plaza_events_hourly();
