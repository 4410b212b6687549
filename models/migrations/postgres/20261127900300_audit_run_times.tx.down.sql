CREATE OR REPLACE FUNCTION plaza_count_audit_runs() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO audit_id_runs (run, n)
            SELECT id / 1024, count(*) FROM new_rows GROUP BY 1 ORDER BY 1
            ON CONFLICT (run) DO UPDATE SET n = audit_id_runs.n + EXCLUDED.n;
    ELSE
        UPDATE audit_id_runs AS r SET n = r.n - d.n
            FROM (SELECT id / 1024 AS run, count(*) AS n FROM old_rows GROUP BY 1) AS d
            WHERE r.run = d.run;
    END IF;
    RETURN NULL;
END
$$;

--bun:split

ALTER TABLE audit_id_runs DROP COLUMN first_at, DROP COLUMN last_at;
