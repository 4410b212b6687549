DROP TRIGGER IF EXISTS posts_count_delete ON posts;
--bun:split
DROP TRIGGER IF EXISTS posts_count_insert ON posts;
--bun:split
DROP FUNCTION IF EXISTS plaza_count_posts();
--bun:split
DELETE FROM row_counts WHERE table_name = 'posts';
