-- Sessions are keyed by the SHA-256 of their token (hex), never by the
-- token: a copy of the table must sign nobody in. SQLite has no SHA-256 in
-- SQL, so existing sessions end: everyone signs in again once. Maintenance
-- jobs' arguments that named a session by its token now name an ended one.
DELETE FROM sessions;
