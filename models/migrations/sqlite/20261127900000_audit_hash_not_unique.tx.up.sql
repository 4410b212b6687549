-- SQLite keeps the hash's unique index: dropping it would mean rebuilding the
-- table, and one writer process does not pay for it as PostgreSQL's busiest
-- path did (see the PostgreSQL migration of the same name).
SELECT 1;
