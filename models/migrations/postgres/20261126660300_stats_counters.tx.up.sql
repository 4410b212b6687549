-- The admin stats and the dashboard read counters only. Two kinds are
-- added, kept by triggers in the same transaction as the rows:
--
-- hourly_counts: each UTC hour's count of what daily_counts counts by day,
-- and of analytics events, so that a window's partial days (all of a day
-- window) cost a few counter rows too, and today's events are a sum of at
-- most 24 rows instead of a scan of the events.
--
-- row_counts: posts that are drafts or hidden, users inactive or banned,
-- so that the stats' statuses are read, not counted.
CREATE TABLE hourly_counts (
    hour   timestamptz NOT NULL,
    metric text NOT NULL,
    n      bigint NOT NULL,
    PRIMARY KEY (hour, metric)
);

--bun:split

CREATE FUNCTION plaza_hourly_add(hours timestamptz[], metrics text[], deltas bigint[]) RETURNS void LANGUAGE sql AS $$
    INSERT INTO hourly_counts (hour, metric, n)
    SELECT h, m, sum(x) FROM unnest(hours, metrics, deltas) AS u(h, m, x) WHERE h IS NOT NULL GROUP BY h, m
    ORDER BY h, m -- one lock order, so concurrent writers never deadlock
    ON CONFLICT (hour, metric) DO UPDATE SET n = hourly_counts.n + EXCLUDED.n;
$$;

--bun:split

-- Adds the rows of a transition table to hourly_counts, and to
-- daily_counts unless TG_ARGV[2] is 'hourly'.
CREATE OR REPLACE FUNCTION plaza_daily_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    metric text := TG_ARGV[0];
    col    text := TG_ARGV[1];
    sign   int  := CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END;
    rel    text := CASE WHEN TG_OP = 'INSERT' THEN 'new_rows' ELSE 'old_rows' END;
    hours  timestamptz[];
    counts bigint[];
    names  text[];
BEGIN
    EXECUTE format('SELECT array_agg(h ORDER BY h), array_agg(c ORDER BY h) FROM (SELECT date_trunc(''hour'', %I, ''UTC'') AS h, count(*) * $1 AS c
                    FROM %I WHERE %I IS NOT NULL GROUP BY 1) AS g', col, rel, col)
        INTO hours, counts USING sign;
    IF hours IS NULL THEN
        RETURN NULL;
    END IF;
    names := array_fill(metric, ARRAY[array_length(hours, 1)]);
    PERFORM plaza_hourly_add(hours, names, counts);
    IF TG_NARGS < 3 OR TG_ARGV[2] <> 'hourly' THEN
        PERFORM plaza_daily_add(ARRAY(SELECT (h AT TIME ZONE 'UTC')::date FROM unnest(hours) WITH ORDINALITY AS u(h, i) ORDER BY i), names, counts);
    END IF;
    RETURN NULL;
END
$$;

--bun:split

CREATE OR REPLACE FUNCTION plaza_daily_moved() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    metric text := TG_ARGV[0];
    old_at timestamptz;
    new_at timestamptz;
BEGIN
    EXECUTE format('SELECT ($1).%I, ($2).%I', TG_ARGV[1], TG_ARGV[1]) INTO old_at, new_at USING OLD, NEW;
    PERFORM plaza_daily_add(ARRAY[(old_at AT TIME ZONE 'UTC')::date, (new_at AT TIME ZONE 'UTC')::date],
                            ARRAY[metric, metric], ARRAY[-1, 1]::bigint[]);
    PERFORM plaza_hourly_add(ARRAY[date_trunc('hour', old_at, 'UTC'), date_trunc('hour', new_at, 'UTC')],
                             ARRAY[metric, metric], ARRAY[-1, 1]::bigint[]);
    RETURN NULL;
END
$$;

--bun:split
CREATE TRIGGER analytics_events_hourly AFTER INSERT ON analytics_events REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_daily_rows('events', 'occurred_at', 'hourly');
--bun:split
CREATE TRIGGER analytics_events_hourly_gone AFTER DELETE ON analytics_events REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_daily_rows('events', 'occurred_at', 'hourly');

--bun:split

INSERT INTO hourly_counts (hour, metric, n)
SELECT date_trunc('hour', created_at, 'UTC'), 'users_created', count(*) FROM users GROUP BY 1
UNION ALL SELECT date_trunc('hour', last_login_at, 'UTC'), 'users_last_login', count(*) FROM users WHERE last_login_at IS NOT NULL GROUP BY 1
UNION ALL SELECT date_trunc('hour', created_at, 'UTC'), 'posts_created', count(*) FROM posts GROUP BY 1
UNION ALL SELECT date_trunc('hour', created_at, 'UTC'), 'reports_created', count(*) FROM post_reports GROUP BY 1
UNION ALL SELECT date_trunc('hour', created_at, 'UTC'), 'moderation_actions', count(*) FROM moderation_actions GROUP BY 1
UNION ALL SELECT date_trunc('hour', created_at, 'UTC'), 'logins', count(*) FROM logins GROUP BY 1
UNION ALL SELECT date_trunc('hour', occurred_at, 'UTC'), 'events', count(*) FROM analytics_events GROUP BY 1;

--bun:split

-- Adds to row_counts' <table>_<status> the rows that took or left each
-- status TG_ARGV names.
CREATE FUNCTION plaza_count_statuses() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    st    text;
    delta bigint;
BEGIN
    FOREACH st IN ARRAY TG_ARGV LOOP
        delta := 0;
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
            delta := delta + (SELECT count(*) FROM new_rows WHERE status = st);
        END IF;
        IF TG_OP IN ('DELETE', 'UPDATE') THEN
            delta := delta - (SELECT count(*) FROM old_rows WHERE status = st);
        END IF;
        -- Only a change takes the counter's row lock.
        IF delta <> 0 THEN
            UPDATE row_counts SET row_count = row_count + delta WHERE table_name = TG_TABLE_NAME || '_' || st;
        END IF;
    END LOOP;
    RETURN NULL;
END
$$;

--bun:split
INSERT INTO row_counts (table_name, row_count)
SELECT 'posts_draft', count(*) FROM posts WHERE status = 'draft'
UNION ALL SELECT 'posts_hidden', count(*) FROM posts WHERE status = 'hidden'
UNION ALL SELECT 'users_inactive', count(*) FROM users WHERE status = 'inactive'
UNION ALL SELECT 'users_banned', count(*) FROM users WHERE status = 'banned';
--bun:split
CREATE TRIGGER posts_statuses_insert AFTER INSERT ON posts REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_count_statuses('draft', 'hidden');
--bun:split
CREATE TRIGGER posts_statuses_delete AFTER DELETE ON posts REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_count_statuses('draft', 'hidden');
--bun:split
CREATE TRIGGER posts_statuses_update AFTER UPDATE ON posts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_count_statuses('draft', 'hidden');
--bun:split
CREATE TRIGGER users_statuses_insert AFTER INSERT ON users REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_count_statuses('inactive', 'banned');
--bun:split
CREATE TRIGGER users_statuses_delete AFTER DELETE ON users REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_count_statuses('inactive', 'banned');
--bun:split
CREATE TRIGGER users_statuses_update AFTER UPDATE ON users REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_count_statuses('inactive', 'banned');
