CREATE TABLE email_verifications (
    user_id    bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    email      text NOT NULL,
    token_hash text NOT NULL UNIQUE,
    created_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL
);
