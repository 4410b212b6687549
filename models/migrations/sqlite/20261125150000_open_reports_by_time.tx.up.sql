-- The moderation report counts the window's reports still open: read
-- from this index alone, not from every report of the window.
CREATE INDEX post_reports_open_created_idx ON post_reports (created_at) WHERE status = 'open';
