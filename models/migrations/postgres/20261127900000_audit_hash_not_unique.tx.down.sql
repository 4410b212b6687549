ALTER TABLE audit_log ADD CONSTRAINT audit_log_hash_key UNIQUE (hash);
