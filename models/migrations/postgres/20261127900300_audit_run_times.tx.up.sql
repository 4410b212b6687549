-- The audit log between two times pages and counts from the per-run counts
-- too: each run of 1,024 ids keeps the earliest and latest time of its
-- entries, so the runs wholly inside a window are counted from the counts
-- and only the few that straddle its edges from the rows. Entries are
-- stamped before they get their ids, so a run's times may overlap its
-- neighbours'; a deletion leaves the times as they were, a wider span than
-- the entries left, which only makes a run count as straddling.
ALTER TABLE audit_id_runs ADD COLUMN first_at timestamptz, ADD COLUMN last_at timestamptz;

--bun:split

UPDATE audit_id_runs AS r SET first_at = t.first_at, last_at = t.last_at
FROM (SELECT id / 1024 AS run, min(created_at) AS first_at, max(created_at) AS last_at FROM audit_log GROUP BY 1) AS t
WHERE r.run = t.run;

--bun:split

CREATE OR REPLACE FUNCTION plaza_count_audit_runs() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO audit_id_runs (run, n, first_at, last_at)
            SELECT id / 1024, count(*), min(created_at), max(created_at) FROM new_rows GROUP BY 1 ORDER BY 1
            ON CONFLICT (run) DO UPDATE SET n = audit_id_runs.n + EXCLUDED.n,
                first_at = least(audit_id_runs.first_at, EXCLUDED.first_at),
                last_at = greatest(audit_id_runs.last_at, EXCLUDED.last_at);
    ELSE
        UPDATE audit_id_runs AS r SET n = r.n - d.n
            FROM (SELECT id / 1024 AS run, count(*) AS n FROM old_rows GROUP BY 1) AS d
            WHERE r.run = d.run;
    END IF;
    RETURN NULL;
END
$$;
