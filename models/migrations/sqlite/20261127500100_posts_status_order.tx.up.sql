-- SQLite's index on (status, created_at) already ends with each post's id
-- (its rowid), so a status's posts walk in the list's order from it alone.
SELECT 1;
