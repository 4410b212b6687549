-- Held posts go back to their authors as drafts.
UPDATE posts SET status = 'draft' WHERE status = 'pending';
--bun:split
ALTER TABLE users DROP COLUMN posts_submitted;
--bun:split
DROP TRIGGER posts_statuses_insert;
--bun:split
DROP TRIGGER posts_statuses_delete;
--bun:split
DROP TRIGGER posts_statuses_update;
--bun:split
CREATE TRIGGER posts_statuses_insert AFTER INSERT ON posts WHEN NEW.status IN ('draft', 'hidden') BEGIN
    UPDATE row_counts SET row_count = row_count + 1 WHERE table_name = 'posts_' || NEW.status;
END;
--bun:split
CREATE TRIGGER posts_statuses_delete AFTER DELETE ON posts WHEN OLD.status IN ('draft', 'hidden') BEGIN
    UPDATE row_counts SET row_count = row_count - 1 WHERE table_name = 'posts_' || OLD.status;
END;
--bun:split
CREATE TRIGGER posts_statuses_update AFTER UPDATE OF status ON posts
WHEN OLD.status IS NOT NEW.status AND (OLD.status IN ('draft', 'hidden') OR NEW.status IN ('draft', 'hidden')) BEGIN
    UPDATE row_counts SET row_count = row_count - 1 WHERE table_name = 'posts_' || OLD.status AND OLD.status IN ('draft', 'hidden');
    UPDATE row_counts SET row_count = row_count + 1 WHERE table_name = 'posts_' || NEW.status AND NEW.status IN ('draft', 'hidden');
END;
--bun:split
DELETE FROM row_counts WHERE table_name = 'posts_pending';
--bun:split
DROP TRIGGER posts_review_insert;
--bun:split
DROP TRIGGER posts_review_delete;
--bun:split
DROP TRIGGER posts_review_update;
--bun:split
CREATE TRIGGER posts_review_insert AFTER INSERT ON posts WHEN NEW.open_reports > 0 OR NEW.status = 'flagged' BEGIN
    UPDATE row_counts SET row_count = row_count + 1 WHERE table_name = 'posts_review';
END;
--bun:split
CREATE TRIGGER posts_review_delete AFTER DELETE ON posts WHEN OLD.open_reports > 0 OR OLD.status = 'flagged' BEGIN
    UPDATE row_counts SET row_count = row_count - 1 WHERE table_name = 'posts_review';
END;
--bun:split
CREATE TRIGGER posts_review_update AFTER UPDATE OF status, open_reports ON posts
WHEN (OLD.open_reports > 0 OR OLD.status = 'flagged') <> (NEW.open_reports > 0 OR NEW.status = 'flagged') BEGIN
    UPDATE row_counts SET row_count = row_count + (CASE WHEN NEW.open_reports > 0 OR NEW.status = 'flagged' THEN 1 ELSE -1 END)
    WHERE table_name = 'posts_review';
END;
--bun:split
UPDATE row_counts SET row_count = (SELECT count(*) FROM posts WHERE open_reports > 0 OR status = 'flagged') WHERE table_name = 'posts_review';
--bun:split
DROP INDEX posts_review_idx;
--bun:split
CREATE INDEX posts_review_idx ON posts (report_count, id) WHERE open_reports > 0 OR status = 'flagged';
--bun:split
PRAGMA writable_schema = ON;
--bun:split
UPDATE sqlite_master
SET sql = replace(sql, 'CHECK (status IN (''published'', ''draft'', ''hidden'', ''flagged'', ''pending''))',
                       'CHECK (status IN (''published'', ''draft'', ''hidden'', ''flagged''))')
WHERE type = 'table' AND name = 'posts';
--bun:split
PRAGMA writable_schema = RESET;
--bun:split
CREATE TABLE posts_pending_check (ok BOOLEAN NOT NULL CHECK (ok));
--bun:split
DROP TABLE posts_pending_check;
