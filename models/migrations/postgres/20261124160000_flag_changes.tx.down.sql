DROP TRIGGER IF EXISTS feature_flags_changed ON feature_flags;
