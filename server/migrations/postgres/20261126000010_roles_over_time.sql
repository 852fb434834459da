-- Roles over time (SEMANTICS §5.1): each release's and environment's
-- changes of roles, one row per role — a tag set replaced, or a role of
-- its own — as JSON; a tag's number of instances; the instance tags
-- assigned to a node by rule (a JSON array of strings).
CREATE TABLE role_changes (
    -- 'release' or 'cluster'
    owner_kind TEXT NOT NULL,
    owner_id BIGINT NOT NULL,
    name TEXT NOT NULL,
    change TEXT NOT NULL,
    -- Moves on with each change of the row (If-Match on a role's change).
    version BIGINT NOT NULL DEFAULT 1,
    PRIMARY KEY (owner_kind, owner_id, name)
);

ALTER TABLE tags ADD COLUMN instances BIGINT;

ALTER TABLE nodes ADD COLUMN tags_assigned TEXT NOT NULL DEFAULT '[]';
