DROP TABLE IF EXISTS maintenance_jobs;
