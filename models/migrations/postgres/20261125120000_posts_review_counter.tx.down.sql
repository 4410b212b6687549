DROP TRIGGER IF EXISTS posts_review_insert ON posts;
--bun:split
DROP TRIGGER IF EXISTS posts_review_delete ON posts;
--bun:split
DROP TRIGGER IF EXISTS posts_review_update ON posts;
--bun:split
DROP FUNCTION IF EXISTS plaza_count_review();
--bun:split
DELETE FROM row_counts WHERE table_name = 'posts_review';
