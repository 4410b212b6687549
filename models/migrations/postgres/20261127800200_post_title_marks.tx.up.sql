-- Deep pages of the admin posts list by title start from counts too. Marks
-- cut the list's order (title in the database's collation, then id) into
-- buckets: a mark (title, id) starts the bucket of the posts from it up to
-- the next mark, and n counts them, kept exact by triggers in the same
-- transaction as the posts. A bucket's posts are found by comparing with
-- the marks in the same collation as the list sorts by, so the counts hold
-- under any collation. The mark ('', 0) comes before every post and is
-- never removed; the sweep job splits any bucket grown past 8,192 posts
-- (Store.SplitTitleMarks). PostgreSQL only; SQLite walks from the nearer
-- end.
CREATE TABLE post_title_marks (
    title text   NOT NULL,
    id    bigint NOT NULL,
    n     bigint NOT NULL,
    PRIMARY KEY (title, id)
);

--bun:split

-- A mark every 2,048 posts, with the posts from it to the next.
INSERT INTO post_title_marks (title, id, n)
SELECT CASE WHEN rn = 0 THEN '' ELSE title END, CASE WHEN rn = 0 THEN 0 ELSE id END, least(2048, total - rn)
FROM (SELECT title, id, row_number() OVER (ORDER BY title, id) - 1 AS rn, count(*) OVER () AS total FROM posts) AS p
WHERE rn % 2048 = 0;

--bun:split

INSERT INTO post_title_marks (title, id, n) VALUES ('', 0, 0) ON CONFLICT DO NOTHING;

--bun:split

-- Adds each mark's net change: every post counts in the bucket of the
-- last mark at or before it. An update counts only posts whose title
-- changed. Marks are taken in key order, so that concurrent writers queue.
CREATE FUNCTION plaza_post_title_marks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO post_title_marks (title, id, n)
        SELECT m.title, m.id, count(*) FROM new_rows AS r
        CROSS JOIN LATERAL (SELECT title, id FROM post_title_marks AS m WHERE (m.title, m.id) <= (r.title, r.id)
            ORDER BY m.title DESC, m.id DESC LIMIT 1) AS m
        GROUP BY 1, 2 ORDER BY 1, 2
        ON CONFLICT (title, id) DO UPDATE SET n = post_title_marks.n + EXCLUDED.n;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO post_title_marks (title, id, n)
        SELECT m.title, m.id, -count(*) FROM old_rows AS r
        CROSS JOIN LATERAL (SELECT title, id FROM post_title_marks AS m WHERE (m.title, m.id) <= (r.title, r.id)
            ORDER BY m.title DESC, m.id DESC LIMIT 1) AS m
        GROUP BY 1, 2 ORDER BY 1, 2
        ON CONFLICT (title, id) DO UPDATE SET n = post_title_marks.n + EXCLUDED.n;
    ELSE
        INSERT INTO post_title_marks (title, id, n)
        SELECT m.title, m.id, sum(r.n) FROM (
            SELECT nr.title, nr.id, 1 AS n FROM new_rows AS nr JOIN old_rows AS o ON o.id = nr.id WHERE o.title <> nr.title
            UNION ALL
            SELECT o.title, o.id, -1 FROM new_rows AS nr JOIN old_rows AS o ON o.id = nr.id WHERE o.title <> nr.title
        ) AS r
        CROSS JOIN LATERAL (SELECT title, id FROM post_title_marks AS m WHERE (m.title, m.id) <= (r.title, r.id)
            ORDER BY m.title DESC, m.id DESC LIMIT 1) AS m
        GROUP BY 1, 2 HAVING sum(r.n) <> 0 ORDER BY 1, 2
        ON CONFLICT (title, id) DO UPDATE SET n = post_title_marks.n + EXCLUDED.n;
    END IF;
    RETURN NULL;
END
$$;

--bun:split
CREATE TRIGGER posts_title_marks_insert AFTER INSERT ON posts REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_post_title_marks();
--bun:split
CREATE TRIGGER posts_title_marks_delete AFTER DELETE ON posts REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_post_title_marks();
--bun:split
CREATE TRIGGER posts_title_marks_update AFTER UPDATE ON posts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_post_title_marks();
