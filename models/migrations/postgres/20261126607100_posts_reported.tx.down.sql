DROP INDEX IF EXISTS posts_reported_idx;
