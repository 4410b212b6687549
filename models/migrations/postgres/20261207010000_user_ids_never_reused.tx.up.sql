-- A user's id is never handed out again. users.id is an identity, whose
-- sequence never goes back, so the table stays as it is (SQLite's step
-- makes its users.id AUTOINCREMENT for the same promise). The next id passes
-- every id still named by rows kept after their user is deleted
-- (models/user_refs.go lists them): a restore from a logical dump moved
-- the sequence only past the ids in use.
SELECT setval(pg_get_serial_sequence('users', 'id'), x.top)
FROM (SELECT GREATEST(
    (SELECT max(id) FROM users),
    (SELECT max(user_id) FROM sessions),
    (SELECT max(admin_id) FROM audit_log),
    (SELECT max(reporter_id) FROM settled_reports),
    (SELECT max(resolved_by) FROM settled_reports),
    (SELECT max(author_id) FROM moderation_actions),
    (SELECT max(user_id) FROM user_index_changes)) AS top) AS x
-- Only ever forward: a database with no user yet keeps its first id 1.
WHERE x.top > COALESCE(pg_sequence_last_value(pg_get_serial_sequence('users', 'id')::regclass), 0);

--bun:split

-- Sessions of accounts deleted before this step end now: their rows go, as
-- no account will have their user's id again.
DELETE FROM sessions WHERE user_id IS NOT NULL AND user_id NOT IN (SELECT id FROM users);
