DROP TRIGGER IF EXISTS audit_log_actor_target_runs_delete ON audit_log;
--bun:split
DROP TRIGGER IF EXISTS audit_log_actor_target_runs_insert ON audit_log;
--bun:split
DROP FUNCTION IF EXISTS plaza_count_audit_actor_target_runs();
--bun:split
DROP TABLE IF EXISTS audit_target_runs;
--bun:split
DROP TABLE IF EXISTS audit_actor_runs;
