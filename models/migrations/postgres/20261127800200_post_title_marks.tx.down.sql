DROP TRIGGER IF EXISTS posts_title_marks_update ON posts;
--bun:split
DROP TRIGGER IF EXISTS posts_title_marks_delete ON posts;
--bun:split
DROP TRIGGER IF EXISTS posts_title_marks_insert ON posts;
--bun:split
DROP FUNCTION IF EXISTS plaza_post_title_marks();
--bun:split
DROP TABLE IF EXISTS post_title_marks;
