-- A page deep in the audit log (newest first, by id) would walk up to
-- every entry's index entry to reach its offset: two seconds at a million
-- entries. The number of entries in each run of 1,024 ids, kept by
-- triggers in the same transaction as the entries, tells which run holds
-- any offset, and their sum is the log's length; the page then walks fewer
-- than 1,024 entries. (Statement-level, so a batch of entries updates its
-- run once; runs are taken in order, so concurrent writers queue, not
-- deadlock.)
CREATE TABLE audit_id_runs (
    run bigint PRIMARY KEY,
    n   bigint NOT NULL
);

--bun:split

INSERT INTO audit_id_runs (run, n) SELECT id / 1024, count(*) FROM audit_log GROUP BY 1;

--bun:split

CREATE FUNCTION plaza_count_audit_runs() RETURNS trigger LANGUAGE plpgsql AS $$
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

CREATE TRIGGER audit_log_runs_insert AFTER INSERT ON audit_log
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION plaza_count_audit_runs();

--bun:split

CREATE TRIGGER audit_log_runs_delete AFTER DELETE ON audit_log
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION plaza_count_audit_runs();
