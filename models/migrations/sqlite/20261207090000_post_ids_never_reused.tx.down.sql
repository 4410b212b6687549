-- posts.id goes back to an INTEGER PRIMARY KEY without AUTOINCREMENT,
-- edited in place as the step up did.
PRAGMA writable_schema = ON;

--bun:split

UPDATE sqlite_master
SET sql = replace(sql, 'id           INTEGER PRIMARY KEY AUTOINCREMENT,', 'id           INTEGER PRIMARY KEY,')
WHERE type = 'table' AND name = 'posts';

--bun:split

PRAGMA writable_schema = RESET;

--bun:split

CREATE TABLE posts_autoincrement_check (ok BOOLEAN NOT NULL CHECK (ok));

--bun:split

INSERT INTO posts_autoincrement_check (ok)
SELECT count(*) = 1 FROM sqlite_master WHERE type = 'table' AND name = 'posts' AND sql NOT LIKE '%AUTOINCREMENT%';

--bun:split

DROP TABLE posts_autoincrement_check;

--bun:split

DELETE FROM sqlite_sequence WHERE name = 'posts';
