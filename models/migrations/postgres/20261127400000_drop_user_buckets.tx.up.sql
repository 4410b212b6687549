-- The users index (user_index_changes) serves every page of the admin
-- users lists now; the per-run counts of users no page reads would only
-- cost each sign-up and deletion a trigger.
DROP TRIGGER IF EXISTS users_bucket_delete ON users;
--bun:split
DROP TRIGGER IF EXISTS users_bucket_insert ON users;
--bun:split
DROP FUNCTION IF EXISTS plaza_count_user_buckets();
--bun:split
DROP TABLE IF EXISTS user_id_buckets;
