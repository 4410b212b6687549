-- Analytics events are kept 90 days. Deleting the expired ones row by row
-- rewrote and vacuumed a large table every day; partitioned by the month
-- they occurred in (UTC), a month that is wholly past retention is one
-- DROP TABLE (Store.DeleteOldEvents).
--
-- The key is occurred_at, the column retention, the roll-ups and the
-- reports filter on. A partitioned table's unique keys must hold the
-- partition key, so the primary key on id becomes a unique index on (id,
-- occurred_at). Ids are UUIDv7 made by the collector, so id alone stays
-- unique in practice, and a retried write repeats an event with the same
-- id and the same time, so ON CONFLICT (id, occurred_at) still skips what
-- is stored. Nothing refers to an event's id with a foreign key; lookups
-- by id (MissingEvents) use the index's leading column in each partition.
-- An index, not a PRIMARY KEY constraint: pg_restore --clean (plaza
-- restore) cannot drop a partition's copy of a key constraint (PostgreSQL
-- 15 emits ALTER TABLE ONLY <partition> DROP CONSTRAINT, which fails), while
-- a partitioned index goes with its parent.
--
-- analytics_events_default takes the rows of a month without a partition
-- (a bulk load of old rows, a restore), so that a write never fails on a
-- missing month; plaza_event_partition moves them into their month's
-- partition when it creates it. The analytics job creates the partitions
-- of the months of the last 90 days and of the next three ahead.
ALTER TABLE analytics_events RENAME TO analytics_events_unpartitioned;
--bun:split
ALTER INDEX analytics_events_pkey RENAME TO analytics_events_unpartitioned_pkey;
--bun:split
ALTER INDEX analytics_events_occurred_at_idx RENAME TO analytics_events_unpartitioned_occurred_at_idx;
--bun:split
ALTER INDEX analytics_events_type_idx RENAME TO analytics_events_unpartitioned_type_idx;
--bun:split
ALTER INDEX analytics_events_user_id_idx RENAME TO analytics_events_unpartitioned_user_id_idx;
--bun:split
CREATE TABLE analytics_events (
    id          uuid NOT NULL,
    event_type  text NOT NULL,
    event_data  jsonb NOT NULL,
    user_id     bigint,
    session_id  text NOT NULL DEFAULT '',
    ip_hash     text NOT NULL DEFAULT '',
    user_agent  text NOT NULL DEFAULT '',
    page_path   text NOT NULL DEFAULT '',
    occurred_at timestamptz NOT NULL,
    received_at timestamptz NOT NULL
) PARTITION BY RANGE (occurred_at);
--bun:split
CREATE UNIQUE INDEX analytics_events_id_idx ON analytics_events (id, occurred_at);
--bun:split
CREATE INDEX analytics_events_occurred_at_idx ON analytics_events (occurred_at, user_id);
--bun:split
CREATE INDEX analytics_events_type_idx ON analytics_events (event_type, occurred_at);
--bun:split
CREATE INDEX analytics_events_user_id_idx ON analytics_events (user_id, occurred_at);
--bun:split
CREATE TABLE analytics_events_default PARTITION OF analytics_events DEFAULT;

--bun:split

-- Creates the partition of the UTC month holding at, named
-- analytics_events_YYYY_MM, unless it exists, and moves into it the rows
-- of that month the default partition holds; reports whether it created
-- one. Callers serialise on an advisory lock, so instances running the
-- job together create each month once. The partition is built beside the
-- table and attached, which locks the parent less than CREATE … PARTITION
-- OF (writers keep writing to the other partitions meanwhile).
CREATE FUNCTION plaza_event_partition(at timestamptz) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
    lo   timestamptz := date_trunc('month', at, 'UTC');
    hi   timestamptz := (date_trunc('month', at AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC';
    name text := 'analytics_events_' || to_char(at AT TIME ZONE 'UTC', 'YYYY_MM');
BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('plaza_event_partition'));
    IF to_regclass(quote_ident(name)) IS NOT NULL THEN
        RETURN false;
    END IF;
    EXECUTE format('CREATE TABLE %I (LIKE analytics_events INCLUDING DEFAULTS)', name);
    -- Rows moved between partitions of one table: the parent's statement
    -- triggers (the hourly counters) do not fire, and need not.
    EXECUTE format('WITH moved AS (DELETE FROM analytics_events_default WHERE occurred_at >= $1 AND occurred_at < $2 RETURNING *)
                    INSERT INTO %I SELECT * FROM moved', name) USING lo, hi;
    EXECUTE format('ALTER TABLE analytics_events ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', name, lo, hi);
    RETURN true;
END
$$;

--bun:split

-- The months of the stored events, and those of the last 90 days to
-- three months ahead (what the analytics job keeps).
SELECT plaza_event_partition(m) FROM (
    SELECT DISTINCT date_trunc('month', occurred_at, 'UTC') AS m FROM analytics_events_unpartitioned
    UNION SELECT (date_trunc('month', (now() - interval '90 days') AT TIME ZONE 'UTC') + make_interval(months => k)) AT TIME ZONE 'UTC'
    FROM generate_series(0, 6) AS k
) AS months WHERE m <= (date_trunc('month', now() AT TIME ZONE 'UTC') + interval '3 months') AT TIME ZONE 'UTC'
    OR m IN (SELECT date_trunc('month', occurred_at, 'UTC') FROM analytics_events_unpartitioned)
ORDER BY m;

--bun:split

-- The triggers come after the move: the rows are the same rows, already
-- counted in hourly_counts.
INSERT INTO analytics_events SELECT id, event_type, event_data, user_id, session_id, ip_hash, user_agent, page_path, occurred_at, received_at
FROM analytics_events_unpartitioned;
--bun:split
DROP TABLE analytics_events_unpartitioned;
--bun:split
CREATE TRIGGER analytics_events_hourly AFTER INSERT ON analytics_events REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_daily_rows('events', 'occurred_at', 'hourly');
--bun:split
CREATE TRIGGER analytics_events_hourly_gone AFTER DELETE ON analytics_events REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_daily_rows('events', 'occurred_at', 'hourly');
