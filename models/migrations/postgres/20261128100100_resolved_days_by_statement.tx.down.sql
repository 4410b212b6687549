DROP TRIGGER post_reports_daily_resolved_moved ON post_reports;

--bun:split

CREATE OR REPLACE FUNCTION plaza_daily_resolved_rows() RETURNS trigger LANGUAGE plpgsql AS $$
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

CREATE TRIGGER post_reports_daily_resolved_moved AFTER UPDATE OF resolved_at ON post_reports
    FOR EACH ROW WHEN (OLD.resolved_at IS DISTINCT FROM NEW.resolved_at)
    EXECUTE FUNCTION plaza_daily_resolved_moved();
