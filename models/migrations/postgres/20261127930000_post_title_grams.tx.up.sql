-- A title search of one or two characters cannot use the trigram index
-- (it would read all of itself), so a rare one walked every title: 0.65 s
-- at two million posts. This index lists each title's characters and
-- pairs of characters, lowercased as ILIKE compares them; a term's pair
-- (or character) is one key, and its list holds every title that may
-- match. At two million posts it is 113 MB and takes about a minute to
-- build.
--
-- The pairs at even and at odd offsets are cut by regexp_replace and
-- split, which costs a tenth of a generate_series over the offsets. A
-- title holding \x01 yields broken pairs around it, so a term holding
-- \x01 does not use the index (titleSearch).
CREATE FUNCTION plaza_title_grams(title text) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT string_to_array(t, NULL)
        || string_to_array(regexp_replace(t, '(..)', E'\\1\x01', 'g'), E'\x01')
        || string_to_array(regexp_replace(substr(t, 2), '(..)', E'\\1\x01', 'g'), E'\x01')
    FROM (SELECT lower(title)) AS s(t)
$$;

--bun:split

CREATE INDEX post_titles_grams_idx ON post_titles USING gin (plaza_title_grams(title));

--bun:split

-- Every pair a community writes fits the sample's most common elements,
-- so the planner knows a rare pair from a common one.
ALTER INDEX post_titles_grams_idx ALTER COLUMN 1 SET STATISTICS 1000;

--bun:split

-- Without statistics of the new expression the planner guesses; the
-- periodic sweep analyzes only tables that changed. 7 s at two million.
ANALYZE post_titles;
