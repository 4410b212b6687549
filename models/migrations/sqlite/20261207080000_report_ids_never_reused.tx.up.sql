-- Report ids are never handed out twice. Without AUTOINCREMENT SQLite gives
-- a new row the largest id in the table plus one, so the ids of the newest
-- reports came back once their post was deleted; settled_reports keeps
-- every settled report's id after its post is gone, and settling a report
-- that had reused one broke its key (a moderator's decision answered 409).
-- The table is rebuilt with AUTOINCREMENT, and its sequence starts past
-- every id either table has seen. Its indexes and triggers come back as
-- they were.
CREATE TABLE post_reports_next (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    post_id     INTEGER NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
    reporter_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    reason      TEXT NOT NULL,
    status      TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved', 'dismissed')),
    created_at  TIMESTAMP NOT NULL,
    resolved_at TIMESTAMP,
    resolved_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
    comment     TEXT NOT NULL DEFAULT '',
    action_id   INTEGER
);
--bun:split
INSERT INTO post_reports_next (id, post_id, reporter_id, reason, status, created_at, resolved_at, resolved_by, comment, action_id)
SELECT id, post_id, reporter_id, reason, status, created_at, resolved_at, resolved_by, comment, action_id FROM post_reports;
--bun:split
DROP TABLE post_reports;
--bun:split
ALTER TABLE post_reports_next RENAME TO post_reports;
--bun:split
DELETE FROM sqlite_sequence WHERE name = 'post_reports';
--bun:split
INSERT INTO sqlite_sequence (name, seq)
VALUES ('post_reports', max(coalesce((SELECT max(id) FROM post_reports), 0), coalesce((SELECT max(report_id) FROM settled_reports), 0)));
--bun:split
CREATE INDEX post_reports_action_id_idx ON post_reports (action_id) WHERE action_id IS NOT NULL;
--bun:split
CREATE INDEX post_reports_created_at_idx ON post_reports (created_at);
--bun:split
CREATE UNIQUE INDEX post_reports_one_open_key ON post_reports (post_id, reporter_id) WHERE status = 'open';
--bun:split
CREATE INDEX post_reports_open_created_idx ON post_reports (created_at) WHERE status = 'open';
--bun:split
CREATE INDEX post_reports_post_id_idx ON post_reports (post_id, created_at);
--bun:split
CREATE INDEX post_reports_resolved_at_idx ON post_reports (resolved_at) WHERE resolved_at IS NOT NULL;
--bun:split
CREATE TRIGGER post_reports_count_delete AFTER DELETE ON post_reports WHEN old.status = 'open' BEGIN
    UPDATE posts SET open_reports = open_reports - 1 WHERE id = old.post_id;
END;
--bun:split
CREATE TRIGGER post_reports_count_insert AFTER INSERT ON post_reports WHEN new.status = 'open' BEGIN
    UPDATE posts SET open_reports = open_reports + 1 WHERE id = new.post_id;
END;
--bun:split
CREATE TRIGGER post_reports_count_update AFTER UPDATE OF status ON post_reports WHEN (old.status = 'open') <> (new.status = 'open') BEGIN
    UPDATE posts SET open_reports = open_reports + (CASE WHEN new.status = 'open' THEN 1 ELSE -1 END) WHERE id = new.post_id;
END;
--bun:split
CREATE TRIGGER post_reports_daily_reports_created_delete AFTER DELETE ON post_reports WHEN OLD.created_at IS NOT NULL BEGIN
    UPDATE daily_counts SET n = n - 1 WHERE day = substr(OLD.created_at, 1, 10) AND metric = 'reports_created';
END;
--bun:split
CREATE TRIGGER post_reports_daily_reports_created_insert AFTER INSERT ON post_reports WHEN NEW.created_at IS NOT NULL BEGIN
    INSERT INTO daily_counts (day, metric, n) VALUES (substr(NEW.created_at, 1, 10), 'reports_created', 1)
    ON CONFLICT (day, metric) DO UPDATE SET n = n + 1;
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
CREATE TRIGGER post_reports_hourly_reports_created_delete AFTER DELETE ON post_reports WHEN OLD.created_at IS NOT NULL BEGIN
    UPDATE hourly_counts SET n = n - 1 WHERE hour = substr(OLD.created_at, 1, 13) AND metric = 'reports_created';
END;
--bun:split
CREATE TRIGGER post_reports_hourly_reports_created_insert AFTER INSERT ON post_reports WHEN NEW.created_at IS NOT NULL BEGIN
    INSERT INTO hourly_counts (hour, metric, n) VALUES (substr(NEW.created_at, 1, 13), 'reports_created', 1)
    ON CONFLICT (hour, metric) DO UPDATE SET n = n + 1;
END;
--bun:split
CREATE TRIGGER post_reports_open_delete AFTER DELETE ON post_reports WHEN OLD.status = 'open' BEGIN
    UPDATE row_counts SET row_count = row_count - 1 WHERE table_name = 'reports_open';
END;
--bun:split
CREATE TRIGGER post_reports_open_insert AFTER INSERT ON post_reports WHEN NEW.status = 'open' BEGIN
    UPDATE row_counts SET row_count = row_count + 1 WHERE table_name = 'reports_open';
END;
--bun:split
CREATE TRIGGER post_reports_open_update AFTER UPDATE OF status ON post_reports
WHEN (OLD.status = 'open') <> (NEW.status = 'open') BEGIN
    UPDATE row_counts SET row_count = row_count + (CASE WHEN NEW.status = 'open' THEN 1 ELSE -1 END)
    WHERE table_name = 'reports_open';
END;
--bun:split
CREATE TRIGGER post_reports_reopened AFTER UPDATE OF status ON post_reports
WHEN OLD.status <> 'open' AND NEW.status = 'open' BEGIN
    DELETE FROM settled_reports WHERE report_id = OLD.id;
END;
--bun:split
CREATE TRIGGER post_reports_settled AFTER UPDATE OF status ON post_reports
WHEN OLD.status = 'open' AND NEW.status <> 'open' BEGIN
    INSERT INTO settled_reports (report_id, post_id, reporter_id, action_id, upheld, resolved_by, reported_at, resolved_at)
    VALUES (NEW.id, NEW.post_id, NEW.reporter_id, NEW.action_id, NEW.status = 'resolved', NEW.resolved_by, NEW.created_at,
        COALESCE(NEW.resolved_at, NEW.created_at));
END;
--bun:split
CREATE TRIGGER post_reports_settled_insert AFTER INSERT ON post_reports WHEN NEW.status <> 'open' BEGIN
    INSERT INTO settled_reports (report_id, post_id, reporter_id, action_id, upheld, resolved_by, reported_at, resolved_at)
    VALUES (NEW.id, NEW.post_id, NEW.reporter_id, NEW.action_id, NEW.status = 'resolved', NEW.resolved_by, NEW.created_at,
        COALESCE(NEW.resolved_at, NEW.created_at));
END;
--bun:split
CREATE TRIGGER post_reports_settled_moved AFTER UPDATE OF resolved_at ON post_reports
WHEN OLD.status <> 'open' AND NEW.status <> 'open' AND NEW.resolved_at IS NOT NULL BEGIN
    UPDATE settled_reports SET resolved_at = NEW.resolved_at WHERE report_id = NEW.id;
END;
