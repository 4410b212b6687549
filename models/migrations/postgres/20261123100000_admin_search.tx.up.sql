-- The admin users search matches provider account emails as well as the
-- user's own name, username and email; a trigram index keeps that arm as
-- quick as the others.
CREATE INDEX provider_accounts_email_trgm_idx ON provider_accounts USING gin (email gin_trgm_ops);
