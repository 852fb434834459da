-- Nodes as they are found (SEMANTICS §13): where and when a node's
-- hardware was found and the switches its NICs are cabled to (LLDP), on
-- the node's row, which the node table reads; the hardware itself (JSON:
-- `mosaic_core::hardware::Hardware`) in a table of its own, which only a
-- node's hardware page and an import read.
ALTER TABLE nodes ADD COLUMN hardware_source TEXT;
ALTER TABLE nodes ADD COLUMN hardware_found_at TEXT;
-- JSON array of switch names, sorted.
ALTER TABLE nodes ADD COLUMN switches TEXT;

CREATE TABLE node_hardware (
    node_id INTEGER PRIMARY KEY REFERENCES nodes (id) ON DELETE CASCADE,
    hardware TEXT NOT NULL
);
