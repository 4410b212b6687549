DROP TRIGGER post_reports_daily_resolved_moved ON post_reports;

--bun:split

DROP FUNCTION plaza_daily_resolved_moved();

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
