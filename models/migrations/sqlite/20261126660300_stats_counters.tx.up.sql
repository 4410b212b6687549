-- The admin stats and the dashboard read counters only. Two kinds are
-- added, kept by triggers in the same transaction as the rows:
--
-- hourly_counts: each UTC hour's count ('YYYY-MM-DD HH') of what
-- daily_counts counts by day, and of analytics events, so that a window's
-- partial days (all of a day window) cost a few counter rows too, and
-- today's events are a sum of at most 24 rows instead of a scan.
--
-- row_counts: posts that are drafts or hidden, users inactive or banned.
CREATE TABLE hourly_counts (
    hour   TEXT NOT NULL,
    metric TEXT NOT NULL,
    n      INTEGER NOT NULL,
    PRIMARY KEY (hour, metric)
);
--bun:split
CREATE TRIGGER users_hourly_users_created_insert AFTER INSERT ON users WHEN NEW.created_at IS NOT NULL BEGIN
    INSERT INTO hourly_counts (hour, metric, n) VALUES (substr(NEW.created_at, 1, 13), 'users_created', 1)
    ON CONFLICT (hour, metric) DO UPDATE SET n = n + 1;
END;
--bun:split
CREATE TRIGGER users_hourly_users_created_delete AFTER DELETE ON users WHEN OLD.created_at IS NOT NULL BEGIN
    UPDATE hourly_counts SET n = n - 1 WHERE hour = substr(OLD.created_at, 1, 13) AND metric = 'users_created';
END;
--bun:split
CREATE TRIGGER users_hourly_users_last_login_insert AFTER INSERT ON users WHEN NEW.last_login_at IS NOT NULL BEGIN
    INSERT INTO hourly_counts (hour, metric, n) VALUES (substr(NEW.last_login_at, 1, 13), 'users_last_login', 1)
    ON CONFLICT (hour, metric) DO UPDATE SET n = n + 1;
END;
--bun:split
CREATE TRIGGER users_hourly_users_last_login_delete AFTER DELETE ON users WHEN OLD.last_login_at IS NOT NULL BEGIN
    UPDATE hourly_counts SET n = n - 1 WHERE hour = substr(OLD.last_login_at, 1, 13) AND metric = 'users_last_login';
END;
--bun:split
CREATE TRIGGER posts_hourly_posts_created_insert AFTER INSERT ON posts WHEN NEW.created_at IS NOT NULL BEGIN
    INSERT INTO hourly_counts (hour, metric, n) VALUES (substr(NEW.created_at, 1, 13), 'posts_created', 1)
    ON CONFLICT (hour, metric) DO UPDATE SET n = n + 1;
END;
--bun:split
CREATE TRIGGER posts_hourly_posts_created_delete AFTER DELETE ON posts WHEN OLD.created_at IS NOT NULL BEGIN
    UPDATE hourly_counts SET n = n - 1 WHERE hour = substr(OLD.created_at, 1, 13) AND metric = 'posts_created';
END;
--bun:split
CREATE TRIGGER post_reports_hourly_reports_created_insert AFTER INSERT ON post_reports WHEN NEW.created_at IS NOT NULL BEGIN
    INSERT INTO hourly_counts (hour, metric, n) VALUES (substr(NEW.created_at, 1, 13), 'reports_created', 1)
    ON CONFLICT (hour, metric) DO UPDATE SET n = n + 1;
END;
--bun:split
CREATE TRIGGER post_reports_hourly_reports_created_delete AFTER DELETE ON post_reports WHEN OLD.created_at IS NOT NULL BEGIN
    UPDATE hourly_counts SET n = n - 1 WHERE hour = substr(OLD.created_at, 1, 13) AND metric = 'reports_created';
END;
--bun:split
CREATE TRIGGER moderation_actions_hourly_moderation_actions_insert AFTER INSERT ON moderation_actions WHEN NEW.created_at IS NOT NULL BEGIN
    INSERT INTO hourly_counts (hour, metric, n) VALUES (substr(NEW.created_at, 1, 13), 'moderation_actions', 1)
    ON CONFLICT (hour, metric) DO UPDATE SET n = n + 1;
END;
--bun:split
CREATE TRIGGER moderation_actions_hourly_moderation_actions_delete AFTER DELETE ON moderation_actions WHEN OLD.created_at IS NOT NULL BEGIN
    UPDATE hourly_counts SET n = n - 1 WHERE hour = substr(OLD.created_at, 1, 13) AND metric = 'moderation_actions';
END;
--bun:split
CREATE TRIGGER logins_hourly_logins_insert AFTER INSERT ON logins WHEN NEW.created_at IS NOT NULL BEGIN
    INSERT INTO hourly_counts (hour, metric, n) VALUES (substr(NEW.created_at, 1, 13), 'logins', 1)
    ON CONFLICT (hour, metric) DO UPDATE SET n = n + 1;
END;
--bun:split
CREATE TRIGGER logins_hourly_logins_delete AFTER DELETE ON logins WHEN OLD.created_at IS NOT NULL BEGIN
    UPDATE hourly_counts SET n = n - 1 WHERE hour = substr(OLD.created_at, 1, 13) AND metric = 'logins';
