-- Analytics events (kept 90 days), their daily roll-ups and the daily keys
-- that hash visitors' IP addresses.
CREATE TABLE analytics_events (
    id          TEXT PRIMARY KEY,
    event_type  TEXT NOT NULL,
    event_data  TEXT NOT NULL,
    user_id     INTEGER REFERENCES users (id) ON DELETE SET NULL,
    session_id  TEXT NOT NULL DEFAULT '',
    ip_hash     TEXT NOT NULL DEFAULT '',
    user_agent  TEXT NOT NULL DEFAULT '',
    page_path   TEXT NOT NULL DEFAULT '',
    occurred_at TIMESTAMP NOT NULL,
    received_at TIMESTAMP NOT NULL
);
--bun:split
CREATE INDEX analytics_events_occurred_at_idx ON analytics_events (occurred_at);
--bun:split
CREATE INDEX analytics_events_type_idx ON analytics_events (event_type, occurred_at);
--bun:split
CREATE INDEX analytics_events_user_id_idx ON analytics_events (user_id, occurred_at);

--bun:split

CREATE TABLE analytics_daily_events (
    day        DATE NOT NULL,
    event_type TEXT NOT NULL,
    events     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (day, event_type)
);

--bun:split

CREATE TABLE analytics_daily_stats (
    day                   DATE PRIMARY KEY,
    active_users          INTEGER NOT NULL DEFAULT 0,
    sessions              INTEGER NOT NULL DEFAULT 0,
    total_session_seconds INTEGER NOT NULL DEFAULT 0
);

--bun:split

CREATE TABLE analytics_ip_keys (
    day        DATE PRIMARY KEY,
    secret     TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
