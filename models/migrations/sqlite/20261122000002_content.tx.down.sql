DROP TABLE IF EXISTS users_fts;
--bun:split
DROP TABLE IF EXISTS posts_fts;
--bun:split
DROP TABLE IF EXISTS uploads;
--bun:split
DROP TABLE IF EXISTS moderation_actions;
--bun:split
DROP TABLE IF EXISTS post_reports;
--bun:split
DROP TABLE IF EXISTS post_tags;
--bun:split
DROP TABLE IF EXISTS posts;
