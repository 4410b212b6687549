-- PostgreSQL drops its per-run counts of users; SQLite never kept them.
SELECT 1;
