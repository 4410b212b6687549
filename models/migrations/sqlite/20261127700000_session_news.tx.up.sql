-- PostgreSQL tells every instance of a session written back or ended, for
-- their session caches. On SQLite there is one instance and no session
-- cache.
SELECT 1;
