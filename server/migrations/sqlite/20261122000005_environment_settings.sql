-- Environment settings: the operator's changes relative to the defaults,
-- the binds of the chosen components and the plugins they switch on (JSON
-- `{group: {attr: value}}`), and a version that every change increments
-- (what `If-Match` compares).
ALTER TABLE clusters ADD COLUMN settings TEXT NOT NULL DEFAULT '{}';
ALTER TABLE clusters ADD COLUMN settings_version INTEGER NOT NULL DEFAULT 1;
