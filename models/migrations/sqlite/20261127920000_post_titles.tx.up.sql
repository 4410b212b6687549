-- The admin posts title search finds a term of three characters or more
-- through a trigram index of the titles, which lists its matches newest
-- first; a shorter term walks the posts. (PostgreSQL keeps a narrow copy
-- of the posts instead, under the same name without the suffix.)
CREATE VIRTUAL TABLE post_titles_fts USING fts5(
    title, content='posts', content_rowid='id', tokenize='trigram'
);
--bun:split
INSERT INTO post_titles_fts (post_titles_fts) VALUES ('rebuild');
--bun:split
CREATE TRIGGER post_titles_fts_insert AFTER INSERT ON posts BEGIN
    INSERT INTO post_titles_fts (rowid, title) VALUES (new.id, new.title);
END;
--bun:split
CREATE TRIGGER post_titles_fts_delete AFTER DELETE ON posts BEGIN
    INSERT INTO post_titles_fts (post_titles_fts, rowid, title) VALUES ('delete', old.id, old.title);
END;
--bun:split
CREATE TRIGGER post_titles_fts_update AFTER UPDATE OF title ON posts BEGIN
    INSERT INTO post_titles_fts (post_titles_fts, rowid, title) VALUES ('delete', old.id, old.title);
    INSERT INTO post_titles_fts (rowid, title) VALUES (new.id, new.title);
END;
