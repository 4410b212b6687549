-- PostgreSQL only: the functions it replaces are PostgreSQL's (SQLite has
-- no title marks, and its row triggers join no transition tables).
SELECT 1;
