-- Two more counts the analytics read on every request: the posts flagged
-- now (row_counts), and each UTC day's resolved reports with the seconds
-- they waited (daily_counts), kept by triggers like the others.
INSERT INTO row_counts (table_name, row_count) SELECT 'posts_flagged', count(*) FROM posts WHERE status = 'flagged';

--bun:split

CREATE FUNCTION plaza_count_flagged() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    delta bigint := 0;
BEGIN
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        delta := delta + (SELECT count(*) FROM new_rows WHERE status = 'flagged');
    END IF;
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
        delta := delta - (SELECT count(*) FROM old_rows WHERE status = 'flagged');
    END IF;
    -- Only a change takes the counter's row lock, so that the many updates
    -- of posts that leave their status alone never queue on it.
    IF delta <> 0 THEN
        UPDATE row_counts SET row_count = row_count + delta WHERE table_name = 'posts_flagged';
    END IF;
    RETURN NULL;
END
$$;

--bun:split
CREATE TRIGGER posts_flagged_insert AFTER INSERT ON posts REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_count_flagged();
--bun:split
CREATE TRIGGER posts_flagged_delete AFTER DELETE ON posts REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_count_flagged();
--bun:split
CREATE TRIGGER posts_flagged_update AFTER UPDATE ON posts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_count_flagged();

--bun:split

-- Resolved reports by the day they were resolved, and the seconds they
-- had waited, so that an average wait is two sums.
CREATE FUNCTION plaza_daily_resolved_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    sign int := CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END;
    days date[];
    metrics text[];
    deltas bigint[];
BEGIN
    IF TG_OP = 'INSERT' THEN
        SELECT array_agg(d), array_agg(m), array_agg(x) INTO days, metrics, deltas FROM (
            SELECT (resolved_at AT TIME ZONE 'UTC')::date AS d, 'reports_resolved' AS m, count(*) AS x FROM new_rows WHERE resolved_at IS NOT NULL GROUP BY 1
            UNION ALL SELECT (resolved_at AT TIME ZONE 'UTC')::date, 'reports_wait_seconds', sum(EXTRACT(EPOCH FROM resolved_at - created_at))::bigint
            FROM new_rows WHERE resolved_at IS NOT NULL GROUP BY 1) AS g;
    ELSE
        SELECT array_agg(d), array_agg(m), array_agg(-x) INTO days, metrics, deltas FROM (
            SELECT (resolved_at AT TIME ZONE 'UTC')::date AS d, 'reports_resolved' AS m, count(*) AS x FROM old_rows WHERE resolved_at IS NOT NULL GROUP BY 1
            UNION ALL SELECT (resolved_at AT TIME ZONE 'UTC')::date, 'reports_wait_seconds', sum(EXTRACT(EPOCH FROM resolved_at - created_at))::bigint
            FROM old_rows WHERE resolved_at IS NOT NULL GROUP BY 1) AS g;
    END IF;
    IF days IS NOT NULL THEN
        PERFORM plaza_daily_add(days, metrics, deltas);
    END IF;
    RETURN NULL;
END
$$;

--bun:split

CREATE FUNCTION plaza_daily_resolved_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM plaza_daily_add(
        ARRAY[(OLD.resolved_at AT TIME ZONE 'UTC')::date, (OLD.resolved_at AT TIME ZONE 'UTC')::date,
              (NEW.resolved_at AT TIME ZONE 'UTC')::date, (NEW.resolved_at AT TIME ZONE 'UTC')::date],
        ARRAY['reports_resolved', 'reports_wait_seconds', 'reports_resolved', 'reports_wait_seconds'],
        ARRAY[-1, -COALESCE(EXTRACT(EPOCH FROM OLD.resolved_at - OLD.created_at)::bigint, 0),
              1, COALESCE(EXTRACT(EPOCH FROM NEW.resolved_at - NEW.created_at)::bigint, 0)]);
    RETURN NULL;
END
$$;

--bun:split
CREATE TRIGGER post_reports_daily_resolved AFTER INSERT ON post_reports REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_daily_resolved_rows();
--bun:split
CREATE TRIGGER post_reports_daily_resolved_gone AFTER DELETE ON post_reports REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_daily_resolved_rows();
--bun:split
CREATE TRIGGER post_reports_daily_resolved_moved AFTER UPDATE OF resolved_at ON post_reports
    FOR EACH ROW WHEN (OLD.resolved_at IS DISTINCT FROM NEW.resolved_at)
    EXECUTE FUNCTION plaza_daily_resolved_moved();

--bun:split

INSERT INTO daily_counts (day, metric, n)
SELECT (resolved_at AT TIME ZONE 'UTC')::date, 'reports_resolved', count(*) FROM post_reports WHERE resolved_at IS NOT NULL GROUP BY 1
UNION ALL SELECT (resolved_at AT TIME ZONE 'UTC')::date, 'reports_wait_seconds', sum(EXTRACT(EPOCH FROM resolved_at - created_at))::bigint
FROM post_reports WHERE resolved_at IS NOT NULL GROUP BY 1;
