-- Held posts go back to their authors as drafts.
UPDATE posts SET status = 'draft' WHERE status = 'pending';
--bun:split
ALTER TABLE users DROP COLUMN posts_submitted;
--bun:split
DROP TRIGGER posts_statuses_insert ON posts;
--bun:split
DROP TRIGGER posts_statuses_delete ON posts;
--bun:split
DROP TRIGGER posts_statuses_update ON posts;
--bun:split
CREATE TRIGGER posts_statuses_insert AFTER INSERT ON posts REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_count_statuses('draft', 'hidden');
--bun:split
CREATE TRIGGER posts_statuses_delete AFTER DELETE ON posts REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_count_statuses('draft', 'hidden');
--bun:split
CREATE TRIGGER posts_statuses_update AFTER UPDATE ON posts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_count_statuses('draft', 'hidden');
--bun:split
DELETE FROM row_counts WHERE table_name = 'posts_pending';
--bun:split
CREATE OR REPLACE FUNCTION plaza_count_review() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    delta bigint := 0;
BEGIN
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        delta := delta + (SELECT count(*) FROM new_rows WHERE open_reports > 0 OR status = 'flagged');
    END IF;
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
        delta := delta - (SELECT count(*) FROM old_rows WHERE open_reports > 0 OR status = 'flagged');
    END IF;
    -- Only a change takes the counter's row lock (see plaza_count_flagged).
    IF delta <> 0 THEN
        UPDATE row_counts SET row_count = row_count + delta WHERE table_name = 'posts_review';
    END IF;
    RETURN NULL;
END
$$;
--bun:split
UPDATE row_counts SET row_count = (SELECT count(*) FROM posts WHERE open_reports > 0 OR status = 'flagged') WHERE table_name = 'posts_review';
--bun:split
DROP INDEX post_titles_review_idx;
--bun:split
CREATE INDEX post_titles_review_idx ON post_titles (id) WHERE (open_reports > 0 OR status = 'flagged');
--bun:split
DROP INDEX posts_review_idx;
--bun:split
CREATE INDEX posts_review_idx ON posts (report_count, id) WHERE open_reports > 0 OR status = 'flagged';
--bun:split
ALTER TABLE posts DROP CONSTRAINT posts_status_check;
--bun:split
ALTER TABLE posts ADD CONSTRAINT posts_status_check CHECK (status IN ('published', 'draft', 'hidden', 'flagged'));
