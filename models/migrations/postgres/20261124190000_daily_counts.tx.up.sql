-- Analytics count what happened in a window: users and posts made, users
-- whose latest sign-in fell then, reports filed and resolved, moderation
-- actions. A month of a busy community is hundreds of thousands of rows
-- to count per request; triggers keep each UTC day's counts instead, in
-- the same transaction as the rows, so a window costs a few hundred
-- counter rows whatever its size.
CREATE TABLE daily_counts (
    day    date NOT NULL,
    metric text NOT NULL,
    n      bigint NOT NULL,
    PRIMARY KEY (day, metric)
);

--bun:split

-- Adds delta to each (day, metric) of the rows given; the rows are a
-- transition table's, grouped by the caller.
CREATE FUNCTION plaza_daily_add(days date[], metrics text[], deltas bigint[]) RETURNS void LANGUAGE sql AS $$
    INSERT INTO daily_counts (day, metric, n)
    SELECT d, m, sum(x) FROM unnest(days, metrics, deltas) AS u(d, m, x) WHERE d IS NOT NULL GROUP BY d, m
    ORDER BY d, m -- one lock order, so concurrent writers never deadlock
    ON CONFLICT (day, metric) DO UPDATE SET n = daily_counts.n + EXCLUDED.n;
$$;

--bun:split

CREATE FUNCTION plaza_daily_rows() RETURNS trigger LANGUAGE plpgsql AS $$
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

-- A row's time moved (a sign-in, a report resolved): its old day loses
-- one, its new day gains one.
CREATE FUNCTION plaza_daily_moved() RETURNS trigger LANGUAGE plpgsql AS $$
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

CREATE TRIGGER users_daily_created AFTER INSERT ON users REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_daily_rows('users_created', 'created_at');
--bun:split
CREATE TRIGGER users_daily_created_gone AFTER DELETE ON users REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_daily_rows('users_created', 'created_at');
--bun:split
CREATE TRIGGER users_daily_login AFTER INSERT ON users REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_daily_rows('users_last_login', 'last_login_at');
--bun:split
CREATE TRIGGER users_daily_login_gone AFTER DELETE ON users REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_daily_rows('users_last_login', 'last_login_at');
--bun:split
CREATE TRIGGER users_daily_login_moved AFTER UPDATE OF last_login_at ON users
    FOR EACH ROW WHEN (OLD.last_login_at IS DISTINCT FROM NEW.last_login_at)
    EXECUTE FUNCTION plaza_daily_moved('users_last_login', 'last_login_at');
--bun:split
CREATE TRIGGER posts_daily_created AFTER INSERT ON posts REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_daily_rows('posts_created', 'created_at');
--bun:split
CREATE TRIGGER posts_daily_created_gone AFTER DELETE ON posts REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_daily_rows('posts_created', 'created_at');
--bun:split
CREATE TRIGGER post_reports_daily_created AFTER INSERT ON post_reports REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_daily_rows('reports_created', 'created_at');
--bun:split
CREATE TRIGGER post_reports_daily_created_gone AFTER DELETE ON post_reports REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_daily_rows('reports_created', 'created_at');
--bun:split
CREATE TRIGGER moderation_actions_daily AFTER INSERT ON moderation_actions REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_daily_rows('moderation_actions', 'created_at');
--bun:split
CREATE TRIGGER moderation_actions_daily_gone AFTER DELETE ON moderation_actions REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_daily_rows('moderation_actions', 'created_at');

--bun:split

INSERT INTO daily_counts (day, metric, n)
SELECT (created_at AT TIME ZONE 'UTC')::date, 'users_created', count(*) FROM users GROUP BY 1
UNION ALL SELECT (last_login_at AT TIME ZONE 'UTC')::date, 'users_last_login', count(*) FROM users WHERE last_login_at IS NOT NULL GROUP BY 1
UNION ALL SELECT (created_at AT TIME ZONE 'UTC')::date, 'posts_created', count(*) FROM posts GROUP BY 1
UNION ALL SELECT (created_at AT TIME ZONE 'UTC')::date, 'reports_created', count(*) FROM post_reports GROUP BY 1
UNION ALL SELECT (created_at AT TIME ZONE 'UTC')::date, 'moderation_actions', count(*) FROM moderation_actions GROUP BY 1;
