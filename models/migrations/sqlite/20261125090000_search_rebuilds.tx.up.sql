-- While rebuild_search refills an FTS5 index into a shadow table in id
-- batches, this row says how far it has come: the shadow's triggers keep
-- the ids already loaded current, and the batches load the rest.
CREATE TABLE search_rebuilds (
    name TEXT PRIMARY KEY,
    through_id INTEGER NOT NULL
);
