-- Related accounts (docs/api.md, "Related accounts"): where each account
-- signed up from, and the mailbox its email reaches, beside the range of
-- every sign-in's address, so that accounts sharing an address, a range or
-- a mailbox are found through indexes. Rows written before are filled at
-- start (models.Users.FillRelatedColumns); signup_ip stays empty for them.
ALTER TABLE users ADD COLUMN signup_ip TEXT NOT NULL DEFAULT '';
--bun:split
ALTER TABLE users ADD COLUMN signup_net TEXT NOT NULL DEFAULT '';
--bun:split
ALTER TABLE users ADD COLUMN email_canonical TEXT NOT NULL DEFAULT '';
--bun:split
ALTER TABLE logins ADD COLUMN ip_net TEXT NOT NULL DEFAULT '';
--bun:split
CREATE INDEX users_signup_ip_idx ON users (signup_ip);
--bun:split
CREATE INDEX users_signup_net_idx ON users (signup_net, created_at);
--bun:split
CREATE INDEX users_email_canonical_idx ON users (email_canonical);
--bun:split
-- The sign-ins of a range, by address, with who made them: the accounts
-- behind one of a user's addresses or ranges are read from this index
-- alone, however many sign-ins each made (an address's range is derived
-- from it, so one index serves both).
CREATE INDEX logins_ip_net_idx ON logins (ip_net, ip_address, user_id);
