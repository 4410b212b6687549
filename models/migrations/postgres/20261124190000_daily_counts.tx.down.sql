DROP TRIGGER IF EXISTS moderation_actions_daily_gone ON moderation_actions;
--bun:split
DROP TRIGGER IF EXISTS moderation_actions_daily ON moderation_actions;
--bun:split
DROP TRIGGER IF EXISTS post_reports_daily_created_gone ON post_reports;
--bun:split
DROP TRIGGER IF EXISTS post_reports_daily_created ON post_reports;
--bun:split
DROP TRIGGER IF EXISTS posts_daily_created_gone ON posts;
--bun:split
DROP TRIGGER IF EXISTS posts_daily_created ON posts;
--bun:split
DROP TRIGGER IF EXISTS users_daily_login_moved ON users;
--bun:split
DROP TRIGGER IF EXISTS users_daily_login_gone ON users;
--bun:split
DROP TRIGGER IF EXISTS users_daily_login ON users;
--bun:split
DROP TRIGGER IF EXISTS users_daily_created_gone ON users;
--bun:split
DROP TRIGGER IF EXISTS users_daily_created ON users;
--bun:split
DROP FUNCTION IF EXISTS plaza_daily_moved();
--bun:split
DROP FUNCTION IF EXISTS plaza_daily_rows();
--bun:split
DROP FUNCTION IF EXISTS plaza_daily_add(date[], text[], bigint[]);
--bun:split
DROP TABLE IF EXISTS daily_counts;
