-- PostgreSQL only: SQLite reads deep pages of these orders from the nearer end.
SELECT 1;
