-- The admin list sorts by last sign-in with users who never signed in as
-- the longest ago: first in ascending order, last in descending. One index
-- with nulls first serves both directions (read backwards for the second);
-- the index with PostgreSQL's default, nulls last, served neither, and a
-- sort by last sign-in read and sorted all users.
CREATE INDEX users_last_login_nulls_first_idx ON users (last_login_at NULLS FIRST, id);

--bun:split

DROP INDEX users_last_login_at_idx;
