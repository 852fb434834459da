-- The versions an environment pins (SEMANTICS §7.6): `{plugin: version}`
-- for each plugin it has switched on, as JSON. NULL for environments
-- stored before versions were pinned; the server pins what they resolve
-- to when it starts (`mosaic_server::prepare`). The release plugin's
-- version is pinned by `release_id` already.
ALTER TABLE clusters ADD COLUMN plugins TEXT;
