-- Each UTC day's counts of what analytics count in a window (users and
-- posts made, users whose latest sign-in fell then, reports filed,
-- moderation actions), kept by triggers in the same transaction as the
-- rows, so a window costs a few hundred counter rows whatever its size.
CREATE TABLE daily_counts (
    day    TEXT NOT NULL,
    metric TEXT NOT NULL,
    n      INTEGER NOT NULL,
    PRIMARY KEY (day, metric)
);
--bun:split
CREATE TRIGGER users_daily_users_created_insert AFTER INSERT ON users WHEN NEW.created_at IS NOT NULL BEGIN
    INSERT INTO daily_counts (day, metric, n) VALUES (substr(NEW.created_at, 1, 10), 'users_created', 1)
    ON CONFLICT (day, metric) DO UPDATE SET n = n + 1;
END;
--bun:split
CREATE TRIGGER users_daily_users_created_delete AFTER DELETE ON users WHEN OLD.created_at IS NOT NULL BEGIN
    UPDATE daily_counts SET n = n - 1 WHERE day = substr(OLD.created_at, 1, 10) AND metric = 'users_created';
END;
--bun:split
CREATE TRIGGER users_daily_users_last_login_insert AFTER INSERT ON users WHEN NEW.last_login_at IS NOT NULL BEGIN
    INSERT INTO daily_counts (day, metric, n) VALUES (substr(NEW.last_login_at, 1, 10), 'users_last_login', 1)
    ON CONFLICT (day, metric) DO UPDATE SET n = n + 1;
END;
--bun:split
CREATE TRIGGER users_daily_users_last_login_delete AFTER DELETE ON users WHEN OLD.last_login_at IS NOT NULL BEGIN
    UPDATE daily_counts SET n = n - 1 WHERE day = substr(OLD.last_login_at, 1, 10) AND metric = 'users_last_login';
END;
--bun:split
CREATE TRIGGER posts_daily_posts_created_insert AFTER INSERT ON posts WHEN NEW.created_at IS NOT NULL BEGIN
    INSERT INTO daily_counts (day, metric, n) VALUES (substr(NEW.created_at, 1, 10), 'posts_created', 1)
    ON CONFLICT (day, metric) DO UPDATE SET n = n + 1;
END;
--bun:split
CREATE TRIGGER posts_daily_posts_created_delete AFTER DELETE ON posts WHEN OLD.created_at IS NOT NULL BEGIN
    UPDATE daily_counts SET n = n - 1 WHERE day = substr(OLD.created_at, 1, 10) AND metric = 'posts_created';
END;
--bun:split
CREATE TRIGGER post_reports_daily_reports_created_insert AFTER INSERT ON post_reports WHEN NEW.created_at IS NOT NULL BEGIN
    INSERT INTO daily_counts (day, metric, n) VALUES (substr(NEW.created_at, 1, 10), 'reports_created', 1)
    ON CONFLICT (day, metric) DO UPDATE SET n = n + 1;
END;
--bun:split
CREATE TRIGGER post_reports_daily_reports_created_delete AFTER DELETE ON post_reports WHEN OLD.created_at IS NOT NULL BEGIN
    UPDATE daily_counts SET n = n - 1 WHERE day = substr(OLD.created_at, 1, 10) AND metric = 'reports_created';
END;
--bun:split
CREATE TRIGGER moderation_actions_daily_moderation_actions_insert AFTER INSERT ON moderation_actions WHEN NEW.created_at IS NOT NULL BEGIN
    INSERT INTO daily_counts (day, metric, n) VALUES (substr(NEW.created_at, 1, 10), 'moderation_actions', 1)
    ON CONFLICT (day, metric) DO UPDATE SET n = n + 1;
END;
--bun:split
CREATE TRIGGER moderation_actions_daily_moderation_actions_delete AFTER DELETE ON moderation_actions WHEN OLD.created_at IS NOT NULL BEGIN
    UPDATE daily_counts SET n = n - 1 WHERE day = substr(OLD.created_at, 1, 10) AND metric = 'moderation_actions';
END;
--bun:split
-- A sign-in moves a user from the day of the previous one to today.
CREATE TRIGGER users_daily_users_last_login_moved AFTER UPDATE OF last_login_at ON users
WHEN OLD.last_login_at IS NOT NEW.last_login_at BEGIN
    UPDATE daily_counts SET n = n - 1 WHERE day = substr(OLD.last_login_at, 1, 10) AND metric = 'users_last_login';
    INSERT INTO daily_counts (day, metric, n) SELECT substr(NEW.last_login_at, 1, 10), 'users_last_login', 1
    WHERE NEW.last_login_at IS NOT NULL
    ON CONFLICT (day, metric) DO UPDATE SET n = n + 1;
END;
--bun:split
INSERT INTO daily_counts (day, metric, n)
SELECT substr(created_at, 1, 10), 'users_created', count(*) FROM users GROUP BY 1
UNION ALL SELECT substr(last_login_at, 1, 10), 'users_last_login', count(*) FROM users WHERE last_login_at IS NOT NULL GROUP BY 1
UNION ALL SELECT substr(created_at, 1, 10), 'posts_created', count(*) FROM posts GROUP BY 1
UNION ALL SELECT substr(created_at, 1, 10), 'reports_created', count(*) FROM post_reports GROUP BY 1
UNION ALL SELECT substr(created_at, 1, 10), 'moderation_actions', count(*) FROM moderation_actions GROUP BY 1;
