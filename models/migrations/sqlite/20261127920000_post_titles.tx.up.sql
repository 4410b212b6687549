-- PostgreSQL only: SQLite's title search walks the posts newest first.
SELECT 1;
