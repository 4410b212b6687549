-- Who is reviewing a post in the moderation queue: one claim a post, held
-- until it expires unless its holder renews it. A decision on the post, or
-- the post's deletion, ends it.
CREATE TABLE moderation_claims (
    post_id    bigint PRIMARY KEY REFERENCES posts (id) ON DELETE CASCADE,
    user_id    bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    claimed_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL
);
