-- Accounts and their protection (SEMANTICS §10): users with a role and an
-- argon2 password hash; API tokens and browser sessions, both stored as the
-- SHA-256 of their secret (never the secret); the audit log of every
-- successful change; and a version per node, which every change increments.
CREATE TABLE users (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    username TEXT NOT NULL UNIQUE,
    role TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    -- Unix seconds.
    created_at BIGINT NOT NULL
);

CREATE TABLE tokens (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    label TEXT NOT NULL UNIQUE,
    role TEXT NOT NULL,
    secret_hash TEXT NOT NULL UNIQUE,
    created_at BIGINT NOT NULL
);

CREATE TABLE sessions (
    secret_hash TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    expires_at BIGINT NOT NULL
);

CREATE TABLE audit (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at BIGINT NOT NULL,
    -- The user's name, or `token:LABEL`.
    actor TEXT NOT NULL,
    method TEXT NOT NULL,
    -- The route as declared (`/api/v1/nodes/{id}/tags`) and as requested.
    route TEXT NOT NULL,
    target TEXT NOT NULL,
    status INTEGER NOT NULL
);

ALTER TABLE nodes ADD COLUMN version BIGINT NOT NULL DEFAULT 1;
