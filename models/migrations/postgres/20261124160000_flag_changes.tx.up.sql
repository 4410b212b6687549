-- A feature flag's change notifies the change channel too, with the
-- table's name, so that every instance drops the flags it holds
-- (flags.Cache), whoever made the change.
CREATE TRIGGER feature_flags_changed
    AFTER INSERT OR UPDATE OR DELETE ON feature_flags
    FOR EACH STATEMENT EXECUTE FUNCTION plaza_auth_changed();
