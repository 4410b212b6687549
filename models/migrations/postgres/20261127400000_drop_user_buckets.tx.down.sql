CREATE TABLE user_id_buckets (
    bucket    bigint PRIMARY KEY,
    row_count bigint NOT NULL
);

--bun:split

INSERT INTO user_id_buckets (bucket, row_count) SELECT id / 1024, count(*) FROM users GROUP BY 1;

--bun:split

CREATE FUNCTION plaza_count_user_buckets() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO user_id_buckets (bucket, row_count)
            SELECT id / 1024, count(*) FROM new_rows GROUP BY 1 ORDER BY 1
            ON CONFLICT (bucket) DO UPDATE SET row_count = user_id_buckets.row_count + EXCLUDED.row_count;
    ELSE
        UPDATE user_id_buckets AS b SET row_count = b.row_count - d.n
            FROM (SELECT id / 1024 AS bucket, count(*) AS n FROM old_rows GROUP BY 1) AS d
            WHERE b.bucket = d.bucket;
    END IF;
    RETURN NULL;
END
$$;

--bun:split

CREATE TRIGGER users_bucket_insert AFTER INSERT ON users
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION plaza_count_user_buckets();

--bun:split

CREATE TRIGGER users_bucket_delete AFTER DELETE ON users
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION plaza_count_user_buckets();
