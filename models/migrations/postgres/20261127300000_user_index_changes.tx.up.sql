-- The admin users lists read an in-memory index of the users (package
-- userindex), which each instance keeps current from this log: every
-- statement that changes users or what the lists show of them (roles,
-- bans, provider accounts) logs the users it touched, with its
-- transaction's id. An instance reads the entries of the transactions that
-- committed since its last look (pg_visible_in_snapshot), whatever order
-- they committed in, and reloads those users.
CREATE TABLE user_index_changes (
    user_id bigint NOT NULL,
    xid     xid8 NOT NULL DEFAULT pg_current_xact_id(),
    at      timestamptz NOT NULL DEFAULT now()
);

--bun:split

CREATE INDEX user_index_changes_xid_idx ON user_index_changes (xid);

--bun:split

CREATE INDEX user_index_changes_at_idx ON user_index_changes (at);

--bun:split

-- Bumped by writers that skip the triggers (a bulk load, a restore): an
-- instance that sees it move reloads every user.
CREATE TABLE user_index_epoch (epoch bigint NOT NULL);

--bun:split

INSERT INTO user_index_epoch (epoch) VALUES (1);

--bun:split

-- Logs the users of a transition table: TG_ARGV[0] is the column holding
-- the user's id, TG_ARGV[1] the transition table.
CREATE FUNCTION plaza_user_index_log() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format('INSERT INTO user_index_changes (user_id) SELECT DISTINCT %I FROM %I WHERE %I IS NOT NULL',
        TG_ARGV[0], TG_ARGV[1], TG_ARGV[0]);
    RETURN NULL;
END;
$$;

--bun:split

CREATE TRIGGER users_index_insert AFTER INSERT ON users REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_user_index_log('id', 'new_rows');

--bun:split

CREATE TRIGGER users_index_update AFTER UPDATE ON users REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_user_index_log('id', 'new_rows');

--bun:split

CREATE TRIGGER users_index_delete AFTER DELETE ON users REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_user_index_log('id', 'old_rows');

--bun:split

CREATE TRIGGER user_roles_index_insert AFTER INSERT ON user_roles REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_user_index_log('user_id', 'new_rows');

--bun:split

CREATE TRIGGER user_roles_index_update AFTER UPDATE ON user_roles REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_user_index_log('user_id', 'old_rows');

--bun:split

CREATE TRIGGER user_roles_index_update_new AFTER UPDATE ON user_roles REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_user_index_log('user_id', 'new_rows');

--bun:split

CREATE TRIGGER user_roles_index_delete AFTER DELETE ON user_roles REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_user_index_log('user_id', 'old_rows');

--bun:split

CREATE TRIGGER bans_index_insert AFTER INSERT ON bans REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_user_index_log('user_id', 'new_rows');

--bun:split

CREATE TRIGGER bans_index_update AFTER UPDATE ON bans REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_user_index_log('user_id', 'new_rows');

--bun:split

CREATE TRIGGER bans_index_delete AFTER DELETE ON bans REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_user_index_log('user_id', 'old_rows');

--bun:split

CREATE TRIGGER provider_accounts_index_insert AFTER INSERT ON provider_accounts REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_user_index_log('user_id', 'new_rows');

--bun:split

CREATE TRIGGER provider_accounts_index_update AFTER UPDATE ON provider_accounts REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_user_index_log('user_id', 'old_rows');

--bun:split

CREATE TRIGGER provider_accounts_index_update_new AFTER UPDATE ON provider_accounts REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_user_index_log('user_id', 'new_rows');

--bun:split

CREATE TRIGGER provider_accounts_index_delete AFTER DELETE ON provider_accounts REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_user_index_log('user_id', 'old_rows');
