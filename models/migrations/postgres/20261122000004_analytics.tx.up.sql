-- Analytics events (kept 90 days), their daily roll-ups and the daily keys
-- that hash visitors' IP addresses.
CREATE TABLE analytics_events (
    id          uuid PRIMARY KEY,
    event_type  text NOT NULL,
    event_data  jsonb NOT NULL,
    user_id     bigint REFERENCES users (id) ON DELETE SET NULL,
    session_id  text NOT NULL DEFAULT '',
    ip_hash     text NOT NULL DEFAULT '',
    user_agent  text NOT NULL DEFAULT '',
    page_path   text NOT NULL DEFAULT '',
    occurred_at timestamptz NOT NULL,
    received_at timestamptz NOT NULL
);
--bun:split
CREATE INDEX analytics_events_occurred_at_idx ON analytics_events (occurred_at);
--bun:split
CREATE INDEX analytics_events_type_idx ON analytics_events (event_type, occurred_at);
--bun:split
CREATE INDEX analytics_events_user_id_idx ON analytics_events (user_id, occurred_at);

--bun:split

CREATE TABLE analytics_daily_events (
    day        date NOT NULL,
    event_type text NOT NULL,
    events     bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (day, event_type)
);

--bun:split

CREATE TABLE analytics_daily_stats (
    day                   date PRIMARY KEY,
    active_users          integer NOT NULL DEFAULT 0,
    sessions              integer NOT NULL DEFAULT 0,
    total_session_seconds bigint NOT NULL DEFAULT 0
);

--bun:split

CREATE TABLE analytics_ip_keys (
    day        date PRIMARY KEY,
    secret     text NOT NULL,
    created_at timestamptz NOT NULL
);
