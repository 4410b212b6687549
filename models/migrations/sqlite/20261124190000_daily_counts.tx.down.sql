DROP TRIGGER IF EXISTS users_daily_users_created_insert;
--bun:split
DROP TRIGGER IF EXISTS users_daily_users_created_delete;
--bun:split
DROP TRIGGER IF EXISTS users_daily_users_last_login_insert;
--bun:split
DROP TRIGGER IF EXISTS users_daily_users_last_login_delete;
--bun:split
DROP TRIGGER IF EXISTS posts_daily_posts_created_insert;
--bun:split
DROP TRIGGER IF EXISTS posts_daily_posts_created_delete;
--bun:split
DROP TRIGGER IF EXISTS post_reports_daily_reports_created_insert;
--bun:split
DROP TRIGGER IF EXISTS post_reports_daily_reports_created_delete;
--bun:split
DROP TRIGGER IF EXISTS moderation_actions_daily_moderation_actions_insert;
--bun:split
DROP TRIGGER IF EXISTS moderation_actions_daily_moderation_actions_delete;
--bun:split
DROP TRIGGER IF EXISTS users_daily_users_last_login_moved;
--bun:split
DROP TABLE IF EXISTS daily_counts;
