-- New accounts' posts held for approval (docs/api.md, "New accounts'
-- posts"): a post the hold rule keeps back is 'pending', out of view like
-- a draft and waiting in the moderation queue like a flagged post, until a
-- moderator approves (publishes) or rejects it. The CHECK only widens, so
-- every stored row still meets it and the definition is edited in place,
-- as the step that made post ids unique (20261207090000) does.
PRAGMA writable_schema = ON;

--bun:split

UPDATE sqlite_master
SET sql = replace(sql, 'CHECK (status IN (''published'', ''draft'', ''hidden'', ''flagged''))',
                       'CHECK (status IN (''published'', ''draft'', ''hidden'', ''flagged'', ''pending''))')
WHERE type = 'table' AND name = 'posts';

--bun:split

PRAGMA writable_schema = RESET;

--bun:split

-- A table made and dropped moves the schema's version, so that every other
-- connection reads the new definition; the CHECK fails the step if the
-- edit did not take.
CREATE TABLE posts_pending_check (ok BOOLEAN NOT NULL CHECK (ok));

--bun:split

INSERT INTO posts_pending_check (ok)
SELECT count(*) = 1 FROM sqlite_master WHERE type = 'table' AND name = 'posts' AND sql LIKE '%''flagged'', ''pending''))%';

--bun:split

DROP TABLE posts_pending_check;

--bun:split

-- The queue holds the pending posts too: its index and the counter of
-- posts awaiting a decision take the same condition, word for word
-- filterPosts' NeedsReview.
DROP INDEX posts_review_idx;
--bun:split
CREATE INDEX posts_review_idx ON posts (report_count, id) WHERE open_reports > 0 OR status IN ('flagged', 'pending');
--bun:split
DROP TRIGGER posts_review_insert;
--bun:split
DROP TRIGGER posts_review_delete;
--bun:split
DROP TRIGGER posts_review_update;
--bun:split
CREATE TRIGGER posts_review_insert AFTER INSERT ON posts WHEN NEW.open_reports > 0 OR NEW.status IN ('flagged', 'pending') BEGIN
    UPDATE row_counts SET row_count = row_count + 1 WHERE table_name = 'posts_review';
END;
--bun:split
CREATE TRIGGER posts_review_delete AFTER DELETE ON posts WHEN OLD.open_reports > 0 OR OLD.status IN ('flagged', 'pending') BEGIN
    UPDATE row_counts SET row_count = row_count - 1 WHERE table_name = 'posts_review';
END;
--bun:split
CREATE TRIGGER posts_review_update AFTER UPDATE OF status, open_reports ON posts
WHEN (OLD.open_reports > 0 OR OLD.status IN ('flagged', 'pending')) <> (NEW.open_reports > 0 OR NEW.status IN ('flagged', 'pending')) BEGIN
    UPDATE row_counts SET row_count = row_count + (CASE WHEN NEW.open_reports > 0 OR NEW.status IN ('flagged', 'pending') THEN 1 ELSE -1 END)
    WHERE table_name = 'posts_review';
END;

--bun:split

-- The pending posts are counted like the drafts and the hidden, so that
-- the published ones (all the others) are counted right.
INSERT INTO row_counts (table_name, row_count) SELECT 'posts_pending', 0;
--bun:split
DROP TRIGGER posts_statuses_insert;
--bun:split
DROP TRIGGER posts_statuses_delete;
--bun:split
DROP TRIGGER posts_statuses_update;
--bun:split
CREATE TRIGGER posts_statuses_insert AFTER INSERT ON posts WHEN NEW.status IN ('draft', 'hidden', 'pending') BEGIN
    UPDATE row_counts SET row_count = row_count + 1 WHERE table_name = 'posts_' || NEW.status;
END;
--bun:split
CREATE TRIGGER posts_statuses_delete AFTER DELETE ON posts WHEN OLD.status IN ('draft', 'hidden', 'pending') BEGIN
    UPDATE row_counts SET row_count = row_count - 1 WHERE table_name = 'posts_' || OLD.status;
END;
--bun:split
CREATE TRIGGER posts_statuses_update AFTER UPDATE OF status ON posts
WHEN OLD.status IS NOT NEW.status AND (OLD.status IN ('draft', 'hidden', 'pending') OR NEW.status IN ('draft', 'hidden', 'pending')) BEGIN
    UPDATE row_counts SET row_count = row_count - 1 WHERE table_name = 'posts_' || OLD.status AND OLD.status IN ('draft', 'hidden', 'pending');
    UPDATE row_counts SET row_count = row_count + 1 WHERE table_name = 'posts_' || NEW.status AND NEW.status IN ('draft', 'hidden', 'pending');
END;

--bun:split

-- How many posts each account has put up for publication, ever: created
-- published, or a draft published, held or not, deleted since or not. The
-- hold of an account's first posts counts these, so deleting one's posts
-- does not start the count again. Until now, the posts that are not drafts.
ALTER TABLE users ADD COLUMN posts_submitted INTEGER NOT NULL DEFAULT 0;
--bun:split
UPDATE users SET posts_submitted = (SELECT count(*) FROM posts AS p WHERE p.author_id = users.id AND p.status <> 'draft');
