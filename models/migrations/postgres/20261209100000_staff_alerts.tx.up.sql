-- Staff alerts: which mail a moderator or admin gets of new reports (at
-- once, an hourly or daily digest, or never) and, for admins, of failed
-- jobs and backups. No row reads as never and no operations alerts.
-- last_digest_at is where the next digest starts counting; null until the
-- first one, which counts from updated_at, so that turning a digest on
-- does not mail what came before.
CREATE TABLE alert_preferences (
    user_id        bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    reports        text NOT NULL DEFAULT 'never' CHECK (reports IN ('now', 'hourly', 'daily', 'never')),
    operations     boolean NOT NULL DEFAULT false,
    last_digest_at timestamptz,
    updated_at     timestamptz NOT NULL
);
--bun:split
CREATE INDEX alert_preferences_reports_idx ON alert_preferences (reports);
