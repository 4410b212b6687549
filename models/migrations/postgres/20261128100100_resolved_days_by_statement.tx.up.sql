-- Settling reports moved each report's day of resolution in daily_counts
-- by a row trigger: a decision that settles a post's n reports in one
-- UPDATE wrote the same day's two counters n times in one transaction,
-- and each write had to step over the versions the earlier ones left, so
-- the cost grew with n² (16,000 reports of one post took 5.1 s, 0.5 s
-- without it). A statement trigger now sums the change per day: each new
-- row adds its day's count and wait, each old row takes them back, and a
-- report whose resolution did not move cancels out. Transition tables
-- cannot go with a column list, so it runs on every update of reports;
-- one that moves no resolution writes nothing.
DROP TRIGGER post_reports_daily_resolved_moved ON post_reports;

--bun:split

DROP FUNCTION plaza_daily_resolved_moved();

--bun:split

CREATE FUNCTION plaza_daily_resolved_moved() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    days date[];
    metrics text[];
    deltas bigint[];
BEGIN
    SELECT array_agg(d), array_agg(m), array_agg(x) INTO days, metrics, deltas FROM (
        SELECT (r.resolved_at AT TIME ZONE 'UTC')::date AS d, v.m, sum(v.x) AS x FROM (
            SELECT resolved_at, created_at, 1 AS sign FROM new_rows WHERE resolved_at IS NOT NULL
            UNION ALL
            SELECT resolved_at, created_at, -1 FROM old_rows WHERE resolved_at IS NOT NULL
        ) AS r
        CROSS JOIN LATERAL (VALUES ('reports_resolved', r.sign::bigint),
            ('reports_wait_seconds', r.sign * EXTRACT(EPOCH FROM r.resolved_at - r.created_at)::bigint)) AS v(m, x)
        GROUP BY 1, 2 HAVING sum(v.x) <> 0) AS g;
    IF days IS NOT NULL THEN
        PERFORM plaza_daily_add(days, metrics, deltas);
    END IF;
    RETURN NULL;
END
$$;

--bun:split

CREATE TRIGGER post_reports_daily_resolved_moved AFTER UPDATE ON post_reports
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_daily_resolved_moved();
