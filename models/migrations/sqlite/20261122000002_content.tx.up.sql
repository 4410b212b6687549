-- Posts, their tags and reports, moderation history and uploaded files.
CREATE TABLE posts (
    id           INTEGER PRIMARY KEY,
    author_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    title        TEXT NOT NULL,
    content      TEXT NOT NULL DEFAULT '',
    status       TEXT NOT NULL DEFAULT 'draft' CHECK (status IN ('published', 'draft', 'hidden', 'flagged')),
    report_count INTEGER NOT NULL DEFAULT 0,
    created_at   TIMESTAMP NOT NULL,
    updated_at   TIMESTAMP NOT NULL,
    published_at TIMESTAMP
);
--bun:split
CREATE INDEX posts_author_id_idx ON posts (author_id, created_at);
--bun:split
CREATE INDEX posts_created_at_idx ON posts (created_at, id);
--bun:split
CREATE INDEX posts_updated_at_idx ON posts (updated_at, id);
--bun:split
CREATE INDEX posts_status_created_at_idx ON posts (status, created_at);
--bun:split
CREATE INDEX posts_report_count_idx ON posts (report_count, id) WHERE report_count > 0;
--bun:split
CREATE INDEX posts_title_idx ON posts (title, id);

--bun:split

CREATE TABLE post_tags (
    post_id INTEGER NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
    tag     TEXT NOT NULL,
    PRIMARY KEY (post_id, tag)
);
--bun:split
CREATE INDEX post_tags_tag_idx ON post_tags (tag, post_id);

--bun:split

CREATE TABLE post_reports (
    id          INTEGER PRIMARY KEY,
    post_id     INTEGER NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
    reporter_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    reason      TEXT NOT NULL,
    status      TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved', 'dismissed')),
    created_at  TIMESTAMP NOT NULL,
    resolved_at TIMESTAMP,
    resolved_by INTEGER REFERENCES users (id) ON DELETE SET NULL
);
--bun:split
CREATE INDEX post_reports_post_id_idx ON post_reports (post_id, created_at);
--bun:split
CREATE UNIQUE INDEX post_reports_one_open_key ON post_reports (post_id, reporter_id) WHERE status = 'open';
--bun:split
CREATE INDEX post_reports_created_at_idx ON post_reports (created_at);
--bun:split
CREATE INDEX post_reports_resolved_at_idx ON post_reports (resolved_at) WHERE resolved_at IS NOT NULL;

--bun:split

-- post_id has no foreign key: the history outlives a deleted post.
CREATE TABLE moderation_actions (
    id          INTEGER PRIMARY KEY,
    post_id     INTEGER NOT NULL,
    post_title  TEXT NOT NULL DEFAULT '',
    admin_id    INTEGER REFERENCES users (id) ON DELETE SET NULL,
    action      TEXT NOT NULL CHECK (action IN ('approve', 'hide', 'delete', 'flag')),
    reason      TEXT NOT NULL DEFAULT '',
    notes       TEXT NOT NULL DEFAULT '',
    from_status TEXT NOT NULL,
    to_status   TEXT NOT NULL,
    created_at  TIMESTAMP NOT NULL
);
--bun:split
CREATE INDEX moderation_actions_created_at_idx ON moderation_actions (created_at);
--bun:split
CREATE INDEX moderation_actions_admin_id_idx ON moderation_actions (admin_id, created_at);
--bun:split
CREATE INDEX moderation_actions_post_id_idx ON moderation_actions (post_id);

--bun:split

CREATE TABLE uploads (
    id         INTEGER PRIMARY KEY,
    kind       TEXT NOT NULL CHECK (kind IN ('avatar', 'attachment')),
    path       TEXT NOT NULL UNIQUE,
    size_bytes INTEGER NOT NULL DEFAULT 0,
    user_id    INTEGER REFERENCES users (id) ON DELETE SET NULL,
    post_id    INTEGER REFERENCES posts (id) ON DELETE SET NULL,
    created_at TIMESTAMP NOT NULL
);
--bun:split
CREATE INDEX uploads_kind_idx ON uploads (kind, created_at);

--bun:split

-- Full-text search over posts (porter-stemmed, ranked) and substring search
-- over users (trigram), kept current by triggers so every write updates them.
CREATE VIRTUAL TABLE posts_fts USING fts5(
    title, content, content='posts', content_rowid='id', tokenize='porter unicode61'
);
--bun:split
CREATE TRIGGER posts_fts_insert AFTER INSERT ON posts BEGIN
    INSERT INTO posts_fts (rowid, title, content) VALUES (new.id, new.title, new.content);
END;
--bun:split
CREATE TRIGGER posts_fts_delete AFTER DELETE ON posts BEGIN
    INSERT INTO posts_fts (posts_fts, rowid, title, content) VALUES ('delete', old.id, old.title, old.content);
END;
--bun:split
CREATE TRIGGER posts_fts_update AFTER UPDATE OF title, content ON posts BEGIN
    INSERT INTO posts_fts (posts_fts, rowid, title, content) VALUES ('delete', old.id, old.title, old.content);
    INSERT INTO posts_fts (rowid, title, content) VALUES (new.id, new.title, new.content);
END;
--bun:split
CREATE VIRTUAL TABLE users_fts USING fts5(
    username, name, email, content='users', content_rowid='id', tokenize='trigram'
);
--bun:split
CREATE TRIGGER users_fts_insert AFTER INSERT ON users BEGIN
    INSERT INTO users_fts (rowid, username, name, email) VALUES (new.id, new.username, new.name, new.email);
END;
--bun:split
CREATE TRIGGER users_fts_delete AFTER DELETE ON users BEGIN
    INSERT INTO users_fts (users_fts, rowid, username, name, email) VALUES ('delete', old.id, old.username, old.name, old.email);
END;
--bun:split
CREATE TRIGGER users_fts_update AFTER UPDATE OF username, name, email ON users BEGIN
    INSERT INTO users_fts (users_fts, rowid, username, name, email) VALUES ('delete', old.id, old.username, old.name, old.email);
    INSERT INTO users_fts (rowid, username, name, email) VALUES (new.id, new.username, new.name, new.email);
END;
