DROP INDEX IF EXISTS provider_accounts_email_trgm_idx;
