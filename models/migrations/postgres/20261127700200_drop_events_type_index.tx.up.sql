-- No query reads the events by type: the daily roll-up groups a day's
-- events by type through the time index (or the month's partition), and
-- nothing filters on event_type. The index cost every stored event an
-- index insertion, about a quarter of the database's work per event.
DROP INDEX IF EXISTS analytics_events_type_idx;
