-- The moderation queue lists the posts awaiting a decision (open reports,
-- or flagged), most reported first, and counts them: this index holds
-- just those posts, in that order, so neither reads the other posts.
CREATE INDEX posts_review_idx ON posts (report_count, id) WHERE open_reports > 0 OR status = 'flagged';
--bun:split
-- All posts by report count (the queue's "all posts"): every post, not only
-- the reported ones, so that the first page is read from the index's end.
DROP INDEX IF EXISTS posts_report_count_idx;
--bun:split
CREATE INDEX posts_report_count_idx ON posts (report_count, id);
