-- Blocks refuse requests from an address range (kind ip, value a masked
-- CIDR such as 203.0.113.0/24 or 2001:db8::1/128) or registrations with an
-- email under a domain (kind email_domain, value a lower-case domain).
-- A value is blocked once per kind.
CREATE TABLE blocks (
    id         INTEGER PRIMARY KEY,
    kind       TEXT NOT NULL CHECK (kind IN ('ip', 'email_domain')),
    value      TEXT NOT NULL,
    reason     TEXT NOT NULL DEFAULT '',
    created_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP
);
--bun:split
CREATE UNIQUE INDEX blocks_kind_value_idx ON blocks (kind, value);
