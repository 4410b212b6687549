-- Invitations are sign-up links staff hand out: a token (stored only as
-- its SHA-256, like a reset link's), a number of uses, an expiry, and
-- optionally the one address that may use it. A use is spent with a
-- conditional update (uses < max_uses), so uses never passes max_uses.
CREATE TABLE invitations (
    id         INTEGER PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    note       TEXT NOT NULL DEFAULT '',
    email      TEXT,
    max_uses   INTEGER NOT NULL CHECK (max_uses >= 1),
    uses       INTEGER NOT NULL DEFAULT 0 CHECK (uses >= 0 AND uses <= max_uses),
    expires_at TIMESTAMP NOT NULL,
    created_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
    created_at TIMESTAMP NOT NULL,
    revoked_at TIMESTAMP,
    revoked_by INTEGER REFERENCES users (id) ON DELETE SET NULL
);
--bun:split
CREATE INDEX invitations_created_by_idx ON invitations (created_by);
--bun:split
CREATE INDEX invitations_revoked_by_idx ON invitations (revoked_by);
--bun:split
-- Who used an invitation: the account it opened (cleared when the account
-- is deleted, the use still counted) and when.
CREATE TABLE invitation_uses (
    id            INTEGER PRIMARY KEY,
    invitation_id INTEGER NOT NULL REFERENCES invitations (id) ON DELETE CASCADE,
    user_id       INTEGER REFERENCES users (id) ON DELETE SET NULL,
    used_at       TIMESTAMP NOT NULL
);
--bun:split
CREATE INDEX invitation_uses_invitation_idx ON invitation_uses (invitation_id, id);
--bun:split
CREATE INDEX invitation_uses_user_idx ON invitation_uses (user_id);
