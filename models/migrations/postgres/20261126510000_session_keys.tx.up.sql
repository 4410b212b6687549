-- Sessions are keyed by the SHA-256 of their token (hex), never by the
-- token: a copy of the table must sign nobody in. Existing sessions are
-- converted in place, so nobody is signed out. Maintenance jobs' arguments
-- named the caller's session by its token; they now name it by the same key
-- (River's table exists only once the job queue has been set up).
UPDATE sessions SET token = encode(sha256(convert_to(token, 'UTF8')), 'hex');
--bun:split
DO $$
BEGIN
    IF to_regclass('river_job') IS NOT NULL THEN
        UPDATE river_job
        SET args = (args - 'keepSession') || jsonb_build_object('keepSessionKey',
            encode(sha256(convert_to(args->>'keepSession', 'UTF8')), 'hex'))
        WHERE kind = 'maintenance' AND args ? 'keepSession';
    END IF;
END $$;
