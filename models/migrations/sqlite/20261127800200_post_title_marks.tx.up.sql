-- PostgreSQL only: SQLite reads deep pages by title from the nearer end.
SELECT 1;
