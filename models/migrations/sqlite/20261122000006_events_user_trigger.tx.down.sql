-- PostgreSQL's step 6 trades the foreign key on analytics_events.user_id
-- for a trigger, for insert speed. SQLite keeps its foreign key (ON DELETE
-- SET NULL, the same meaning): dropping it would mean rebuilding the table,
-- and one writer at a time, not the check, limits ingestion there.
SELECT 1;
