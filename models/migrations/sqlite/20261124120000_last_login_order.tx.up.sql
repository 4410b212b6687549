-- PostgreSQL's step indexes last sign-in with nulls first, so that one
-- index serves the admin list's sort in both directions. SQLite already
-- puts nulls first in ascending order and last in descending.
SELECT 1;
