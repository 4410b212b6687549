-- Who is reviewing an application in the moderation desk (docs/console.md,
-- "Applications"): one claim an application, held until it expires unless
-- its holder renews it, as moderation_claims holds a post's. A decision on
-- the application, or the applicant's deletion, ends it.
CREATE TABLE application_claims (
    application_id bigint PRIMARY KEY REFERENCES applications (user_id) ON DELETE CASCADE,
    user_id        bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    claimed_at     timestamptz NOT NULL,
    expires_at     timestamptz NOT NULL
);
