-- Posts created per UTC day (YYYY-MM-DD, as daily_counts) and status, kept
-- exact by triggers: a deep page of the admin posts list filtered by status,
-- by creation time, starts from the day these counts place its offset in.
CREATE TABLE post_status_days (
    status TEXT    NOT NULL,
    day    TEXT    NOT NULL,
    n      INTEGER NOT NULL,
    PRIMARY KEY (status, day)
);
--bun:split
INSERT INTO post_status_days (status, day, n)
SELECT status, substr(created_at, 1, 10), count(*) FROM posts GROUP BY 1, 2;
--bun:split
CREATE TRIGGER posts_status_days_insert AFTER INSERT ON posts BEGIN
    INSERT INTO post_status_days (status, day, n) VALUES (NEW.status, substr(NEW.created_at, 1, 10), 1)
    ON CONFLICT (status, day) DO UPDATE SET n = n + 1;
END;
--bun:split
CREATE TRIGGER posts_status_days_delete AFTER DELETE ON posts BEGIN
    UPDATE post_status_days SET n = n - 1 WHERE status = OLD.status AND day = substr(OLD.created_at, 1, 10);
END;
--bun:split
CREATE TRIGGER posts_status_days_update AFTER UPDATE OF status, created_at ON posts
WHEN OLD.status IS NOT NEW.status OR substr(OLD.created_at, 1, 10) IS NOT substr(NEW.created_at, 1, 10) BEGIN
    UPDATE post_status_days SET n = n - 1 WHERE status = OLD.status AND day = substr(OLD.created_at, 1, 10);
    INSERT INTO post_status_days (status, day, n) VALUES (NEW.status, substr(NEW.created_at, 1, 10), 1)
    ON CONFLICT (status, day) DO UPDATE SET n = n + 1;
END;
