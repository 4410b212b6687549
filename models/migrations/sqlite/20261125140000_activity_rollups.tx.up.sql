-- The user-activity report's roll-ups: per UTC day (span 'day') and for
-- the last two days per hour (span 'hour'), the set of users active then (a
-- serialised roaring bitmap of their ids) and their events; rolled_at says
-- when (a span rolled up after it ended is final). See the PostgreSQL
-- migration.
CREATE TABLE activity_rollups (
    span      TEXT NOT NULL,
    start     TEXT NOT NULL,
    users     BLOB NOT NULL,
    events    INTEGER NOT NULL,
    digest    INTEGER NOT NULL,
    rolled_at TEXT NOT NULL,
    PRIMARY KEY (span, start)
);
--bun:split
CREATE TRIGGER logins_daily_logins_insert AFTER INSERT ON logins WHEN NEW.created_at IS NOT NULL BEGIN
    INSERT INTO daily_counts (day, metric, n) VALUES (substr(NEW.created_at, 1, 10), 'logins', 1)
    ON CONFLICT (day, metric) DO UPDATE SET n = n + 1;
END;
--bun:split
CREATE TRIGGER logins_daily_logins_delete AFTER DELETE ON logins WHEN OLD.created_at IS NOT NULL BEGIN
    UPDATE daily_counts SET n = n - 1 WHERE day = substr(OLD.created_at, 1, 10) AND metric = 'logins';
END;
--bun:split
INSERT INTO daily_counts (day, metric, n) SELECT substr(created_at, 1, 10), 'logins', count(*) FROM logins GROUP BY 1;
--bun:split
DROP INDEX IF EXISTS logins_created_at_idx;
--bun:split
CREATE INDEX logins_created_at_idx ON logins (created_at, user_id);
--bun:split
DROP INDEX IF EXISTS analytics_events_occurred_at_idx;
--bun:split
CREATE INDEX analytics_events_occurred_at_idx ON analytics_events (occurred_at, user_id);
--bun:split
-- The posts' authors by time, index only, for the same reason.
DROP INDEX IF EXISTS posts_created_at_idx;
--bun:split
CREATE INDEX posts_created_at_idx ON posts (created_at, id, author_id);
