-- User-defined tags of releases and environments (a release's own tags come
-- from its plugin data), and the nodes of environments.
CREATE TABLE tags (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    -- 'release' or 'cluster'
    owner_kind TEXT NOT NULL,
    owner_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    has_primary INTEGER NOT NULL,
    UNIQUE (owner_kind, owner_id, name)
);

CREATE TABLE nodes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    cluster_id INTEGER NOT NULL REFERENCES clusters (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    status TEXT NOT NULL,
    -- JSON arrays of strings; flags are 0 or 1 (the Any driver has no booleans).
    roles TEXT NOT NULL,
    pending_roles TEXT NOT NULL,
    tags_added TEXT NOT NULL,
    tags_removed TEXT NOT NULL,
    primary_tags TEXT NOT NULL,
    pending_deletion INTEGER NOT NULL
);

ALTER TABLE clusters ADD COLUMN mode TEXT NOT NULL DEFAULT 'ha_compact';
