-- The audit log filtered by one action (the console's and the API's most
-- used filter) pages and counts like the whole log: the entries of each
-- action in each run of 1,024 ids, kept by triggers in the same
-- transaction as the entries.
CREATE TABLE audit_action_runs (
    action text   NOT NULL,
    run    bigint NOT NULL,
    n      bigint NOT NULL,
    PRIMARY KEY (action, run)
);

--bun:split

INSERT INTO audit_action_runs (action, run, n) SELECT action, id / 1024, count(*) FROM audit_log GROUP BY 1, 2;

--bun:split

CREATE FUNCTION plaza_count_audit_action_runs() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO audit_action_runs (action, run, n)
            SELECT action, id / 1024, count(*) FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
            ON CONFLICT (action, run) DO UPDATE SET n = audit_action_runs.n + EXCLUDED.n;
    ELSE
        UPDATE audit_action_runs AS r SET n = r.n - d.n
            FROM (SELECT action, id / 1024 AS run, count(*) AS n FROM old_rows GROUP BY 1, 2) AS d
            WHERE r.action = d.action AND r.run = d.run;
    END IF;
    RETURN NULL;
END
$$;

--bun:split

CREATE TRIGGER audit_log_action_runs_insert AFTER INSERT ON audit_log
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION plaza_count_audit_action_runs();

--bun:split

CREATE TRIGGER audit_log_action_runs_delete AFTER DELETE ON audit_log
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION plaza_count_audit_action_runs();
