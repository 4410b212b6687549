-- Nothing to undo: the identity stays past the ids it skipped, and ended
-- sessions stay ended.
SELECT 1;
