DROP INDEX IF EXISTS analytics_events_occurred_at_idx;
--bun:split
CREATE INDEX analytics_events_occurred_at_idx ON analytics_events (occurred_at);
--bun:split
DROP INDEX IF EXISTS logins_created_at_idx;
--bun:split
CREATE INDEX logins_created_at_idx ON logins (created_at);
--bun:split
DELETE FROM daily_counts WHERE metric = 'logins';
--bun:split
DROP TRIGGER IF EXISTS logins_daily ON logins;
--bun:split
DROP TRIGGER IF EXISTS logins_daily_gone ON logins;
--bun:split
DROP TABLE IF EXISTS activity_rollups;
--bun:split
DROP INDEX IF EXISTS posts_created_at_idx;
--bun:split
CREATE INDEX posts_created_at_idx ON posts (created_at, id);
