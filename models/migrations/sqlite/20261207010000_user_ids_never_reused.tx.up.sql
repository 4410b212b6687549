-- A user's id is never handed out again: users.id was an INTEGER PRIMARY
-- KEY, which SQLite fills with the largest id in use plus one, so deleting
-- the newest account gave its id to the next one, and with it whatever
-- still named that id (a session on another device, an audit actor, a
-- strike). With AUTOINCREMENT SQLite takes ids from sqlite_sequence, which
-- only grows.
--
-- The table is not rebuilt. A rebuild must drop the old table, and with
-- foreign keys on (they cannot be turned off inside a transaction, and
-- renaming a table then repoints every reference to it) that drop deletes
-- its rows first, cascading to every post, report and role. AUTOINCREMENT
-- changes nothing that is stored in the table, only how SQLite picks the
-- next id, so the step edits the table's definition in place, the way
-- SQLite's documentation describes for changes that leave the stored rows
-- as they are; triggers, indexes, foreign keys and the search table stay
-- as they were.
PRAGMA writable_schema = ON;

--bun:split

UPDATE sqlite_master
SET sql = replace(sql, 'id             INTEGER PRIMARY KEY,', 'id             INTEGER PRIMARY KEY AUTOINCREMENT,')
WHERE type = 'table' AND name = 'users' AND sql NOT LIKE '%AUTOINCREMENT%';

--bun:split

-- RESET turns editing off again and makes this connection read the new
-- definition.
PRAGMA writable_schema = RESET;

--bun:split

-- A table made and dropped moves the schema's version, so that every other
-- connection reads the new definition too; on the way it checks that the
-- edit took (the CHECK fails the step otherwise).
CREATE TABLE users_autoincrement_check (ok BOOLEAN NOT NULL CHECK (ok));

--bun:split

INSERT INTO users_autoincrement_check (ok)
SELECT count(*) = 1 FROM sqlite_master WHERE type = 'table' AND name = 'users' AND sql LIKE '%id             INTEGER PRIMARY KEY AUTOINCREMENT,%';

--bun:split

DROP TABLE users_autoincrement_check;

--bun:split

-- The next id passes every id in use, and every id still named by rows
-- kept after their user is deleted (models/user_refs.go lists them), so
-- that an account deleted before this step cannot come back either.
INSERT INTO sqlite_sequence (name, seq) SELECT 'users', 0
WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'users');

--bun:split

UPDATE sqlite_sequence SET seq = max(seq,
    COALESCE((SELECT max(id) FROM users), 0),
    COALESCE((SELECT max(user_id) FROM sessions), 0),
    COALESCE((SELECT max(admin_id) FROM audit_log), 0),
    COALESCE((SELECT max(reporter_id) FROM settled_reports), 0),
    COALESCE((SELECT max(resolved_by) FROM settled_reports), 0),
    COALESCE((SELECT max(author_id) FROM moderation_actions), 0),
    COALESCE((SELECT max(user_id) FROM user_index_changes), 0))
WHERE name = 'users';

--bun:split

-- Sessions of accounts deleted before this step end now: their rows go, as
-- no account will have their user's id again.
DELETE FROM sessions WHERE user_id IS NOT NULL AND user_id NOT IN (SELECT id FROM users);
