-- PostgreSQL's step partitions analytics_events by month, so that
-- retention drops whole months. SQLite keeps one table: it has no
-- partitions, and its retention deletes rows.
SELECT 1;
