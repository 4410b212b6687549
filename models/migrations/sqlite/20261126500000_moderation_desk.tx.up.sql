-- The moderation desk: reports carry a comment and the decision that
-- settled them; settled reports are kept in settled_reports, which
-- outlives the post (a deleted post's reports still count as resolved,
-- and a reporter's accuracy keeps them); reporter_stats tallies each
-- reporter's upheld and rejected reports; decisions may dismiss reports
-- and be undone; a decision names the post's author, whose standing
-- counts it after the post is gone.
ALTER TABLE post_reports ADD COLUMN comment TEXT NOT NULL DEFAULT '';
--bun:split
ALTER TABLE post_reports ADD COLUMN action_id INTEGER;
--bun:split
CREATE INDEX post_reports_action_id_idx ON post_reports (action_id) WHERE action_id IS NOT NULL;
--bun:split
-- No foreign keys: the record outlives the post, the report and the people.
CREATE TABLE settled_reports (
    report_id   INTEGER PRIMARY KEY,
    post_id     INTEGER NOT NULL,
    reporter_id INTEGER NOT NULL,
    action_id   INTEGER,
    upheld      INTEGER NOT NULL,
    resolved_by INTEGER,
    reported_at TIMESTAMP NOT NULL,
    resolved_at TIMESTAMP NOT NULL
);
--bun:split
CREATE INDEX settled_reports_resolved_at_idx ON settled_reports (resolved_at);
--bun:split
CREATE INDEX settled_reports_resolved_by_idx ON settled_reports (resolved_by, resolved_at);
--bun:split
CREATE TABLE reporter_stats (
    user_id  INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    upheld   INTEGER NOT NULL DEFAULT 0,
    rejected INTEGER NOT NULL DEFAULT 0
);
--bun:split
INSERT INTO settled_reports (report_id, post_id, reporter_id, action_id, upheld, resolved_by, reported_at, resolved_at)
SELECT id, post_id, reporter_id, NULL, status = 'resolved', resolved_by, created_at, COALESCE(resolved_at, created_at)
FROM post_reports WHERE status <> 'open';
--bun:split
INSERT INTO reporter_stats (user_id, upheld, rejected)
SELECT reporter_id, sum(upheld), sum(1 - upheld) FROM settled_reports
WHERE reporter_id IN (SELECT id FROM users) GROUP BY reporter_id;
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
-- A settled report's resolution moved (a correction): the record follows.
CREATE TRIGGER post_reports_settled_moved AFTER UPDATE OF resolved_at ON post_reports
WHEN OLD.status <> 'open' AND NEW.status <> 'open' AND NEW.resolved_at IS NOT NULL BEGIN
    UPDATE settled_reports SET resolved_at = NEW.resolved_at WHERE report_id = NEW.id;
END;
--bun:split
CREATE TRIGGER post_reports_reopened AFTER UPDATE OF status ON post_reports
WHEN OLD.status <> 'open' AND NEW.status = 'open' BEGIN
    DELETE FROM settled_reports WHERE report_id = OLD.id;
END;
--bun:split
CREATE TRIGGER settled_reports_tally AFTER INSERT ON settled_reports
WHEN EXISTS (SELECT 1 FROM users WHERE id = NEW.reporter_id) BEGIN
    INSERT INTO reporter_stats (user_id, upheld, rejected) VALUES (NEW.reporter_id, NEW.upheld, 1 - NEW.upheld)
    ON CONFLICT (user_id) DO UPDATE SET upheld = upheld + excluded.upheld, rejected = rejected + excluded.rejected;
END;
--bun:split
CREATE TRIGGER settled_reports_untally AFTER DELETE ON settled_reports BEGIN
    UPDATE reporter_stats SET upheld = upheld - OLD.upheld, rejected = rejected - (1 - OLD.upheld) WHERE user_id = OLD.reporter_id;
END;
--bun:split
-- A resolved report stays counted on the day it was resolved when its row
-- goes with its post: the day's figure is history, as settled_reports is.
DROP TRIGGER post_reports_daily_resolved_gone;
--bun:split
-- SQLite changes a CHECK only by rebuilding the table.
CREATE TABLE moderation_actions_next (
    id          INTEGER PRIMARY KEY,
    post_id     INTEGER NOT NULL,
    post_title  TEXT NOT NULL DEFAULT '',
    admin_id    INTEGER REFERENCES users (id) ON DELETE SET NULL,
    action      TEXT NOT NULL CHECK (action IN ('approve', 'hide', 'delete', 'flag', 'dismiss', 'undo')),
    reason      TEXT NOT NULL DEFAULT '',
    notes       TEXT NOT NULL DEFAULT '',
    from_status TEXT NOT NULL,
    to_status   TEXT NOT NULL,
    created_at  TIMESTAMP NOT NULL,
    undoes      INTEGER,
    reports_settled INTEGER NOT NULL DEFAULT 0,
    author_id   INTEGER
);
--bun:split
INSERT INTO moderation_actions_next (id, post_id, post_title, admin_id, action, reason, notes, from_status, to_status, created_at, author_id)
SELECT id, post_id, post_title, admin_id, action, reason, notes, from_status, to_status, created_at,
    (SELECT author_id FROM posts WHERE posts.id = moderation_actions.post_id) FROM moderation_actions;
--bun:split
DROP TABLE moderation_actions;
--bun:split
ALTER TABLE moderation_actions_next RENAME TO moderation_actions;
--bun:split
CREATE INDEX moderation_actions_created_at_idx ON moderation_actions (created_at);
--bun:split
CREATE INDEX moderation_actions_admin_id_idx ON moderation_actions (admin_id, created_at);
--bun:split
CREATE INDEX moderation_actions_post_id_idx ON moderation_actions (post_id);
--bun:split
CREATE INDEX moderation_actions_author_id_idx ON moderation_actions (author_id);
--bun:split
CREATE TRIGGER moderation_actions_daily_moderation_actions_insert AFTER INSERT ON moderation_actions WHEN NEW.created_at IS NOT NULL BEGIN
    INSERT INTO daily_counts (day, metric, n) VALUES (substr(NEW.created_at, 1, 10), 'moderation_actions', 1)
    ON CONFLICT (day, metric) DO UPDATE SET n = n + 1;
END;
--bun:split
CREATE TRIGGER moderation_actions_daily_moderation_actions_delete AFTER DELETE ON moderation_actions WHEN OLD.created_at IS NOT NULL BEGIN
    UPDATE daily_counts SET n = n - 1 WHERE day = substr(OLD.created_at, 1, 10) AND metric = 'moderation_actions';
END;
