-- Nothing to do: the walk this index serves on PostgreSQL is not used on
-- SQLite, whose users_post_count_idx stays.
SELECT 1;
