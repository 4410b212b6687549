DROP TRIGGER post_titles_fts_update;
--bun:split
DROP TRIGGER post_titles_fts_delete;
--bun:split
DROP TRIGGER post_titles_fts_insert;
--bun:split
DROP TABLE post_titles_fts;
