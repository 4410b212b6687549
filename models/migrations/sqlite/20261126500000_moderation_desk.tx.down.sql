DELETE FROM moderation_actions WHERE action IN ('dismiss', 'undo');
--bun:split
CREATE TABLE moderation_actions_prev (
    id          INTEGER PRIMARY KEY,
    post_id     INTEGER NOT NULL,
    post_title  TEXT NOT NULL DEFAULT '',
    admin_id    INTEGER REFERENCES users (id) ON DELETE SET NULL,
    action      TEXT NOT NULL CHECK (action IN ('approve', 'hide', 'delete', 'flag')),
    reason      TEXT NOT NULL DEFAULT '',
    notes       TEXT NOT NULL DEFAULT '',
    from_status TEXT NOT NULL,
    to_status   TEXT NOT NULL,
    created_at  TIMESTAMP NOT NULL
);
--bun:split
INSERT INTO moderation_actions_prev SELECT id, post_id, post_title, admin_id, action, reason, notes, from_status, to_status, created_at FROM moderation_actions;
--bun:split
DROP TABLE moderation_actions;
--bun:split
ALTER TABLE moderation_actions_prev RENAME TO moderation_actions;
--bun:split
CREATE INDEX moderation_actions_created_at_idx ON moderation_actions (created_at);
--bun:split
CREATE INDEX moderation_actions_admin_id_idx ON moderation_actions (admin_id, created_at);
--bun:split
CREATE INDEX moderation_actions_post_id_idx ON moderation_actions (post_id);
--bun:split
CREATE TRIGGER moderation_actions_daily_moderation_actions_insert AFTER INSERT ON moderation_actions WHEN NEW.created_at IS NOT NULL BEGIN
    INSERT INTO daily_counts (day, metric, n) VALUES (substr(NEW.created_at, 1, 10), 'moderation_actions', 1)
    ON CONFLICT (day, metric) DO UPDATE SET n = n + 1;
END;
--bun:split
CREATE TRIGGER moderation_actions_daily_moderation_actions_delete AFTER DELETE ON moderation_actions WHEN OLD.created_at IS NOT NULL BEGIN
    UPDATE daily_counts SET n = n - 1 WHERE day = substr(OLD.created_at, 1, 10) AND metric = 'moderation_actions';
END;
--bun:split
CREATE TRIGGER post_reports_daily_resolved_gone AFTER DELETE ON post_reports WHEN OLD.resolved_at IS NOT NULL BEGIN
    UPDATE daily_counts SET n = n - 1 WHERE day = substr(OLD.resolved_at, 1, 10) AND metric = 'reports_resolved';
    UPDATE daily_counts SET n = n - CAST(round((julianday(OLD.resolved_at) - julianday(OLD.created_at)) * 86400) AS INTEGER)
    WHERE day = substr(OLD.resolved_at, 1, 10) AND metric = 'reports_wait_seconds';
END;
--bun:split
DROP TRIGGER settled_reports_untally;
--bun:split
DROP TRIGGER settled_reports_tally;
--bun:split
DROP TRIGGER post_reports_reopened;
--bun:split
DROP TRIGGER post_reports_settled_moved;
--bun:split
DROP TRIGGER post_reports_settled_insert;
--bun:split
DROP TRIGGER post_reports_settled;
--bun:split
DROP TABLE reporter_stats;
--bun:split
DROP TABLE settled_reports;
--bun:split
DROP INDEX post_reports_action_id_idx;
--bun:split
ALTER TABLE post_reports DROP COLUMN action_id;
--bun:split
ALTER TABLE post_reports DROP COLUMN comment;
