-- Maintenance jobs as admins see them: queued by the API, worked by the
-- job queue, with progress and a result. At most one job of an action is
-- queued or running at a time, on every instance: the index says so.
CREATE TABLE maintenance_jobs (
    id          TEXT PRIMARY KEY,
    action      TEXT NOT NULL CHECK (action IN ('cache_clear', 'rebuild_search', 'cleanup_uploads', 'backup_database')),
    scope       TEXT NOT NULL,
    notify      BOOLEAN NOT NULL DEFAULT false,
    status      TEXT NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed')),
    progress    INTEGER NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 100),
    result      TEXT,
    error       TEXT,
    attempts    INTEGER NOT NULL DEFAULT 0,
    queued_by   INTEGER REFERENCES users (id) ON DELETE SET NULL,
    queued_at   TIMESTAMP NOT NULL,
    started_at  TIMESTAMP,
    finished_at TIMESTAMP
);
--bun:split
CREATE UNIQUE INDEX maintenance_jobs_one_at_a_time ON maintenance_jobs (action) WHERE status IN ('queued', 'running');
--bun:split
CREATE INDEX maintenance_jobs_queued_at_idx ON maintenance_jobs (queued_at);
