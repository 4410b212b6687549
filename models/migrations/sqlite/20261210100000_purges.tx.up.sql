-- Spam-wave purges (docs/api.md, "Purges"): one row per purge, and what it
-- changed, so that an undo within 10 minutes puts back exactly that: each
-- account's status fields before and the ban it made, each post it hid with
-- its status before, each block it created. The hide records it writes on
-- moderation_actions carry its id, so an undo finds (and removes) its own.
CREATE TABLE purges (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    created_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
    created_at TIMESTAMP NOT NULL,
    undo_until TIMESTAMP NOT NULL,
    undone_at  TIMESTAMP,
    reason     TEXT NOT NULL DEFAULT ''
);
--bun:split
CREATE TABLE purge_accounts (
    purge_id          INTEGER NOT NULL REFERENCES purges (id) ON DELETE CASCADE,
    user_id           INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    username          TEXT NOT NULL,
    status_before     TEXT NOT NULL,
    is_active_before  BOOLEAN NOT NULL,
    updated_at_before TIMESTAMP NOT NULL,
    ban_id            INTEGER,
    hidden_posts      INTEGER NOT NULL DEFAULT 0,
    undone_at         TIMESTAMP,
    restored          BOOLEAN NOT NULL DEFAULT FALSE,
    restored_posts    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (purge_id, user_id)
);
--bun:split
CREATE INDEX purge_accounts_user_idx ON purge_accounts (user_id);
--bun:split
CREATE TABLE purge_posts (
    purge_id          INTEGER NOT NULL REFERENCES purges (id) ON DELETE CASCADE,
    post_id           INTEGER NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
    user_id           INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    status_before     TEXT NOT NULL,
    updated_at_before TIMESTAMP NOT NULL,
    PRIMARY KEY (purge_id, post_id)
);
--bun:split
CREATE INDEX purge_posts_user_idx ON purge_posts (purge_id, user_id);
--bun:split
CREATE INDEX purge_posts_post_idx ON purge_posts (post_id);
--bun:split
CREATE TABLE purge_blocks (
    purge_id   INTEGER NOT NULL REFERENCES purges (id) ON DELETE CASCADE,
    block_id   INTEGER NOT NULL,
    kind       TEXT NOT NULL,
    value      TEXT NOT NULL,
    removed_at TIMESTAMP,
    PRIMARY KEY (purge_id, block_id)
);
--bun:split
ALTER TABLE moderation_actions ADD COLUMN purge_id INTEGER;
--bun:split
CREATE INDEX moderation_actions_purge_idx ON moderation_actions (purge_id, post_id) WHERE purge_id IS NOT NULL;
