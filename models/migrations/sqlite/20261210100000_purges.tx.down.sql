DROP INDEX moderation_actions_purge_idx;
--bun:split
ALTER TABLE moderation_actions DROP COLUMN purge_id;
--bun:split
DROP TABLE purge_blocks;
--bun:split
DROP TABLE purge_posts;
--bun:split
DROP TABLE purge_accounts;
--bun:split
DROP TABLE purges;
