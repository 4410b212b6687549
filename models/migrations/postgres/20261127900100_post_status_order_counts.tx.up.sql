-- Deep pages of one status's posts by last update, by report count and by
-- title start from counts too, as all posts' do: the same buckets (hours of
-- last update, report count and run of 1,024 ids, title marks), counted per
-- status, kept exact by triggers in the same transaction as the posts. An
-- update moves a post's count when its status or its bucket changes. The
-- title buckets are post_title_marks': a split there recounts the new
-- buckets here (Store.SplitTitleMarks). PostgreSQL only; SQLite walks from
-- the nearer end.
CREATE TABLE post_status_updated_hours (
    status text        NOT NULL,
    hour   timestamptz NOT NULL,
    n      bigint      NOT NULL,
    PRIMARY KEY (status, hour)
);

--bun:split

CREATE TABLE post_status_report_runs (
    status       text    NOT NULL,
    report_count integer NOT NULL,
    run          bigint  NOT NULL,
    n            bigint  NOT NULL,
    PRIMARY KEY (status, report_count, run)
);

--bun:split

CREATE TABLE post_status_title_marks (
    status text   NOT NULL,
    title  text   NOT NULL,
    id     bigint NOT NULL,
    n      bigint NOT NULL,
    PRIMARY KEY (status, title, id)
);

--bun:split

INSERT INTO post_status_updated_hours (status, hour, n)
SELECT status, date_trunc('hour', updated_at, 'UTC'), count(*) FROM posts GROUP BY 1, 2;

--bun:split

INSERT INTO post_status_report_runs (status, report_count, run, n)
SELECT status, report_count, id / 1024, count(*) FROM posts GROUP BY 1, 2, 3;

--bun:split

-- Each post counts in the bucket of the last mark at or before it, as the
-- triggers find it.
INSERT INTO post_status_title_marks (status, title, id, n)
SELECT p.status, m.title, m.id, count(*) FROM posts AS p
CROSS JOIN LATERAL (SELECT title, id FROM post_title_marks AS m WHERE (m.title, m.id) <= (p.title, p.id)
    ORDER BY m.title DESC, m.id DESC LIMIT 1) AS m
GROUP BY 1, 2, 3;

--bun:split

-- Adds each bucket's net change per status, from the transition tables
-- the trigger's operation has, in key order so that concurrent writers
-- queue. An update's old rows count -1 and its new rows +1; the buckets a
-- post stays in cancel out and are not written.
CREATE FUNCTION plaza_post_status_order_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        WITH moved AS (SELECT status, title, id, updated_at, report_count, 1 AS n FROM new_rows),
        hours AS (
            INSERT INTO post_status_updated_hours (status, hour, n)
            SELECT status, date_trunc('hour', updated_at, 'UTC'), sum(n) FROM moved
            GROUP BY 1, 2 HAVING sum(n) <> 0 ORDER BY 1, 2
            ON CONFLICT (status, hour) DO UPDATE SET n = post_status_updated_hours.n + EXCLUDED.n),
        runs AS (
            INSERT INTO post_status_report_runs (status, report_count, run, n)
            SELECT status, report_count, id / 1024, sum(n) FROM moved
            GROUP BY 1, 2, 3 HAVING sum(n) <> 0 ORDER BY 1, 2, 3
            ON CONFLICT (status, report_count, run) DO UPDATE SET n = post_status_report_runs.n + EXCLUDED.n)
        INSERT INTO post_status_title_marks (status, title, id, n)
        SELECT r.status, m.title, m.id, sum(r.n) FROM moved AS r
        CROSS JOIN LATERAL (SELECT title, id FROM post_title_marks AS m WHERE (m.title, m.id) <= (r.title, r.id)
            ORDER BY m.title DESC, m.id DESC LIMIT 1) AS m
        GROUP BY 1, 2, 3 HAVING sum(r.n) <> 0 ORDER BY 1, 2, 3
        ON CONFLICT (status, title, id) DO UPDATE SET n = post_status_title_marks.n + EXCLUDED.n;
    ELSIF TG_OP = 'DELETE' THEN
        WITH moved AS (SELECT status, title, id, updated_at, report_count, -1 AS n FROM old_rows),
        hours AS (
            INSERT INTO post_status_updated_hours (status, hour, n)
            SELECT status, date_trunc('hour', updated_at, 'UTC'), sum(n) FROM moved
            GROUP BY 1, 2 HAVING sum(n) <> 0 ORDER BY 1, 2
            ON CONFLICT (status, hour) DO UPDATE SET n = post_status_updated_hours.n + EXCLUDED.n),
        runs AS (
            INSERT INTO post_status_report_runs (status, report_count, run, n)
            SELECT status, report_count, id / 1024, sum(n) FROM moved
            GROUP BY 1, 2, 3 HAVING sum(n) <> 0 ORDER BY 1, 2, 3
            ON CONFLICT (status, report_count, run) DO UPDATE SET n = post_status_report_runs.n + EXCLUDED.n)
        INSERT INTO post_status_title_marks (status, title, id, n)
        SELECT r.status, m.title, m.id, sum(r.n) FROM moved AS r
        CROSS JOIN LATERAL (SELECT title, id FROM post_title_marks AS m WHERE (m.title, m.id) <= (r.title, r.id)
            ORDER BY m.title DESC, m.id DESC LIMIT 1) AS m
        GROUP BY 1, 2, 3 HAVING sum(r.n) <> 0 ORDER BY 1, 2, 3
        ON CONFLICT (status, title, id) DO UPDATE SET n = post_status_title_marks.n + EXCLUDED.n;
    ELSE
        WITH moved AS (SELECT status, title, id, updated_at, report_count, 1 AS n FROM new_rows
            UNION ALL SELECT status, title, id, updated_at, report_count, -1 AS n FROM old_rows),
        hours AS (
            INSERT INTO post_status_updated_hours (status, hour, n)
            SELECT status, date_trunc('hour', updated_at, 'UTC'), sum(n) FROM moved
            GROUP BY 1, 2 HAVING sum(n) <> 0 ORDER BY 1, 2
            ON CONFLICT (status, hour) DO UPDATE SET n = post_status_updated_hours.n + EXCLUDED.n),
        runs AS (
            INSERT INTO post_status_report_runs (status, report_count, run, n)
            SELECT status, report_count, id / 1024, sum(n) FROM moved
            GROUP BY 1, 2, 3 HAVING sum(n) <> 0 ORDER BY 1, 2, 3
            ON CONFLICT (status, report_count, run) DO UPDATE SET n = post_status_report_runs.n + EXCLUDED.n)
        INSERT INTO post_status_title_marks (status, title, id, n)
        SELECT r.status, m.title, m.id, sum(r.n) FROM moved AS r
        CROSS JOIN LATERAL (SELECT title, id FROM post_title_marks AS m WHERE (m.title, m.id) <= (r.title, r.id)
            ORDER BY m.title DESC, m.id DESC LIMIT 1) AS m
        GROUP BY 1, 2, 3 HAVING sum(r.n) <> 0 ORDER BY 1, 2, 3
        ON CONFLICT (status, title, id) DO UPDATE SET n = post_status_title_marks.n + EXCLUDED.n;
    END IF;
    RETURN NULL;
END
$$;

--bun:split
CREATE TRIGGER posts_status_order_counts_insert AFTER INSERT ON posts REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_post_status_order_counts();
--bun:split
CREATE TRIGGER posts_status_order_counts_delete AFTER DELETE ON posts REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_post_status_order_counts();
--bun:split
CREATE TRIGGER posts_status_order_counts_update AFTER UPDATE ON posts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_post_status_order_counts();
