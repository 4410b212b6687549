-- The number of posts, kept by triggers beside the users' count (the
-- analytics' content section).
INSERT INTO row_counts (table_name, row_count) SELECT 'posts', count(*) FROM posts;
--bun:split
CREATE TRIGGER posts_count_insert AFTER INSERT ON posts BEGIN
    UPDATE row_counts SET row_count = row_count + 1 WHERE table_name = 'posts';
END;
--bun:split
CREATE TRIGGER posts_count_delete AFTER DELETE ON posts BEGIN
    UPDATE row_counts SET row_count = row_count - 1 WHERE table_name = 'posts';
END;
