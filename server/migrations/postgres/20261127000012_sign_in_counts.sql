-- Sign-in throttling shared by every replica (PostgreSQL; a SQLite server
-- counts in its memory): for each user name (by its SHA-256, `user`) and
-- each client address (`address`), the theoretical arrival time of GCRA,
-- in milliseconds of the database's clock. A row whose time has passed is
-- a fresh count and is deleted; each kind keeps at most a bounded number
-- of rows (server/src/access/throttle.rs).
CREATE TABLE sign_in_counts (
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    tat BIGINT NOT NULL,
    PRIMARY KEY (kind, key)
);

CREATE INDEX sign_in_counts_by_time ON sign_in_counts (kind, tat);
