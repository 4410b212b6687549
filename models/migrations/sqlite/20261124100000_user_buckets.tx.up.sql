-- PostgreSQL's step counts users per run of 1,024 ids, so that a deep page
-- of the admin users list skips little of the index. SQLite, sized for a
-- hundred thousand users, reaches any page from the nearer end in a few
-- milliseconds without it.
SELECT 1;
