-- The user-activity report lists who was active in a window and counts
-- them. Counting the distinct users of a month's posts, sign-ins and
-- events from the rows reads millions of rows; instead the analytics job
-- keeps, per UTC day (span 'day') and for the last two days per hour
-- (span 'hour'), the set of users active then (a serialised roaring bitmap
-- of their ids) and their events. rolled_at says when: a span rolled up
-- after it ended is final.
CREATE TABLE activity_rollups (
    span      text NOT NULL,
    start     timestamptz NOT NULL,
    users     bytea NOT NULL,
    events    bigint NOT NULL,
    digest    bigint NOT NULL,
    rolled_at timestamptz NOT NULL,
    PRIMARY KEY (span, start)
);
--bun:split
-- Sign-ins per UTC day, kept by triggers like the other daily counts, so
-- that a report's total of sign-ins costs a few counter rows.
CREATE TRIGGER logins_daily AFTER INSERT ON logins REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_daily_rows('logins', 'created_at');
--bun:split
CREATE TRIGGER logins_daily_gone AFTER DELETE ON logins REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_daily_rows('logins', 'created_at');
--bun:split
INSERT INTO daily_counts (day, metric, n)
SELECT (created_at AT TIME ZONE 'UTC')::date, 'logins', count(*) FROM logins GROUP BY 1;
--bun:split
-- The users active in part of a day are read index only: the events'
-- and the sign-ins' users by time.
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
CREATE INDEX posts_created_at_idx ON posts (created_at, id) INCLUDE (author_id);
