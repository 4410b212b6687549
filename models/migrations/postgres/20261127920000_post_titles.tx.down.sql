DROP TRIGGER posts_titles_delete ON posts;
--bun:split
DROP TRIGGER posts_titles_update ON posts;
--bun:split
DROP TRIGGER posts_titles_insert ON posts;
--bun:split
DROP FUNCTION plaza_post_titles();
--bun:split
CREATE INDEX posts_title_trgm_idx ON posts USING gin (title gin_trgm_ops);
--bun:split
DROP TABLE post_titles;
