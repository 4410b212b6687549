CREATE INDEX IF NOT EXISTS analytics_events_type_idx ON analytics_events (event_type, occurred_at);
