-- The moderation queue's total is the number of posts awaiting a decision
-- (open reports, or flagged), kept by triggers like the flagged posts'.
INSERT INTO row_counts (table_name, row_count)
SELECT 'posts_review', count(*) FROM posts WHERE open_reports > 0 OR status = 'flagged';
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
