-- The moderation queue is the posts with open reports. Asking
-- post_reports for each post made a page of the queue read every post
-- from the newest down (a second and more deep in two million posts) and
-- its count read them all. Posts now count their open reports, kept by
-- triggers on post_reports in the same transaction as every report's
-- write, and a partial index holds the queue in order.
ALTER TABLE posts ADD COLUMN open_reports integer NOT NULL DEFAULT 0;

--bun:split

UPDATE posts SET open_reports = r.n
FROM (SELECT post_id, count(*) AS n FROM post_reports WHERE status = 'open' GROUP BY post_id) AS r
WHERE posts.id = r.post_id;

--bun:split

CREATE INDEX posts_open_reports_idx ON posts (created_at, id) WHERE open_reports > 0;

--bun:split

-- Statement-level, so that a bulk insert or a resolution of many reports
-- updates each post once; posts are taken in id order, so concurrent
-- writers queue rather than deadlock.
CREATE FUNCTION plaza_count_open_reports() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE posts SET open_reports = posts.open_reports + d.n
        FROM (SELECT post_id, count(*) AS n FROM new_rows WHERE status = 'open' GROUP BY post_id ORDER BY post_id) AS d
        WHERE posts.id = d.post_id;
    ELSIF TG_OP = 'DELETE' THEN
        UPDATE posts SET open_reports = posts.open_reports - d.n
        FROM (SELECT post_id, count(*) AS n FROM old_rows WHERE status = 'open' GROUP BY post_id ORDER BY post_id) AS d
        WHERE posts.id = d.post_id;
    ELSE
        UPDATE posts SET open_reports = posts.open_reports + d.n
        FROM (SELECT post_id, sum(n) AS n FROM (
                SELECT post_id, 1 AS n FROM new_rows WHERE status = 'open'
                UNION ALL
                SELECT post_id, -1 AS n FROM old_rows WHERE status = 'open') AS c
              GROUP BY post_id HAVING sum(n) <> 0 ORDER BY post_id) AS d
        WHERE posts.id = d.post_id;
    END IF;
    RETURN NULL;
END
$$;

--bun:split

CREATE TRIGGER post_reports_count_insert AFTER INSERT ON post_reports
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION plaza_count_open_reports();

--bun:split

CREATE TRIGGER post_reports_count_update AFTER UPDATE ON post_reports
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION plaza_count_open_reports();

--bun:split

CREATE TRIGGER post_reports_count_delete AFTER DELETE ON post_reports
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION plaza_count_open_reports();
