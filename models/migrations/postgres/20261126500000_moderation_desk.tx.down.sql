DELETE FROM moderation_actions WHERE action IN ('dismiss', 'undo');
--bun:split
ALTER TABLE moderation_actions DROP COLUMN author_id;
--bun:split
ALTER TABLE moderation_actions DROP COLUMN reports_settled;
--bun:split
ALTER TABLE moderation_actions DROP COLUMN undoes;
--bun:split
ALTER TABLE moderation_actions DROP CONSTRAINT moderation_actions_action_check;
--bun:split
ALTER TABLE moderation_actions ADD CONSTRAINT moderation_actions_action_check CHECK (action IN ('approve', 'hide', 'delete', 'flag'));
--bun:split
CREATE TRIGGER post_reports_daily_resolved_gone AFTER DELETE ON post_reports REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_daily_resolved_rows();
--bun:split
DROP TRIGGER settled_reports_tally ON settled_reports;
--bun:split
DROP FUNCTION plaza_reporter_tally();
--bun:split
DROP TRIGGER post_reports_settled ON post_reports;
--bun:split
DROP FUNCTION plaza_report_settled();
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
