-- The words of post titles and of users' usernames and names, for searches
-- that match nothing: each word of the search is replaced by the closest
-- word here (trigram similarity), then the search runs again. A table of
-- distinct words answers that in about a millisecond, where the titles'
-- own trigram index took seconds over two million posts. Triggers add the
-- words of every new or renamed row; none is ever removed, since a word
-- that no longer occurs only leads a correction to a search that finds
-- nothing.
CREATE TABLE search_words (
    word text PRIMARY KEY
);

--bun:split

CREATE INDEX search_words_trgm_idx ON search_words USING gin (word gin_trgm_ops);

--bun:split

-- The distinct words of a text: lower case, split at anything but a
-- letter (so the handle maria_garcia42 gives maria and garcia), 3 to 40
-- letters, in order (writers that insert the same new words then take
-- their locks in the same order).
CREATE FUNCTION plaza_words(text) RETURNS SETOF text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT DISTINCT w FROM regexp_split_to_table(lower($1), '[^[:alpha:]]+') AS w
    WHERE length(w) BETWEEN 3 AND 40 ORDER BY w
$$;

--bun:split

CREATE FUNCTION plaza_learn_post_words() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_LEVEL = 'STATEMENT' THEN
        INSERT INTO search_words (word)
            SELECT DISTINCT w FROM new_rows, plaza_words(new_rows.title) AS w ORDER BY w
            ON CONFLICT DO NOTHING;
    ELSE
        INSERT INTO search_words (word) SELECT plaza_words(NEW.title) ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
END
$$;

--bun:split

CREATE TRIGGER posts_learn_words_insert AFTER INSERT ON posts
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION plaza_learn_post_words();

--bun:split

CREATE TRIGGER posts_learn_words_update AFTER UPDATE OF title ON posts
    FOR EACH ROW WHEN (OLD.title IS DISTINCT FROM NEW.title) EXECUTE FUNCTION plaza_learn_post_words();

--bun:split

CREATE FUNCTION plaza_learn_user_words() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_LEVEL = 'STATEMENT' THEN
        INSERT INTO search_words (word)
            SELECT DISTINCT w FROM new_rows, plaza_words(new_rows.username || ' ' || coalesce(new_rows.name, '')) AS w
            ORDER BY w
            ON CONFLICT DO NOTHING;
    ELSE
        INSERT INTO search_words (word) SELECT plaza_words(NEW.username || ' ' || coalesce(NEW.name, ''))
            ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
END
$$;

--bun:split

CREATE TRIGGER users_learn_words_insert AFTER INSERT ON users
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION plaza_learn_user_words();

--bun:split

CREATE TRIGGER users_learn_words_update AFTER UPDATE OF username, name ON users
    FOR EACH ROW WHEN (OLD.username IS DISTINCT FROM NEW.username OR OLD.name IS DISTINCT FROM NEW.name)
    EXECUTE FUNCTION plaza_learn_user_words();

--bun:split

INSERT INTO search_words (word) SELECT DISTINCT w FROM posts, plaza_words(posts.title) AS w ON CONFLICT DO NOTHING;

--bun:split

INSERT INTO search_words (word)
    SELECT DISTINCT w FROM users, plaza_words(users.username || ' ' || coalesce(users.name, '')) AS w
    ON CONFLICT DO NOTHING;
