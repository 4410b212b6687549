-- Who is reviewing an application in the moderation desk (docs/console.md,
-- "Applications"): one claim an application, held until it expires unless
-- its holder renews it, as moderation_claims holds a post's. A decision on
-- the application, or the applicant's deletion, ends it.
CREATE TABLE application_claims (
    application_id INTEGER PRIMARY KEY REFERENCES applications (user_id) ON DELETE CASCADE,
    user_id        INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    claimed_at     TIMESTAMP NOT NULL,
    expires_at     TIMESTAMP NOT NULL
);
