-- Users, roles, external accounts, subscriptions, bans and sign-in history.
CREATE TABLE users (
    id             INTEGER PRIMARY KEY,
    username       TEXT NOT NULL,
    email          TEXT NOT NULL,
    name           TEXT,
    image          TEXT,
    bio            TEXT NOT NULL DEFAULT '',
    location       TEXT NOT NULL DEFAULT '',
    profile_public BOOLEAN NOT NULL DEFAULT TRUE,
    email_verified TIMESTAMP,
    is_verified    BOOLEAN NOT NULL DEFAULT FALSE,
    status         TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive', 'banned')),
    is_active      BOOLEAN NOT NULL DEFAULT TRUE,
    admin_notes    TEXT,
    password_hash  TEXT,
    post_count     INTEGER NOT NULL DEFAULT 0,
    login_count    INTEGER NOT NULL DEFAULT 0,
    created_at     TIMESTAMP NOT NULL,
    updated_at     TIMESTAMP NOT NULL,
    last_login_at  TIMESTAMP,
    CONSTRAINT users_is_active_matches_status CHECK (is_active = (status <> 'inactive'))
);

--bun:split

CREATE UNIQUE INDEX users_username_key ON users (lower(username));
--bun:split
CREATE UNIQUE INDEX users_email_key ON users (lower(email));
--bun:split
CREATE INDEX users_created_at_idx ON users (created_at, id);
--bun:split
CREATE INDEX users_last_login_at_idx ON users (last_login_at, id);
--bun:split
CREATE INDEX users_post_count_idx ON users (post_count, id);
--bun:split
CREATE INDEX users_status_idx ON users (status, created_at);

--bun:split

CREATE TABLE roles (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    rank        INTEGER NOT NULL,
    description TEXT NOT NULL DEFAULT ''
);

--bun:split

INSERT INTO roles (name, rank, description) VALUES
    ('user', 0, 'A member of the community'),
    ('moderator', 1, 'Moderates posts'),
    ('admin', 2, 'Runs the platform'),
    ('super_admin', 3, 'Runs the platform, including system actions and feature flags');

--bun:split

CREATE TABLE user_roles (
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role_id    INTEGER NOT NULL REFERENCES roles (id) ON DELETE CASCADE,
    granted_at TIMESTAMP NOT NULL,
    granted_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
    PRIMARY KEY (user_id, role_id)
);
--bun:split
CREATE INDEX user_roles_role_id_idx ON user_roles (role_id, user_id);

--bun:split

CREATE TABLE provider_accounts (
    id                  INTEGER PRIMARY KEY,
    user_id             INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    provider            TEXT NOT NULL,
    provider_user_id    TEXT NOT NULL,
    email               TEXT,
    email_verified      BOOLEAN NOT NULL DEFAULT FALSE,
    created_at          TIMESTAMP NOT NULL,
    last_used_at        TIMESTAMP,
    CONSTRAINT provider_accounts_provider_user_key UNIQUE (provider, provider_user_id)
);
--bun:split
CREATE INDEX provider_accounts_user_id_idx ON provider_accounts (user_id, last_used_at);

--bun:split

CREATE TABLE subscription_types (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    description TEXT NOT NULL DEFAULT '',
    created_at  TIMESTAMP NOT NULL
);

--bun:split

CREATE TABLE user_subscriptions (
    id                   INTEGER PRIMARY KEY,
    user_id              INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    subscription_type_id INTEGER NOT NULL REFERENCES subscription_types (id) ON DELETE CASCADE,
    status               TEXT NOT NULL CHECK (status IN ('active', 'inactive')),
    started_at           TIMESTAMP NOT NULL,
    ends_at              TIMESTAMP
);
--bun:split
CREATE INDEX user_subscriptions_user_id_idx ON user_subscriptions (user_id, status);

--bun:split

CREATE TABLE bans (
    id         INTEGER PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    reason     TEXT NOT NULL DEFAULT '',
    notes      TEXT NOT NULL DEFAULT '',
    created_by INTEGER REFERENCES users (id) ON DELETE SET NULL,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP,
    ended_at   TIMESTAMP,
    ended_by   INTEGER REFERENCES users (id) ON DELETE SET NULL
);
--bun:split
CREATE INDEX bans_user_id_idx ON bans (user_id, created_at);
--bun:split
CREATE INDEX bans_open_expiry_idx ON bans (expires_at) WHERE ended_at IS NULL;

--bun:split

CREATE TABLE logins (
    id         INTEGER PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    method     TEXT NOT NULL,
    ip_address TEXT NOT NULL DEFAULT '',
    user_agent TEXT NOT NULL DEFAULT '',
    created_at TIMESTAMP NOT NULL
);
--bun:split
CREATE INDEX logins_user_id_idx ON logins (user_id, created_at);
--bun:split
CREATE INDEX logins_created_at_idx ON logins (created_at);
