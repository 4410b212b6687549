-- PostgreSQL's step 5 adds triggers that tell every instance when a caller
-- changes. One process serves an SQLite file and Plaza does not cache
-- callers on SQLite, so there is nothing to set up; the step exists to keep
-- both dialects on the same steps.
SELECT 1;
