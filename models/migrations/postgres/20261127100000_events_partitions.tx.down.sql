-- Back to one table, with the same rows (already counted).
ALTER TABLE analytics_events RENAME TO analytics_events_partitioned;
--bun:split
ALTER INDEX analytics_events_id_idx RENAME TO analytics_events_partitioned_id_idx;
--bun:split
ALTER INDEX analytics_events_occurred_at_idx RENAME TO analytics_events_partitioned_occurred_at_idx;
--bun:split
ALTER INDEX analytics_events_type_idx RENAME TO analytics_events_partitioned_type_idx;
--bun:split
ALTER INDEX analytics_events_user_id_idx RENAME TO analytics_events_partitioned_user_id_idx;
--bun:split
CREATE TABLE analytics_events (
    id          uuid PRIMARY KEY,
    event_type  text NOT NULL,
    event_data  jsonb NOT NULL,
    user_id     bigint,
    session_id  text NOT NULL DEFAULT '',
    ip_hash     text NOT NULL DEFAULT '',
    user_agent  text NOT NULL DEFAULT '',
    page_path   text NOT NULL DEFAULT '',
    occurred_at timestamptz NOT NULL,
    received_at timestamptz NOT NULL
);
--bun:split
INSERT INTO analytics_events SELECT id, event_type, event_data, user_id, session_id, ip_hash, user_agent, page_path, occurred_at, received_at
FROM analytics_events_partitioned;
--bun:split
DROP TABLE analytics_events_partitioned;
--bun:split
DROP FUNCTION IF EXISTS plaza_event_partition(timestamptz);
--bun:split
CREATE INDEX analytics_events_occurred_at_idx ON analytics_events (occurred_at, user_id);
--bun:split
CREATE INDEX analytics_events_type_idx ON analytics_events (event_type, occurred_at);
--bun:split
CREATE INDEX analytics_events_user_id_idx ON analytics_events (user_id, occurred_at);
--bun:split
CREATE TRIGGER analytics_events_hourly AFTER INSERT ON analytics_events REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_daily_rows('events', 'occurred_at', 'hourly');
--bun:split
CREATE TRIGGER analytics_events_hourly_gone AFTER DELETE ON analytics_events REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_daily_rows('events', 'occurred_at', 'hourly');
