-- PostgreSQL's step puts one trigram index over the columns a user search
-- matches together. SQLite's users_fts already holds them in one table.
SELECT 1;
