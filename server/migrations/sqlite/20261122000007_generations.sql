-- Generations of what servers cache: every install or uninstall increments
-- 'plugins' in its own transaction, so each replica knows when the plugins
-- it parsed are out of date with one cheap read.
CREATE TABLE generations (
    name TEXT PRIMARY KEY,
    value BIGINT NOT NULL
);

INSERT INTO generations (name, value) VALUES ('plugins', 1);
