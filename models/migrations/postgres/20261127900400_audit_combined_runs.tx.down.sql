CREATE TABLE audit_actor_runs (
    admin_id bigint NOT NULL,
    run      bigint NOT NULL,
    n        bigint NOT NULL,
    PRIMARY KEY (admin_id, run)
);

--bun:split

INSERT INTO audit_actor_runs (admin_id, run, n)
    SELECT admin_id, run, sum(n) FROM audit_combined_runs WHERE admin_id <> 0 GROUP BY 1, 2;

--bun:split

CREATE OR REPLACE FUNCTION plaza_count_audit_actor_target_runs() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO audit_actor_runs (admin_id, run, n)
            SELECT admin_id, id / 1024, count(*) FROM new_rows WHERE admin_id IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2
            ON CONFLICT (admin_id, run) DO UPDATE SET n = audit_actor_runs.n + EXCLUDED.n;
        INSERT INTO audit_target_runs (target_type, run, n)
            SELECT target_type, id / 1024, count(*) FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
            ON CONFLICT (target_type, run) DO UPDATE SET n = audit_target_runs.n + EXCLUDED.n;
    ELSE
        UPDATE audit_actor_runs AS r SET n = r.n - d.n
            FROM (SELECT admin_id, id / 1024 AS run, count(*) AS n FROM old_rows WHERE admin_id IS NOT NULL GROUP BY 1, 2) AS d
            WHERE r.admin_id = d.admin_id AND r.run = d.run;
        UPDATE audit_target_runs AS r SET n = r.n - d.n
            FROM (SELECT target_type, id / 1024 AS run, count(*) AS n FROM old_rows GROUP BY 1, 2) AS d
            WHERE r.target_type = d.target_type AND r.run = d.run;
    END IF;
    RETURN NULL;
END
$$;

--bun:split

DROP TABLE audit_combined_runs;
