-- Staff notes on a user, append-only and newest first; a note of kind
-- warning counts as a strike in the user's history.
CREATE TABLE user_notes (
    id         INTEGER PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    author_id  INTEGER REFERENCES users (id) ON DELETE SET NULL,
    kind       TEXT NOT NULL CHECK (kind IN ('note', 'warning')),
    body       TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
--bun:split
CREATE INDEX user_notes_user_id_idx ON user_notes (user_id, created_at);
