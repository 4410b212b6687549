-- The dashboard's open reports, kept counted by triggers (row_counts).
INSERT INTO row_counts (table_name, row_count)
SELECT 'reports_open', count(*) FROM post_reports WHERE status = 'open';
--bun:split
CREATE TRIGGER post_reports_open_insert AFTER INSERT ON post_reports WHEN NEW.status = 'open' BEGIN
    UPDATE row_counts SET row_count = row_count + 1 WHERE table_name = 'reports_open';
END;
--bun:split
CREATE TRIGGER post_reports_open_delete AFTER DELETE ON post_reports WHEN OLD.status = 'open' BEGIN
    UPDATE row_counts SET row_count = row_count - 1 WHERE table_name = 'reports_open';
END;
--bun:split
CREATE TRIGGER post_reports_open_update AFTER UPDATE OF status ON post_reports
WHEN (OLD.status = 'open') <> (NEW.status = 'open') BEGIN
    UPDATE row_counts SET row_count = row_count + (CASE WHEN NEW.status = 'open' THEN 1 ELSE -1 END)
    WHERE table_name = 'reports_open';
END;
