-- Deep pages of the admin posts list by last update and by report count
-- start from counts, as those by creation time do: the posts per UTC hour
-- of their last update (post_updated_hours), and per report count and run
-- of 1,024 ids (post_report_runs, in the list's order: report count, then
-- id), kept exact by triggers in the same transaction as the posts. An
-- update writes only the counts it moves (a changed update time or report
-- count). PostgreSQL only; SQLite walks from the nearer end.
CREATE TABLE post_updated_hours (
    hour timestamptz PRIMARY KEY,
    n    bigint NOT NULL
);

--bun:split

CREATE TABLE post_report_runs (
    report_count integer NOT NULL,
    run          bigint  NOT NULL,
    n            bigint  NOT NULL,
    PRIMARY KEY (report_count, run)
);

--bun:split

INSERT INTO post_updated_hours (hour, n) SELECT date_trunc('hour', updated_at, 'UTC'), count(*) FROM posts GROUP BY 1;

--bun:split

INSERT INTO post_report_runs (report_count, run, n) SELECT report_count, id / 1024, count(*) FROM posts GROUP BY 1, 2;

--bun:split

-- Adds each hour's and each (report count, run)'s net change, from the
-- transition tables the trigger's operation has, in key order so that
-- concurrent writers queue.
CREATE FUNCTION plaza_post_order_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO post_updated_hours (hour, n)
        SELECT date_trunc('hour', updated_at, 'UTC'), count(*) FROM new_rows GROUP BY 1 ORDER BY 1
        ON CONFLICT (hour) DO UPDATE SET n = post_updated_hours.n + EXCLUDED.n;
        INSERT INTO post_report_runs (report_count, run, n)
        SELECT report_count, id / 1024, count(*) FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
        ON CONFLICT (report_count, run) DO UPDATE SET n = post_report_runs.n + EXCLUDED.n;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO post_updated_hours (hour, n)
        SELECT date_trunc('hour', updated_at, 'UTC'), -count(*) FROM old_rows GROUP BY 1 ORDER BY 1
        ON CONFLICT (hour) DO UPDATE SET n = post_updated_hours.n + EXCLUDED.n;
        INSERT INTO post_report_runs (report_count, run, n)
        SELECT report_count, id / 1024, -count(*) FROM old_rows GROUP BY 1, 2 ORDER BY 1, 2
        ON CONFLICT (report_count, run) DO UPDATE SET n = post_report_runs.n + EXCLUDED.n;
    ELSE
        INSERT INTO post_updated_hours (hour, n)
        SELECT hour, sum(n) FROM (
            SELECT date_trunc('hour', updated_at, 'UTC') AS hour, 1 AS n FROM new_rows
            UNION ALL
            SELECT date_trunc('hour', updated_at, 'UTC'), -1 FROM old_rows
        ) AS moved GROUP BY 1 HAVING sum(n) <> 0 ORDER BY 1
        ON CONFLICT (hour) DO UPDATE SET n = post_updated_hours.n + EXCLUDED.n;
        INSERT INTO post_report_runs (report_count, run, n)
        SELECT report_count, run, sum(n) FROM (
            SELECT report_count, id / 1024 AS run, 1 AS n FROM new_rows
            UNION ALL
            SELECT report_count, id / 1024, -1 FROM old_rows
        ) AS moved GROUP BY 1, 2 HAVING sum(n) <> 0 ORDER BY 1, 2
        ON CONFLICT (report_count, run) DO UPDATE SET n = post_report_runs.n + EXCLUDED.n;
    END IF;
    RETURN NULL;
END
$$;

--bun:split
CREATE TRIGGER posts_order_counts_insert AFTER INSERT ON posts REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_post_order_counts();
--bun:split
CREATE TRIGGER posts_order_counts_delete AFTER DELETE ON posts REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_post_order_counts();
--bun:split
CREATE TRIGGER posts_order_counts_update AFTER UPDATE ON posts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_post_order_counts();
