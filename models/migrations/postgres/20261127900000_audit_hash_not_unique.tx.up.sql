-- Every admin request appends one audit entry, and the unique index on the
-- entry's hash was the costliest of the table's indexes to keep: random keys,
-- compared as text, each landing on a page of its own. No query reads by hash,
-- and the chain needs no index: one writer at a time links each entry to
-- the last (the advisory lock), and verification walks the entries by id.
ALTER TABLE audit_log DROP CONSTRAINT audit_log_hash_key;
