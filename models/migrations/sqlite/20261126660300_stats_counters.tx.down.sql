DROP TRIGGER IF EXISTS users_hourly_users_created_insert;
--bun:split
DROP TRIGGER IF EXISTS users_hourly_users_created_delete;
--bun:split
DROP TRIGGER IF EXISTS users_hourly_users_last_login_insert;
--bun:split
DROP TRIGGER IF EXISTS users_hourly_users_last_login_delete;
--bun:split
DROP TRIGGER IF EXISTS posts_hourly_posts_created_insert;
--bun:split
DROP TRIGGER IF EXISTS posts_hourly_posts_created_delete;
--bun:split
DROP TRIGGER IF EXISTS post_reports_hourly_reports_created_insert;
--bun:split
DROP TRIGGER IF EXISTS post_reports_hourly_reports_created_delete;
--bun:split
DROP TRIGGER IF EXISTS moderation_actions_hourly_moderation_actions_insert;
--bun:split
DROP TRIGGER IF EXISTS moderation_actions_hourly_moderation_actions_delete;
--bun:split
DROP TRIGGER IF EXISTS logins_hourly_logins_insert;
--bun:split
DROP TRIGGER IF EXISTS logins_hourly_logins_delete;
--bun:split
DROP TRIGGER IF EXISTS analytics_events_hourly_events_insert;
--bun:split
DROP TRIGGER IF EXISTS analytics_events_hourly_events_delete;
--bun:split
DROP TRIGGER IF EXISTS users_hourly_users_last_login_moved;
--bun:split
DROP TRIGGER IF EXISTS posts_statuses_insert;
--bun:split
DROP TRIGGER IF EXISTS posts_statuses_delete;
--bun:split
DROP TRIGGER IF EXISTS posts_statuses_update;
--bun:split
DROP TRIGGER IF EXISTS users_statuses_insert;
--bun:split
DROP TRIGGER IF EXISTS users_statuses_delete;
--bun:split
DROP TRIGGER IF EXISTS users_statuses_update;
--bun:split
DELETE FROM row_counts WHERE table_name IN ('posts_draft', 'posts_hidden', 'users_inactive', 'users_banned');
--bun:split
DROP TABLE IF EXISTS hourly_counts;
