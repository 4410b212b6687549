-- Notifications, broadcasts, feature flags, the audit log, locks, sessions,
-- API tokens and settings.
CREATE TABLE broadcasts (
    id           INTEGER PRIMARY KEY,
    title        TEXT NOT NULL,
    message      TEXT NOT NULL,
    type         TEXT NOT NULL CHECK (type IN ('info', 'success', 'warning', 'critical')),
    targets      TEXT NOT NULL,
    status       TEXT NOT NULL CHECK (status IN ('scheduled', 'sent', 'failed')),
    scheduled_at TIMESTAMP,
    sent_at      TIMESTAMP,
    recipients   INTEGER NOT NULL DEFAULT 0,
    created_by   INTEGER REFERENCES users (id) ON DELETE SET NULL,
    created_at   TIMESTAMP NOT NULL
);
--bun:split
CREATE INDEX broadcasts_due_idx ON broadcasts (scheduled_at) WHERE status = 'scheduled';

--bun:split

CREATE TABLE notifications (
    id           INTEGER PRIMARY KEY,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    broadcast_id INTEGER REFERENCES broadcasts (id) ON DELETE SET NULL,
    title        TEXT NOT NULL,
    message      TEXT NOT NULL,
    type         TEXT NOT NULL CHECK (type IN ('info', 'success', 'warning', 'critical')),
    created_at   TIMESTAMP NOT NULL,
    read_at      TIMESTAMP
);
--bun:split
CREATE INDEX notifications_user_id_idx ON notifications (user_id, created_at);
--bun:split
CREATE INDEX notifications_unread_idx ON notifications (user_id) WHERE read_at IS NULL;

--bun:split

CREATE TABLE feature_flags (
    name               TEXT PRIMARY KEY,
    description        TEXT NOT NULL DEFAULT '',
    enabled            BOOLEAN NOT NULL DEFAULT FALSE,
    rollout_percentage INTEGER NOT NULL DEFAULT 0 CHECK (rollout_percentage BETWEEN 0 AND 100),
    created_at         TIMESTAMP NOT NULL,
    updated_at         TIMESTAMP NOT NULL,
    updated_by         INTEGER REFERENCES users (id) ON DELETE SET NULL
);

--bun:split

-- Append-only and hash-chained: rows are never updated or deleted by Plaza.
CREATE TABLE audit_log (
    id             INTEGER PRIMARY KEY,
    created_at     TIMESTAMP NOT NULL,
    admin_id       INTEGER,
    admin_username TEXT NOT NULL DEFAULT '',
    action         TEXT NOT NULL,
    target_type    TEXT NOT NULL DEFAULT '',
    target_id      TEXT NOT NULL DEFAULT '',
    ip_address     TEXT NOT NULL DEFAULT '',
    user_agent     TEXT NOT NULL DEFAULT '',
    status         INTEGER NOT NULL,
    details        TEXT NOT NULL DEFAULT '{}',
    prev_hash      TEXT NOT NULL,
    hash           TEXT NOT NULL UNIQUE
);
--bun:split
CREATE INDEX audit_log_created_at_idx ON audit_log (created_at, id);
--bun:split
CREATE INDEX audit_log_admin_id_idx ON audit_log (admin_id, created_at);
--bun:split
CREATE INDEX audit_log_action_idx ON audit_log (action, created_at);
--bun:split
CREATE INDEX audit_log_target_idx ON audit_log (target_type, target_id);

--bun:split

CREATE TABLE locks (
    resource_type TEXT NOT NULL CHECK (resource_type IN ('user', 'post', 'feature_flag')),
    resource_id   TEXT NOT NULL,
    locked_by     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    locked_at     TIMESTAMP NOT NULL,
    expires_at    TIMESTAMP NOT NULL,
    PRIMARY KEY (resource_type, resource_id)
);
--bun:split
CREATE INDEX locks_expires_at_idx ON locks (expires_at);

--bun:split

-- The scs session store.
CREATE TABLE sessions (
    token  TEXT PRIMARY KEY,
    data   BLOB NOT NULL,
    expiry TIMESTAMP NOT NULL
);
--bun:split
CREATE INDEX sessions_expiry_idx ON sessions (expiry);

--bun:split

CREATE TABLE api_tokens (
    jti          TEXT PRIMARY KEY,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name         TEXT NOT NULL DEFAULT '',
    permissions  TEXT NOT NULL,
    created_by   INTEGER REFERENCES users (id) ON DELETE SET NULL,
    created_at   TIMESTAMP NOT NULL,
    expires_at   TIMESTAMP NOT NULL,
    revoked_at   TIMESTAMP,
    last_used_at TIMESTAMP
);
--bun:split
CREATE INDEX api_tokens_user_id_idx ON api_tokens (user_id, created_at);
--bun:split
CREATE INDEX api_tokens_expires_at_idx ON api_tokens (expires_at);

--bun:split

-- Generated secrets (outside production) and other instance-wide values.
CREATE TABLE settings (
    key        TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
