-- Every change to what makes up a caller (a user's names, status or roles, a
-- role, a token) notifies channel plaza_auth when it commits, so that every
-- Plaza instance drops the callers it remembers (auth.PrincipalCache),
-- whoever made the change: another instance, the CLI or psql.
CREATE FUNCTION plaza_auth_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('plaza_auth', TG_TABLE_NAME);
    RETURN NULL;
END
$$;

--bun:split

CREATE TRIGGER users_auth_changed
    AFTER UPDATE OF username, email, name, image, status, is_active OR DELETE ON users
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_auth_changed();

--bun:split

CREATE TRIGGER user_roles_auth_changed
    AFTER INSERT OR UPDATE OR DELETE ON user_roles
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_auth_changed();

--bun:split

CREATE TRIGGER roles_auth_changed
    AFTER UPDATE OR DELETE ON roles
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_auth_changed();

--bun:split

CREATE TRIGGER api_tokens_auth_changed
    AFTER UPDATE OF user_id, permissions, expires_at, revoked_at OR DELETE ON api_tokens
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_auth_changed();
