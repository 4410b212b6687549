-- The registration gate (docs/api.md, "Registration"): what a block refuses
-- (all access, sign-up, or sign-up without staff's approval), and the
-- applications of accounts opened while approval is required. Blocks kept
-- so far keep what they did: a range refused everything, an email domain
-- sign-up.
ALTER TABLE blocks ADD COLUMN severity TEXT NOT NULL DEFAULT 'all' CHECK (severity IN ('all', 'signup', 'approval'));
--bun:split
UPDATE blocks SET severity = 'signup' WHERE kind = 'email_domain';
--bun:split
-- One application per account opened under approval: the account stays
-- inactive until staff approve it. why says what made it an application
-- (the mode, or a block requiring approval).
CREATE TABLE applications (
    user_id    INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    answer     TEXT NOT NULL DEFAULT '',
    why        TEXT NOT NULL,
    status     TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
    reason     TEXT NOT NULL DEFAULT '',
    decided_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
    decided_at TIMESTAMP,
    created_at TIMESTAMP NOT NULL
);
--bun:split
CREATE INDEX applications_status_idx ON applications (status, created_at);
