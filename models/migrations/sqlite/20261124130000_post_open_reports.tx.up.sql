-- Posts count their open reports, kept by triggers on post_reports in the
-- same transaction as every report's write, so that the moderation queue
-- (the posts with open reports) is a partial index in order rather than a
-- question to post_reports for every post.
ALTER TABLE posts ADD COLUMN open_reports INTEGER NOT NULL DEFAULT 0;
--bun:split
UPDATE posts SET open_reports = (SELECT count(*) FROM post_reports AS r WHERE r.post_id = posts.id AND r.status = 'open')
WHERE id IN (SELECT post_id FROM post_reports WHERE status = 'open');
--bun:split
CREATE INDEX posts_open_reports_idx ON posts (created_at, id) WHERE open_reports > 0;
--bun:split
CREATE TRIGGER post_reports_count_insert AFTER INSERT ON post_reports WHEN new.status = 'open' BEGIN
    UPDATE posts SET open_reports = open_reports + 1 WHERE id = new.post_id;
END;
--bun:split
CREATE TRIGGER post_reports_count_update AFTER UPDATE OF status ON post_reports WHEN (old.status = 'open') <> (new.status = 'open') BEGIN
    UPDATE posts SET open_reports = open_reports + (CASE WHEN new.status = 'open' THEN 1 ELSE -1 END) WHERE id = new.post_id;
END;
--bun:split
CREATE TRIGGER post_reports_count_delete AFTER DELETE ON post_reports WHEN old.status = 'open' BEGIN
    UPDATE posts SET open_reports = open_reports - 1 WHERE id = old.post_id;
END;
