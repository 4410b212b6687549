-- Maintenance jobs as admins see them: queued by the API, worked by the
-- job queue, with progress and a result. At most one job of an action is
-- queued or running at a time, on every instance: the index says so.
CREATE TABLE maintenance_jobs (
    id          text PRIMARY KEY,
    action      text NOT NULL CHECK (action IN ('cache_clear', 'rebuild_search', 'cleanup_uploads', 'backup_database')),
    scope       text NOT NULL,
    notify      boolean NOT NULL DEFAULT false,
    status      text NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed')),
    progress    integer NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 100),
    result      jsonb,
    error       text,
    attempts    integer NOT NULL DEFAULT 0,
    queued_by   bigint REFERENCES users (id) ON DELETE SET NULL,
    queued_at   timestamptz NOT NULL,
    started_at  timestamptz,
    finished_at timestamptz
);
--bun:split
CREATE UNIQUE INDEX maintenance_jobs_one_at_a_time ON maintenance_jobs (action) WHERE status IN ('queued', 'running');
--bun:split
CREATE INDEX maintenance_jobs_queued_at_idx ON maintenance_jobs (queued_at);
