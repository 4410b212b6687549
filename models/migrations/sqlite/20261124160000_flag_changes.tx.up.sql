-- Nothing to do: SQLite has one instance, whose own changes purge its
-- caches (PostgreSQL's step notifies the other instances).
SELECT 1;
