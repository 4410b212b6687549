-- The analytics' content section shows the number of posts; counting two
-- million of them takes longer than the whole answer may. Triggers keep it
-- beside the users' count, in the same transaction as the rows.
INSERT INTO row_counts (table_name, row_count) SELECT 'posts', count(*) FROM posts;

--bun:split

CREATE FUNCTION plaza_count_posts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE row_counts SET row_count = row_count + (SELECT count(*) FROM new_rows) WHERE table_name = 'posts';
    ELSE
        UPDATE row_counts SET row_count = row_count - (SELECT count(*) FROM old_rows) WHERE table_name = 'posts';
    END IF;
    RETURN NULL;
END
$$;

--bun:split

CREATE TRIGGER posts_count_insert AFTER INSERT ON posts
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION plaza_count_posts();

--bun:split

CREATE TRIGGER posts_count_delete AFTER DELETE ON posts
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION plaza_count_posts();