END;
--bun:split
CREATE TRIGGER analytics_events_hourly_events_insert AFTER INSERT ON analytics_events WHEN NEW.occurred_at IS NOT NULL BEGIN
    INSERT INTO hourly_counts (hour, metric, n) VALUES (substr(NEW.occurred_at, 1, 13), 'events', 1)
    ON CONFLICT (hour, metric) DO UPDATE SET n = n + 1;
END;
--bun:split
CREATE TRIGGER analytics_events_hourly_events_delete AFTER DELETE ON analytics_events WHEN OLD.occurred_at IS NOT NULL BEGIN
    UPDATE hourly_counts SET n = n - 1 WHERE hour = substr(OLD.occurred_at, 1, 13) AND metric = 'events';
END;
--bun:split
-- A sign-in moves a user from the hour of the previous one to now.
CREATE TRIGGER users_hourly_users_last_login_moved AFTER UPDATE OF last_login_at ON users
WHEN OLD.last_login_at IS NOT NEW.last_login_at BEGIN
    UPDATE hourly_counts SET n = n - 1 WHERE hour = substr(OLD.last_login_at, 1, 13) AND metric = 'users_last_login';
    INSERT INTO hourly_counts (hour, metric, n) SELECT substr(NEW.last_login_at, 1, 13), 'users_last_login', 1
    WHERE NEW.last_login_at IS NOT NULL
    ON CONFLICT (hour, metric) DO UPDATE SET n = n + 1;
END;
--bun:split
INSERT INTO hourly_counts (hour, metric, n)
SELECT substr(created_at, 1, 13), 'users_created', count(*) FROM users GROUP BY 1
UNION ALL SELECT substr(last_login_at, 1, 13), 'users_last_login', count(*) FROM users WHERE last_login_at IS NOT NULL GROUP BY 1
UNION ALL SELECT substr(created_at, 1, 13), 'posts_created', count(*) FROM posts GROUP BY 1
UNION ALL SELECT substr(created_at, 1, 13), 'reports_created', count(*) FROM post_reports GROUP BY 1
UNION ALL SELECT substr(created_at, 1, 13), 'moderation_actions', count(*) FROM moderation_actions GROUP BY 1
UNION ALL SELECT substr(created_at, 1, 13), 'logins', count(*) FROM logins GROUP BY 1
UNION ALL SELECT substr(occurred_at, 1, 13), 'events', count(*) FROM analytics_events GROUP BY 1;
--bun:split
INSERT INTO row_counts (table_name, row_count)
SELECT 'posts_draft', count(*) FROM posts WHERE status = 'draft'
UNION ALL SELECT 'posts_hidden', count(*) FROM posts WHERE status = 'hidden'
UNION ALL SELECT 'users_inactive', count(*) FROM users WHERE status = 'inactive'
UNION ALL SELECT 'users_banned', count(*) FROM users WHERE status = 'banned';
--bun:split
CREATE TRIGGER posts_statuses_insert AFTER INSERT ON posts WHEN NEW.status IN ('draft', 'hidden') BEGIN
    UPDATE row_counts SET row_count = row_count + 1 WHERE table_name = 'posts_' || NEW.status;
END;
--bun:split
CREATE TRIGGER posts_statuses_delete AFTER DELETE ON posts WHEN OLD.status IN ('draft', 'hidden') BEGIN
    UPDATE row_counts SET row_count = row_count - 1 WHERE table_name = 'posts_' || OLD.status;
END;
--bun:split
CREATE TRIGGER posts_statuses_update AFTER UPDATE OF status ON posts
WHEN OLD.status IS NOT NEW.status AND (OLD.status IN ('draft', 'hidden') OR NEW.status IN ('draft', 'hidden')) BEGIN
    UPDATE row_counts SET row_count = row_count - 1 WHERE table_name = 'posts_' || OLD.status AND OLD.status IN ('draft', 'hidden');
    UPDATE row_counts SET row_count = row_count + 1 WHERE table_name = 'posts_' || NEW.status AND NEW.status IN ('draft', 'hidden');
END;
--bun:split
CREATE TRIGGER users_statuses_insert AFTER INSERT ON users WHEN NEW.status IN ('inactive', 'banned') BEGIN
    UPDATE row_counts SET row_count = row_count + 1 WHERE table_name = 'users_' || NEW.status;
END;
--bun:split
CREATE TRIGGER users_statuses_delete AFTER DELETE ON users WHEN OLD.status IN ('inactive', 'banned') BEGIN
    UPDATE row_counts SET row_count = row_count - 1 WHERE table_name = 'users_' || OLD.status;
END;
--bun:split
CREATE TRIGGER users_statuses_update AFTER UPDATE OF status ON users
WHEN OLD.status IS NOT NEW.status AND (OLD.status IN ('inactive', 'banned') OR NEW.status IN ('inactive', 'banned')) BEGIN
    UPDATE row_counts SET row_count = row_count - 1 WHERE table_name = 'users_' || OLD.status AND OLD.status IN ('inactive', 'banned');
    UPDATE row_counts SET row_count = row_count + 1 WHERE table_name = 'users_' || NEW.status AND NEW.status IN ('inactive', 'banned');
END;
