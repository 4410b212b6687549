-- Counting every user takes longer than a page of the admin list may;
-- triggers keep the number instead, exact and in the same transaction as
-- the rows. (PostgreSQL also adds a trigram index on provider emails here;
-- SQLite scans that table.)
CREATE TABLE row_counts (
    table_name TEXT PRIMARY KEY,
    row_count  INTEGER NOT NULL
);
--bun:split
INSERT INTO row_counts (table_name, row_count) SELECT 'users', count(*) FROM users;
--bun:split
CREATE TRIGGER users_count_insert AFTER INSERT ON users BEGIN
    UPDATE row_counts SET row_count = row_count + 1 WHERE table_name = 'users';
END;
--bun:split
CREATE TRIGGER users_count_delete AFTER DELETE ON users BEGIN
    UPDATE row_counts SET row_count = row_count - 1 WHERE table_name = 'users';
END;
