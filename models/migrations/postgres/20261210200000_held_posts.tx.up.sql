-- New accounts' posts held for approval (docs/api.md, "New accounts'
-- posts"): a post the hold rule keeps back is 'pending', out of view like
-- a draft and waiting in the moderation queue like a flagged post, until a
-- moderator approves (publishes) or rejects it.
ALTER TABLE posts DROP CONSTRAINT posts_status_check;
--bun:split
ALTER TABLE posts ADD CONSTRAINT posts_status_check CHECK (status IN ('published', 'draft', 'hidden', 'flagged', 'pending'));

--bun:split

-- The queue holds the pending posts too: its index, the title copy's and
-- the counter of posts awaiting a decision take the same condition, word
-- for word filterPosts' NeedsReview.
DROP INDEX posts_review_idx;
--bun:split
CREATE INDEX posts_review_idx ON posts (report_count, id) WHERE open_reports > 0 OR status IN ('flagged', 'pending');
--bun:split
DROP INDEX post_titles_review_idx;
--bun:split
CREATE INDEX post_titles_review_idx ON post_titles (id) WHERE (open_reports > 0 OR status IN ('flagged', 'pending'));
--bun:split
CREATE OR REPLACE FUNCTION plaza_count_review() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    delta bigint := 0;
BEGIN
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        delta := delta + (SELECT count(*) FROM new_rows WHERE open_reports > 0 OR status IN ('flagged', 'pending'));
    END IF;
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
        delta := delta - (SELECT count(*) FROM old_rows WHERE open_reports > 0 OR status IN ('flagged', 'pending'));
    END IF;
    -- Only a change takes the counter's row lock (see plaza_count_flagged).
    IF delta <> 0 THEN
        UPDATE row_counts SET row_count = row_count + delta WHERE table_name = 'posts_review';
    END IF;
    RETURN NULL;
END
$$;

--bun:split

-- The pending posts are counted like the drafts and the hidden, so that
-- the published ones (all the others) are counted right.
INSERT INTO row_counts (table_name, row_count) SELECT 'posts_pending', 0;
--bun:split
DROP TRIGGER posts_statuses_insert ON posts;
--bun:split
DROP TRIGGER posts_statuses_delete ON posts;
--bun:split
DROP TRIGGER posts_statuses_update ON posts;
--bun:split
CREATE TRIGGER posts_statuses_insert AFTER INSERT ON posts REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_count_statuses('draft', 'hidden', 'pending');
--bun:split
CREATE TRIGGER posts_statuses_delete AFTER DELETE ON posts REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_count_statuses('draft', 'hidden', 'pending');
--bun:split
CREATE TRIGGER posts_statuses_update AFTER UPDATE ON posts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_count_statuses('draft', 'hidden', 'pending');

--bun:split

-- How many posts each account has put up for publication, ever: created
-- published, or a draft published, held or not, deleted since or not. The
-- hold of an account's first posts counts these, so deleting one's posts
-- does not start the count again. Until now, the posts that are not drafts.
ALTER TABLE users ADD COLUMN posts_submitted integer NOT NULL DEFAULT 0;
--bun:split
UPDATE users AS u SET posts_submitted = c.n
FROM (SELECT author_id, count(*) AS n FROM posts WHERE status <> 'draft' GROUP BY author_id) AS c
WHERE c.author_id = u.id;
