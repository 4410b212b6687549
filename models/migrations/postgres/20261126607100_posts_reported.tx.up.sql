-- The admin posts list's reported=true keeps the posts with any report,
-- open or settled (report_count > 0), newest first by default; this index
-- holds just those posts in that order, as posts_open_reports_idx does for
-- the posts with open reports.
CREATE INDEX posts_reported_idx ON posts (created_at, id) WHERE report_count > 0;
