-- The dashboard shows every member of staff the number of open reports;
-- tens of thousands at a large community, too many to count per request.
-- Triggers keep it in row_counts, in the same transaction as the reports.
INSERT INTO row_counts (table_name, row_count)
SELECT 'reports_open', count(*) FROM post_reports WHERE status = 'open';

--bun:split

CREATE FUNCTION plaza_count_reports_open() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    delta bigint := 0;
BEGIN
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        delta := delta + (SELECT count(*) FROM new_rows WHERE status = 'open');
    END IF;
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
        delta := delta - (SELECT count(*) FROM old_rows WHERE status = 'open');
    END IF;
    IF delta <> 0 THEN
        UPDATE row_counts SET row_count = row_count + delta WHERE table_name = 'reports_open';
    END IF;
    RETURN NULL;
END
$$;

--bun:split
CREATE TRIGGER post_reports_open_insert AFTER INSERT ON post_reports REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_count_reports_open();
--bun:split
CREATE TRIGGER post_reports_open_delete AFTER DELETE ON post_reports REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_count_reports_open();
--bun:split
CREATE TRIGGER post_reports_open_update AFTER UPDATE ON post_reports REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_count_reports_open();
