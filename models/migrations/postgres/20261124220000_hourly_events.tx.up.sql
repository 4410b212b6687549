-- Events per hour, rolled up with the daily counts, so that an hourly
-- analytics series reads a day's 24 rows instead of the day's events.
CREATE TABLE analytics_hourly_events (
    hour   timestamptz PRIMARY KEY,
    events bigint NOT NULL
);
