DROP TABLE IF EXISTS analytics_ip_keys;
--bun:split
DROP TABLE IF EXISTS analytics_daily_stats;
--bun:split
DROP TABLE IF EXISTS analytics_daily_events;
--bun:split
DROP TABLE IF EXISTS analytics_events;
