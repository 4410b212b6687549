-- PostgreSQL only, as audit_id_runs.
SELECT 1;
