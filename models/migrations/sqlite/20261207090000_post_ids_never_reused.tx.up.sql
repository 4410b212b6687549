-- A post's id is never handed out again: posts.id was an INTEGER PRIMARY
-- KEY, which SQLite fills with the largest id in use plus one, so deleting
-- the newest post gave its id to the next one, and with it the moderation
-- history and settled reports that outlive a post (they name its id
-- without a foreign key). AUTOINCREMENT changes nothing stored in the
-- table, only how SQLite picks the next id, so the definition is edited in
-- place, as the users step (20261207010000) does and for the same reasons.
PRAGMA writable_schema = ON;

--bun:split

UPDATE sqlite_master
SET sql = replace(sql, 'id           INTEGER PRIMARY KEY,', 'id           INTEGER PRIMARY KEY AUTOINCREMENT,')
WHERE type = 'table' AND name = 'posts' AND sql NOT LIKE '%AUTOINCREMENT%';

--bun:split

PRAGMA writable_schema = RESET;

--bun:split

-- A table made and dropped moves the schema's version, so that every other
-- connection reads the new definition; the CHECK fails the step if the
-- edit did not take.
CREATE TABLE posts_autoincrement_check (ok BOOLEAN NOT NULL CHECK (ok));

--bun:split

INSERT INTO posts_autoincrement_check (ok)
SELECT count(*) = 1 FROM sqlite_master WHERE type = 'table' AND name = 'posts' AND sql LIKE '%id           INTEGER PRIMARY KEY AUTOINCREMENT,%';

--bun:split

DROP TABLE posts_autoincrement_check;

--bun:split

INSERT INTO sqlite_sequence (name, seq) SELECT 'posts', 0
WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'posts');

--bun:split

-- The next id passes every id in use and every id the kept history names,
-- so that a post deleted before this step cannot come back either.
UPDATE sqlite_sequence SET seq = max(seq,
    COALESCE((SELECT max(id) FROM posts), 0),
    COALESCE((SELECT max(post_id) FROM moderation_actions), 0),
    COALESCE((SELECT max(post_id) FROM settled_reports), 0))
WHERE name = 'posts';
