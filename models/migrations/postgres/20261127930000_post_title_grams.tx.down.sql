DROP INDEX post_titles_grams_idx;
--bun:split
DROP FUNCTION plaza_title_grams(text);
