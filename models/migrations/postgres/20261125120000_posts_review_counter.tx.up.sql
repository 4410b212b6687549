-- The moderation queue's total is the number of posts awaiting a decision
-- (open reports, or flagged); tens of thousands of them at a large
-- community, too many to count per request. Triggers keep it beside the
-- flagged posts' count, in the same transaction as the posts.
INSERT INTO row_counts (table_name, row_count)
SELECT 'posts_review', count(*) FROM posts WHERE open_reports > 0 OR status = 'flagged';

--bun:split

CREATE FUNCTION plaza_count_review() RETURNS trigger LANGUAGE plpgsql AS $$
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
CREATE TRIGGER posts_review_insert AFTER INSERT ON posts REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_count_review();
--bun:split
CREATE TRIGGER posts_review_delete AFTER DELETE ON posts REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_count_review();
--bun:split
CREATE TRIGGER posts_review_update AFTER UPDATE ON posts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_count_review();
