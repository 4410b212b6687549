DROP INDEX logins_ip_net_idx;
--bun:split
DROP INDEX users_email_canonical_idx;
--bun:split
DROP INDEX users_signup_net_idx;
--bun:split
DROP INDEX users_signup_ip_idx;
--bun:split
ALTER TABLE logins DROP COLUMN ip_net;
--bun:split
ALTER TABLE users DROP COLUMN email_canonical;
--bun:split
ALTER TABLE users DROP COLUMN signup_net;
--bun:split
ALTER TABLE users DROP COLUMN signup_ip;
