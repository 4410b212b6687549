-- A post's id is never handed out again. posts.id is an identity, whose
-- sequence never goes back, so the table stays as it is (SQLite's step
-- makes its posts.id AUTOINCREMENT for the same promise). The next id
-- passes every id the moderation history and settled reports still name,
-- which outlive a post: a restore from a logical dump moved the sequence
-- only past the ids in use.
SELECT setval(pg_get_serial_sequence('posts', 'id'), x.top)
FROM (SELECT GREATEST(
    (SELECT max(id) FROM posts),
    (SELECT max(post_id) FROM moderation_actions),
    (SELECT max(post_id) FROM settled_reports)) AS top) AS x
-- Only ever forward: a database with no post yet keeps its first id 1.
WHERE x.top > COALESCE(pg_sequence_last_value(pg_get_serial_sequence('posts', 'id')::regclass), 0);
