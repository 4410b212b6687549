-- The per-status counts of deep pages by last update, report count and
-- title are PostgreSQL's only; SQLite walks from the nearer end.
SELECT 1;
