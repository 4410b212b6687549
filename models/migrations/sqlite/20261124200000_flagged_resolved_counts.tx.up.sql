-- The posts flagged now (row_counts), and each UTC day's resolved reports
-- with the seconds they waited (daily_counts), kept by triggers.
INSERT INTO row_counts (table_name, row_count) SELECT 'posts_flagged', count(*) FROM posts WHERE status = 'flagged';
--bun:split
CREATE TRIGGER posts_flagged_insert AFTER INSERT ON posts WHEN NEW.status = 'flagged' BEGIN
    UPDATE row_counts SET row_count = row_count + 1 WHERE table_name = 'posts_flagged';
END;
--bun:split
CREATE TRIGGER posts_flagged_delete AFTER DELETE ON posts WHEN OLD.status = 'flagged' BEGIN
    UPDATE row_counts SET row_count = row_count - 1 WHERE table_name = 'posts_flagged';
END;
--bun:split
CREATE TRIGGER posts_flagged_update AFTER UPDATE OF status ON posts
WHEN (OLD.status = 'flagged') <> (NEW.status = 'flagged') BEGIN
    UPDATE row_counts SET row_count = row_count + (CASE WHEN NEW.status = 'flagged' THEN 1 ELSE -1 END)
    WHERE table_name = 'posts_flagged';
END;
--bun:split
CREATE TRIGGER post_reports_daily_resolved AFTER INSERT ON post_reports WHEN NEW.resolved_at IS NOT NULL BEGIN
    INSERT INTO daily_counts (day, metric, n) VALUES (substr(NEW.resolved_at, 1, 10), 'reports_resolved', 1)
    ON CONFLICT (day, metric) DO UPDATE SET n = n + 1;
    INSERT INTO daily_counts (day, metric, n) VALUES (substr(NEW.resolved_at, 1, 10), 'reports_wait_seconds',
        CAST(round((julianday(NEW.resolved_at) - julianday(NEW.created_at)) * 86400) AS INTEGER))
    ON CONFLICT (day, metric) DO UPDATE SET n = n + excluded.n;
END;
--bun:split
CREATE TRIGGER post_reports_daily_resolved_gone AFTER DELETE ON post_reports WHEN OLD.resolved_at IS NOT NULL BEGIN
    UPDATE daily_counts SET n = n - 1 WHERE day = substr(OLD.resolved_at, 1, 10) AND metric = 'reports_resolved';
    UPDATE daily_counts SET n = n - CAST(round((julianday(OLD.resolved_at) - julianday(OLD.created_at)) * 86400) AS INTEGER)
    WHERE day = substr(OLD.resolved_at, 1, 10) AND metric = 'reports_wait_seconds';
END;
--bun:split
CREATE TRIGGER post_reports_daily_resolved_moved AFTER UPDATE OF resolved_at ON post_reports
WHEN OLD.resolved_at IS NOT NEW.resolved_at BEGIN
    UPDATE daily_counts SET n = n - 1 WHERE day = substr(OLD.resolved_at, 1, 10) AND metric = 'reports_resolved';
    UPDATE daily_counts SET n = n - CAST(round((julianday(OLD.resolved_at) - julianday(OLD.created_at)) * 86400) AS INTEGER)
    WHERE day = substr(OLD.resolved_at, 1, 10) AND metric = 'reports_wait_seconds';
    INSERT INTO daily_counts (day, metric, n) SELECT substr(NEW.resolved_at, 1, 10), 'reports_resolved', 1
    WHERE NEW.resolved_at IS NOT NULL
    ON CONFLICT (day, metric) DO UPDATE SET n = n + 1;
    INSERT INTO daily_counts (day, metric, n) SELECT substr(NEW.resolved_at, 1, 10), 'reports_wait_seconds',
        CAST(round((julianday(NEW.resolved_at) - julianday(NEW.created_at)) * 86400) AS INTEGER)
    WHERE NEW.resolved_at IS NOT NULL
    ON CONFLICT (day, metric) DO UPDATE SET n = n + excluded.n;
END;
--bun:split
INSERT INTO daily_counts (day, metric, n)
SELECT substr(resolved_at, 1, 10), 'reports_resolved', count(*) FROM post_reports WHERE resolved_at IS NOT NULL GROUP BY 1
UNION ALL SELECT substr(resolved_at, 1, 10), 'reports_wait_seconds',
    sum(CAST(round((julianday(resolved_at) - julianday(created_at)) * 86400) AS INTEGER))
FROM post_reports WHERE resolved_at IS NOT NULL GROUP BY 1;
