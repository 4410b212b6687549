-- Two of the posts' update triggers joined the statement's old rows to its
-- new ones by id. A connection keeps the plans of a trigger's first calls,
-- mostly edits of one post, made for transition tables of one row: a
-- nested loop, so an UPDATE of n posts compared n² pairs (hiding an
-- author's 8,000 posts took 20 s, nearly all of it in these joins).
-- Neither needs the join. The title marks count each new row +1 and each
-- old row -1 and keep the (title, id) pairs whose sum is not zero: a post
-- whose title did not change cancels out before any mark is looked up.
-- The copy of the posts compares each new row with the copy itself, which
-- holds the old values.
CREATE OR REPLACE FUNCTION plaza_post_title_marks() RETURNS trigger LANGUAGE plpgsql AS $$
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
            SELECT title, id, sum(n) AS n FROM (
                SELECT title, id, 1 AS n FROM new_rows
                UNION ALL
                SELECT title, id, -1 FROM old_rows
            ) AS moved
            GROUP BY title, id HAVING sum(n) <> 0
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

CREATE OR REPLACE FUNCTION plaza_post_titles() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO post_titles (id, title, status, author_id, report_count, open_reports, created_at, updated_at)
            SELECT id, title, status, author_id, report_count, open_reports, created_at, updated_at FROM new_rows;
    ELSIF TG_OP = 'UPDATE' THEN
        UPDATE post_titles AS t SET title = n.title, status = n.status, author_id = n.author_id,
            report_count = n.report_count, open_reports = n.open_reports, created_at = n.created_at, updated_at = n.updated_at
        FROM new_rows AS n
        WHERE t.id = n.id
            AND (n.title, n.status, n.author_id, n.report_count, n.open_reports, n.created_at, n.updated_at)
            IS DISTINCT FROM (t.title, t.status, t.author_id, t.report_count, t.open_reports, t.created_at, t.updated_at);
    ELSE
        DELETE FROM post_titles AS t USING old_rows AS o WHERE t.id = o.id;
    END IF;
    RETURN NULL;
END
$$;
