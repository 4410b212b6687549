-- TOTP two-factor sign-in. A row exists from setup on; enabled_at is set
-- once the person typed a code from their app. secret is sealed with a key
-- derived from JWT_SECRET (AES-GCM); last_step is the newest time step a
-- code was accepted for, so no code works twice.
CREATE TABLE user_two_factor (
    user_id    INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    secret     TEXT NOT NULL,
    enabled_at TIMESTAMP,
    last_step  INTEGER NOT NULL DEFAULT 0,
    created_at TIMESTAMP NOT NULL
);
--bun:split
-- One-time recovery codes, as SHA-256 digests: each code carries 60 random
-- bits, so a fast digest cannot be reversed by guessing.
CREATE TABLE user_recovery_codes (
    id        INTEGER PRIMARY KEY,
    user_id   INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    code_hash TEXT NOT NULL,
    used_at   TIMESTAMP
);
--bun:split
CREATE INDEX user_recovery_codes_user_idx ON user_recovery_codes (user_id);
