-- The audit log's per-run counts are PostgreSQL's only.
SELECT 1;
