-- The two functions as they were before, with their joins.
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

CREATE OR REPLACE FUNCTION plaza_post_titles() RETURNS trigger LANGUAGE plpgsql AS $$
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
