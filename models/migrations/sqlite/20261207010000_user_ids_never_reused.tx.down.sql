-- users.id goes back to an INTEGER PRIMARY KEY without AUTOINCREMENT, edited
-- in place as the step up did.
PRAGMA writable_schema = ON;

--bun:split

UPDATE sqlite_master
SET sql = replace(sql, 'id             INTEGER PRIMARY KEY AUTOINCREMENT,', 'id             INTEGER PRIMARY KEY,')
WHERE type = 'table' AND name = 'users';

--bun:split

PRAGMA writable_schema = RESET;

--bun:split

CREATE TABLE users_autoincrement_check (ok BOOLEAN NOT NULL CHECK (ok));

--bun:split

INSERT INTO users_autoincrement_check (ok)
SELECT count(*) = 1 FROM sqlite_master WHERE type = 'table' AND name = 'users' AND sql NOT LIKE '%AUTOINCREMENT%';

--bun:split

DROP TABLE users_autoincrement_check;

--bun:split

DELETE FROM sqlite_sequence WHERE name = 'users';
