DROP TRIGGER IF EXISTS posts_review_insert;
--bun:split
DROP TRIGGER IF EXISTS posts_review_delete;
--bun:split
DROP TRIGGER IF EXISTS posts_review_update;
--bun:split
DELETE FROM row_counts WHERE table_name = 'posts_review';
