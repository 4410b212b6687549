-- Counting every user takes longer than a page of the admin list may;
-- triggers keep the number instead, exact and in the same transaction as
-- the rows.
CREATE TABLE row_counts (
    table_name TEXT PRIMARY KEY,
    row_count  INTEGER NOT NULL
);
--bun:split
INSERT INTO row_counts (table_name, row_count) SELECT 'users', count(*) FROM users;
--bun:split
CREATE TRIGGER users_count_insert AFTER INSERT ON users BEGIN
    UPDATE row_counts SET row_count = row_count + 1 WHERE table_name = 'users';
END;
--bun:split
CREATE TRIGGER users_count_delete AFTER DELETE ON users BEGIN
    UPDATE row_counts SET row_count = row_count - 1 WHERE table_name = 'users';
END;
--bun:split
-- The admin users search also matches provider names and emails: a
-- trigram index over them, kept by triggers like users_fts, answers that
-- arm without scanning every linked account.
CREATE VIRTUAL TABLE provider_accounts_fts USING fts5(
    provider, email, content='provider_accounts', content_rowid='id', tokenize='trigram'
);
--bun:split
INSERT INTO provider_accounts_fts (provider_accounts_fts) VALUES ('rebuild');
--bun:split
CREATE TRIGGER provider_accounts_fts_insert AFTER INSERT ON provider_accounts BEGIN
    INSERT INTO provider_accounts_fts (rowid, provider, email) VALUES (new.id, new.provider, new.email);
END;
--bun:split
CREATE TRIGGER provider_accounts_fts_delete AFTER DELETE ON provider_accounts BEGIN
    INSERT INTO provider_accounts_fts (provider_accounts_fts, rowid, provider, email) VALUES ('delete', old.id, old.provider, old.email);
END;
--bun:split
CREATE TRIGGER provider_accounts_fts_update AFTER UPDATE OF provider, email ON provider_accounts BEGIN
    INSERT INTO provider_accounts_fts (provider_accounts_fts, rowid, provider, email) VALUES ('delete', old.id, old.provider, old.email);
    INSERT INTO provider_accounts_fts (rowid, provider, email) VALUES (new.id, new.provider, new.email);
END;
--bun:split
-- The admin list pages through users by id. Stepping over the table's own
-- b-tree reads whole rows; this index holds the ids alone, so a deep page
-- skips its offset in a few pages of keys.
CREATE INDEX users_id_idx ON users (id);
