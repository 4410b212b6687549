-- Posts created per UTC day and status, kept exact by triggers in the same
-- transaction as the posts: a deep page of the admin posts list filtered by
-- status, by creation time, finds the day its offset falls in from these
-- counts instead of walking the index up to the offset. An update writes
-- only the counts it moves (a changed status or creation time), so the
-- frequent updates of report counts take no counter's lock. (PostgreSQL
-- allows no column list on a trigger with transition tables, so the
-- update trigger runs for every update and finds nothing to write.)
CREATE TABLE post_status_days (
    status text   NOT NULL,
    day    date   NOT NULL,
    n      bigint NOT NULL,
    PRIMARY KEY (status, day)
);

--bun:split

INSERT INTO post_status_days (status, day, n)
SELECT status, (created_at AT TIME ZONE 'UTC')::date, count(*) FROM posts GROUP BY 1, 2;

--bun:split

-- Adds each (status, day)'s net change, from the transition tables the
-- trigger's operation has, in key order so that concurrent writers queue.
CREATE FUNCTION plaza_post_status_days() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO post_status_days (status, day, n)
        SELECT status, (created_at AT TIME ZONE 'UTC')::date, count(*) FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
        ON CONFLICT (status, day) DO UPDATE SET n = post_status_days.n + EXCLUDED.n;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO post_status_days (status, day, n)
        SELECT status, (created_at AT TIME ZONE 'UTC')::date, -count(*) FROM old_rows GROUP BY 1, 2 ORDER BY 1, 2
        ON CONFLICT (status, day) DO UPDATE SET n = post_status_days.n + EXCLUDED.n;
    ELSE
        INSERT INTO post_status_days (status, day, n)
        SELECT status, day, sum(n) FROM (
            SELECT status, (created_at AT TIME ZONE 'UTC')::date AS day, 1 AS n FROM new_rows
            UNION ALL
            SELECT status, (created_at AT TIME ZONE 'UTC')::date, -1 FROM old_rows
        ) AS moved GROUP BY 1, 2 HAVING sum(n) <> 0 ORDER BY 1, 2
        ON CONFLICT (status, day) DO UPDATE SET n = post_status_days.n + EXCLUDED.n;
    END IF;
    RETURN NULL;
END
$$;

--bun:split
CREATE TRIGGER posts_status_days_insert AFTER INSERT ON posts REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_post_status_days();
--bun:split
CREATE TRIGGER posts_status_days_delete AFTER DELETE ON posts REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_post_status_days();
--bun:split
CREATE TRIGGER posts_status_days_update AFTER UPDATE ON posts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_post_status_days();
