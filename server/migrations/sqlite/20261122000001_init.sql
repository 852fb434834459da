-- Plugins, the releases they ship, environments, and install-time facts.
CREATE TABLE plugins (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    title TEXT NOT NULL,
    version TEXT NOT NULL,
    UNIQUE (name, version)
);

CREATE TABLE releases (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    plugin_id INTEGER NOT NULL REFERENCES plugins (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    version TEXT NOT NULL,
    operating_system TEXT NOT NULL,
    description TEXT NOT NULL,
    state TEXT NOT NULL,
    -- The release as core reads it (`mosaic_core::release::Release`), as JSON.
    data TEXT NOT NULL
);

CREATE TABLE clusters (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE,
    release_id INTEGER NOT NULL REFERENCES releases (id),
    -- The selected component names, as a JSON array.
    components TEXT NOT NULL
);

CREATE TABLE facts (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
