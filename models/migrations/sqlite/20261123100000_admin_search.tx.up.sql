-- PostgreSQL adds a trigram index on provider account emails here; SQLite
-- scans the table, which stays small next to users. Kept so both
-- dialects share one history.
SELECT 1;
