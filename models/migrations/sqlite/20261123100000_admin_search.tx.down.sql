DROP TRIGGER IF EXISTS users_count_delete;
--bun:split
DROP TRIGGER IF EXISTS users_count_insert;
--bun:split
DROP TABLE IF EXISTS row_counts;
