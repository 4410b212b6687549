-- Report ids come from a sequence here and are never handed out twice;
-- the SQLite migration of the same name gives SQLite the same rule.
SELECT 1;
