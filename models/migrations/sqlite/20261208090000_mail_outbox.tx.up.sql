CREATE TABLE mail_messages (
    id         INTEGER PRIMARY KEY,
    kind       TEXT NOT NULL,
    recipient  TEXT NOT NULL,
    subject    TEXT NOT NULL,
    text_body  TEXT NOT NULL,
    html_body  TEXT NOT NULL DEFAULT '',
    secret     BOOLEAN NOT NULL DEFAULT false,
    status     TEXT NOT NULL CHECK (status IN ('queued', 'sent', 'failed', 'held')),
    attempts   INTEGER NOT NULL DEFAULT 0,
    last_error TEXT NOT NULL DEFAULT '',
    user_id    INTEGER REFERENCES users (id) ON DELETE SET NULL,
    created_at TIMESTAMP NOT NULL,
    sent_at    TIMESTAMP
);
--bun:split
CREATE INDEX mail_messages_created_idx ON mail_messages (created_at, id);
--bun:split
CREATE INDEX mail_messages_user_idx ON mail_messages (user_id);
