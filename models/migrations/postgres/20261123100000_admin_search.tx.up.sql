-- The admin users search matches provider account emails as well as the
-- user's own name, username and email; a trigram index keeps that arm as
-- quick as the others.
CREATE INDEX provider_accounts_email_trgm_idx ON provider_accounts USING gin (email gin_trgm_ops);

--bun:split

-- Counting a million users takes longer than a page of the admin list may;
-- triggers keep the number instead, exact and in the same transaction as
-- the rows (statement-level, so a bulk COPY updates it once).
CREATE TABLE row_counts (
    table_name text PRIMARY KEY,
    row_count  bigint NOT NULL
);

--bun:split

INSERT INTO row_counts (table_name, row_count) SELECT 'users', count(*) FROM users;

--bun:split

CREATE FUNCTION plaza_count_users() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE row_counts SET row_count = row_count + (SELECT count(*) FROM new_rows) WHERE table_name = 'users';
    ELSE
        UPDATE row_counts SET row_count = row_count - (SELECT count(*) FROM old_rows) WHERE table_name = 'users';
    END IF;
    RETURN NULL;
END
$$;

--bun:split

CREATE TRIGGER users_count_insert AFTER INSERT ON users
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION plaza_count_users();

--bun:split

CREATE TRIGGER users_count_delete AFTER DELETE ON users
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION plaza_count_users();
