-- PostgreSQL's step keeps a table of the words of titles and names, so that
-- a search that matches nothing can be tried again with each word spelt as
-- one that occurs. SQLite's searches have no such correction.
SELECT 1;
