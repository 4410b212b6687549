-- The audit log filtered by any two or three of admin, action and target
-- type pages and counts from counts too: the entries of each run of 1,024
-- ids are counted per admin (0 for the system's entries, which have none),
-- action and target type (audit_combined_runs, replacing the per-admin
-- audit_actor_runs). A filter sums the rows of its values; the
-- single-filter counts of actions and target types stay, as they are read
-- more often and sum fewer rows.
CREATE TABLE audit_combined_runs (
    admin_id    bigint NOT NULL,
    action      text   NOT NULL,
    target_type text   NOT NULL,
    run         bigint NOT NULL,
    n           bigint NOT NULL,
    PRIMARY KEY (admin_id, action, target_type, run)
);

--bun:split

CREATE INDEX audit_combined_runs_action_idx ON audit_combined_runs (action, target_type, run);

--bun:split

INSERT INTO audit_combined_runs (admin_id, action, target_type, run, n)
    SELECT coalesce(admin_id, 0), action, target_type, id / 1024, count(*) FROM audit_log GROUP BY 1, 2, 3, 4;

--bun:split

CREATE OR REPLACE FUNCTION plaza_count_audit_actor_target_runs() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO audit_combined_runs (admin_id, action, target_type, run, n)
            SELECT coalesce(admin_id, 0), action, target_type, id / 1024, count(*) FROM new_rows
            GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
            ON CONFLICT (admin_id, action, target_type, run) DO UPDATE SET n = audit_combined_runs.n + EXCLUDED.n;
        INSERT INTO audit_target_runs (target_type, run, n)
            SELECT target_type, id / 1024, count(*) FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
            ON CONFLICT (target_type, run) DO UPDATE SET n = audit_target_runs.n + EXCLUDED.n;
    ELSE
        UPDATE audit_combined_runs AS r SET n = r.n - d.n
            FROM (SELECT coalesce(admin_id, 0) AS admin_id, action, target_type, id / 1024 AS run, count(*) AS n
                  FROM old_rows GROUP BY 1, 2, 3, 4) AS d
            WHERE r.admin_id = d.admin_id AND r.action = d.action AND r.target_type = d.target_type AND r.run = d.run;
        UPDATE audit_target_runs AS r SET n = r.n - d.n
            FROM (SELECT target_type, id / 1024 AS run, count(*) AS n FROM old_rows GROUP BY 1, 2) AS d
            WHERE r.target_type = d.target_type AND r.run = d.run;
    END IF;
    RETURN NULL;
END
$$;

--bun:split

DROP TABLE audit_actor_runs;
