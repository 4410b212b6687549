DROP TRIGGER IF EXISTS users_statuses_update ON users;
--bun:split
DROP TRIGGER IF EXISTS users_statuses_delete ON users;
--bun:split
DROP TRIGGER IF EXISTS users_statuses_insert ON users;
--bun:split
DROP TRIGGER IF EXISTS posts_statuses_update ON posts;
--bun:split
DROP TRIGGER IF EXISTS posts_statuses_delete ON posts;
--bun:split
DROP TRIGGER IF EXISTS posts_statuses_insert ON posts;
--bun:split
DELETE FROM row_counts WHERE table_name IN ('posts_draft', 'posts_hidden', 'users_inactive', 'users_banned');
--bun:split
DROP FUNCTION IF EXISTS plaza_count_statuses();
--bun:split
DROP TRIGGER IF EXISTS analytics_events_hourly_gone ON analytics_events;
--bun:split
DROP TRIGGER IF EXISTS analytics_events_hourly ON analytics_events;
--bun:split
CREATE OR REPLACE FUNCTION plaza_daily_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    metric text := TG_ARGV[0];
    col    text := TG_ARGV[1];
    sign   int  := CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END;
    rel    text := CASE WHEN TG_OP = 'INSERT' THEN 'new_rows' ELSE 'old_rows' END;
    days   date[];
    counts bigint[];
BEGIN
    EXECUTE format('SELECT array_agg(d), array_agg(c) FROM (SELECT (%I AT TIME ZONE ''UTC'')::date AS d, count(*) * $1 AS c
                    FROM %I WHERE %I IS NOT NULL GROUP BY 1) AS g', col, rel, col)
        INTO days, counts USING sign;
    IF days IS NOT NULL THEN
        PERFORM plaza_daily_add(days, array_fill(metric, ARRAY[array_length(days, 1)]), counts);
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
    RETURN NULL;
END
$$;
--bun:split
DROP FUNCTION IF EXISTS plaza_hourly_add(timestamptz[], text[], bigint[]);
--bun:split
DROP TABLE IF EXISTS hourly_counts;
