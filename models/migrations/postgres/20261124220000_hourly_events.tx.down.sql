DROP TABLE IF EXISTS analytics_hourly_events;
