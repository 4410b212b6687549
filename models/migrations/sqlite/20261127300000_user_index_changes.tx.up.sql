-- The admin users lists read an in-memory index of the users (package
-- userindex), which the process keeps current from this log: every change
-- to users or to what the lists show of them (roles, bans, provider
-- accounts) logs the user it touched. SQLite has one writer at a time, so
-- the log's order is the order of commits.
CREATE TABLE user_index_changes (
    seq     INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL,
    at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%d %H:%M:%f', 'now'))
);
--bun:split
CREATE INDEX user_index_changes_at_idx ON user_index_changes (at);
--bun:split
-- Bumped by writers that rewrite the users wholesale (a restore): the
-- process reloads every user when it moves.
CREATE TABLE user_index_epoch (epoch INTEGER NOT NULL);
--bun:split
INSERT INTO user_index_epoch (epoch) VALUES (1);
--bun:split
CREATE TRIGGER users_index_insert AFTER INSERT ON users BEGIN
    INSERT INTO user_index_changes (user_id) VALUES (NEW.id);
END;
--bun:split
CREATE TRIGGER users_index_update AFTER UPDATE ON users BEGIN
    INSERT INTO user_index_changes (user_id) VALUES (NEW.id);
END;
--bun:split
CREATE TRIGGER users_index_delete AFTER DELETE ON users BEGIN
    INSERT INTO user_index_changes (user_id) VALUES (OLD.id);
END;
--bun:split
CREATE TRIGGER user_roles_index_insert AFTER INSERT ON user_roles BEGIN
    INSERT INTO user_index_changes (user_id) VALUES (NEW.user_id);
END;
--bun:split
CREATE TRIGGER user_roles_index_update AFTER UPDATE ON user_roles BEGIN
    INSERT INTO user_index_changes (user_id) VALUES (NEW.user_id);
END;
--bun:split
CREATE TRIGGER user_roles_index_delete AFTER DELETE ON user_roles BEGIN
    INSERT INTO user_index_changes (user_id) VALUES (OLD.user_id);
END;
--bun:split
CREATE TRIGGER user_roles_index_update_old AFTER UPDATE ON user_roles WHEN OLD.user_id IS NOT NEW.user_id BEGIN
    INSERT INTO user_index_changes (user_id) VALUES (OLD.user_id);
END;
--bun:split
CREATE TRIGGER bans_index_insert AFTER INSERT ON bans BEGIN
    INSERT INTO user_index_changes (user_id) VALUES (NEW.user_id);
END;
--bun:split
CREATE TRIGGER bans_index_update AFTER UPDATE ON bans BEGIN
    INSERT INTO user_index_changes (user_id) VALUES (NEW.user_id);
END;
--bun:split
CREATE TRIGGER bans_index_delete AFTER DELETE ON bans BEGIN
    INSERT INTO user_index_changes (user_id) VALUES (OLD.user_id);
END;
--bun:split
CREATE TRIGGER bans_index_update_old AFTER UPDATE ON bans WHEN OLD.user_id IS NOT NEW.user_id BEGIN
    INSERT INTO user_index_changes (user_id) VALUES (OLD.user_id);
END;
--bun:split
CREATE TRIGGER provider_accounts_index_insert AFTER INSERT ON provider_accounts BEGIN
    INSERT INTO user_index_changes (user_id) VALUES (NEW.user_id);
END;
--bun:split
CREATE TRIGGER provider_accounts_index_update AFTER UPDATE ON provider_accounts BEGIN
    INSERT INTO user_index_changes (user_id) VALUES (NEW.user_id);
END;
--bun:split
CREATE TRIGGER provider_accounts_index_delete AFTER DELETE ON provider_accounts BEGIN
    INSERT INTO user_index_changes (user_id) VALUES (OLD.user_id);
END;
--bun:split
CREATE TRIGGER provider_accounts_index_update_old AFTER UPDATE ON provider_accounts WHEN OLD.user_id IS NOT NEW.user_id BEGIN
    INSERT INTO user_index_changes (user_id) VALUES (OLD.user_id);
END;
