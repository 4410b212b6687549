-- PostgreSQL only: an index of the titles' characters and pairs for title
-- searches under three characters. SQLite walks those.
SELECT 1;
