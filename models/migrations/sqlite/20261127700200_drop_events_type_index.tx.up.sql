-- No query reads the events by type (the daily roll-up groups a day's
-- events through the time index); the index only slowed every insert.
DROP INDEX IF EXISTS analytics_events_type_idx;
