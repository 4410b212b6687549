-- The admin posts title search reads each post's title, and the columns
-- the list filters and sorts on, from this narrow copy, not from posts: at two
-- million posts it is a sixth of the size (the posts carry their text and
-- search vector), so its pages stay cached, a walk of the newest titles
-- reads few of them, and the planner intersects its trigram index with a
-- range of ids before it fetches a row. Statement-level triggers keep it
-- in the same transaction as the posts; no foreign key, so a logical dump
-- loads its tables in any order.
CREATE TABLE post_titles (
    id           bigint PRIMARY KEY,
    title        text NOT NULL,
    status       text NOT NULL,
    author_id    bigint NOT NULL,
    report_count integer NOT NULL,
    open_reports integer NOT NULL,
    created_at   timestamptz NOT NULL,
    updated_at   timestamptz NOT NULL
);

--bun:split

INSERT INTO post_titles (id, title, status, author_id, report_count, open_reports, created_at, updated_at)
    SELECT id, title, status, author_id, report_count, open_reports, created_at, updated_at FROM posts;

--bun:split

CREATE INDEX post_titles_trgm_idx ON post_titles USING gin (title gin_trgm_ops);

--bun:split

-- With the default sample the planner takes a rare word for a hundred
-- times rarer than it is, and then fetches every match of the whole table
-- before it drops those outside the window; with this one it intersects
-- the trigram index with the window's ids first.
ALTER TABLE post_titles ALTER COLUMN title SET STATISTICS 1000;

--bun:split

-- A search beside a status, or in the moderation queue (the condition is
-- filterPosts' NeedsReview, word for word), intersects these with the
-- trigram index, or walks the queue's ids alone.
CREATE INDEX post_titles_status_idx ON post_titles (status, id);

--bun:split

CREATE INDEX post_titles_review_idx ON post_titles (id) WHERE (open_reports > 0 OR status = 'flagged');

--bun:split

-- The title search was this index's only reader.
DROP INDEX posts_title_trgm_idx;

--bun:split

-- An update writes the copy only when a column it holds changed: an edit
-- of the text alone leaves it alone.
CREATE FUNCTION plaza_post_titles() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO post_titles (id, title, status, author_id, report_count, open_reports, created_at, updated_at)
            SELECT id, title, status, author_id, report_count, open_reports, created_at, updated_at FROM new_rows;
    ELSIF TG_OP = 'UPDATE' THEN
        UPDATE post_titles AS t SET title = n.title, status = n.status, author_id = n.author_id,
            report_count = n.report_count, open_reports = n.open_reports, created_at = n.created_at, updated_at = n.updated_at
        FROM new_rows AS n JOIN old_rows AS o ON o.id = n.id
        WHERE t.id = n.id
            AND (n.title, n.status, n.author_id, n.report_count, n.open_reports, n.created_at, n.updated_at)
            IS DISTINCT FROM (o.title, o.status, o.author_id, o.report_count, o.open_reports, o.created_at, o.updated_at);
    ELSE
        DELETE FROM post_titles AS t USING old_rows AS o WHERE t.id = o.id;
    END IF;
    RETURN NULL;
END
$$;

--bun:split

CREATE TRIGGER posts_titles_insert AFTER INSERT ON posts
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION plaza_post_titles();

--bun:split

CREATE TRIGGER posts_titles_update AFTER UPDATE ON posts
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION plaza_post_titles();

--bun:split

CREATE TRIGGER posts_titles_delete AFTER DELETE ON posts
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION plaza_post_titles();
