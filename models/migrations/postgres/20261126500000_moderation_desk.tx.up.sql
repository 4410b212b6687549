-- The moderation desk: reports carry a comment and the decision that
-- settled them; settled reports are kept in settled_reports, which
-- outlives the post (a deleted post's reports still count as resolved,
-- and a reporter's accuracy keeps them); reporter_stats tallies each
-- reporter's upheld and rejected reports; decisions may dismiss reports
-- and be undone; a decision names the post's author, whose standing
-- counts it after the post is gone.
ALTER TABLE post_reports ADD COLUMN comment text NOT NULL DEFAULT '';
--bun:split
ALTER TABLE post_reports ADD COLUMN action_id bigint;
--bun:split
CREATE INDEX post_reports_action_id_idx ON post_reports (action_id) WHERE action_id IS NOT NULL;
--bun:split
-- No foreign keys: the record outlives the post, the report and the people.
CREATE TABLE settled_reports (
    report_id   bigint PRIMARY KEY,
    post_id     bigint NOT NULL,
    reporter_id bigint NOT NULL,
    action_id   bigint,
    upheld      boolean NOT NULL,
    resolved_by bigint,
    reported_at timestamptz NOT NULL,
    resolved_at timestamptz NOT NULL
);
--bun:split
CREATE INDEX settled_reports_resolved_at_idx ON settled_reports (resolved_at);
--bun:split
CREATE INDEX settled_reports_resolved_by_idx ON settled_reports (resolved_by, resolved_at);
--bun:split
CREATE TABLE reporter_stats (
    user_id  bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    upheld   integer NOT NULL DEFAULT 0,
    rejected integer NOT NULL DEFAULT 0
);
--bun:split
INSERT INTO settled_reports (report_id, post_id, reporter_id, action_id, upheld, resolved_by, reported_at, resolved_at)
SELECT id, post_id, reporter_id, NULL, status = 'resolved', resolved_by, created_at, COALESCE(resolved_at, created_at)
FROM post_reports WHERE status <> 'open';
--bun:split
INSERT INTO reporter_stats (user_id, upheld, rejected)
SELECT reporter_id, count(*) FILTER (WHERE upheld), count(*) FILTER (WHERE NOT upheld) FROM settled_reports
WHERE reporter_id IN (SELECT id FROM users) GROUP BY reporter_id;
--bun:split
CREATE FUNCTION plaza_report_settled() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND OLD.status <> 'open' AND NEW.status = 'open' THEN
        DELETE FROM settled_reports WHERE report_id = OLD.id;
    ELSIF NEW.status <> 'open' AND (TG_OP = 'INSERT' OR OLD.status = 'open') THEN
        INSERT INTO settled_reports (report_id, post_id, reporter_id, action_id, upheld, resolved_by, reported_at, resolved_at)
        VALUES (NEW.id, NEW.post_id, NEW.reporter_id, NEW.action_id, NEW.status = 'resolved', NEW.resolved_by, NEW.created_at,
            COALESCE(NEW.resolved_at, NEW.created_at));
    ELSIF NEW.status <> 'open' AND NEW.resolved_at IS NOT NULL AND NEW.resolved_at IS DISTINCT FROM OLD.resolved_at THEN
        -- A settled report's resolution moved (a correction): the record follows.
        UPDATE settled_reports SET resolved_at = NEW.resolved_at WHERE report_id = NEW.id;
    END IF;
    RETURN NULL;
END
$$;
--bun:split
CREATE TRIGGER post_reports_settled AFTER INSERT OR UPDATE OF status, resolved_at ON post_reports
    FOR EACH ROW EXECUTE FUNCTION plaza_report_settled();
--bun:split
CREATE FUNCTION plaza_reporter_tally() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO reporter_stats (user_id, upheld, rejected)
        SELECT NEW.reporter_id, NEW.upheld::int, (NOT NEW.upheld)::int WHERE EXISTS (SELECT 1 FROM users WHERE id = NEW.reporter_id)
        ON CONFLICT (user_id) DO UPDATE SET upheld = reporter_stats.upheld + excluded.upheld,
            rejected = reporter_stats.rejected + excluded.rejected;
    ELSE
        UPDATE reporter_stats SET upheld = upheld - OLD.upheld::int, rejected = rejected - (NOT OLD.upheld)::int
        WHERE user_id = OLD.reporter_id;
    END IF;
    RETURN NULL;
END
$$;
--bun:split
CREATE TRIGGER settled_reports_tally AFTER INSERT OR DELETE ON settled_reports
    FOR EACH ROW EXECUTE FUNCTION plaza_reporter_tally();
--bun:split
-- A resolved report stays counted on the day it was resolved when its row
-- goes with its post: the day's figure is history, as settled_reports is.
DROP TRIGGER post_reports_daily_resolved_gone ON post_reports;
--bun:split
ALTER TABLE moderation_actions DROP CONSTRAINT moderation_actions_action_check;
--bun:split
ALTER TABLE moderation_actions ADD CONSTRAINT moderation_actions_action_check
    CHECK (action IN ('approve', 'hide', 'delete', 'flag', 'dismiss', 'undo'));
--bun:split
ALTER TABLE moderation_actions ADD COLUMN undoes bigint;
--bun:split
ALTER TABLE moderation_actions ADD COLUMN reports_settled integer NOT NULL DEFAULT 0;
--bun:split
ALTER TABLE moderation_actions ADD COLUMN author_id bigint;
--bun:split
UPDATE moderation_actions AS ma SET author_id = p.author_id FROM posts AS p WHERE p.id = ma.post_id;
--bun:split
CREATE INDEX moderation_actions_author_id_idx ON moderation_actions (author_id);
