DROP TRIGGER IF EXISTS posts_count_delete;
--bun:split
DROP TRIGGER IF EXISTS posts_count_insert;
--bun:split
DELETE FROM row_counts WHERE table_name = 'posts';
