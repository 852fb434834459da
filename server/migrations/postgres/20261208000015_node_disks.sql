-- Disks and volumes (SEMANTICS §14): each node's disk layout as Configure
-- Disks left it (JSON: `mosaic_core::disks::DiskLayout`, Fuel's full
-- format, sizes in MB), on the node's row so that every path that reads
-- and writes a node keeps it; NULL while none of its disks is known.
ALTER TABLE nodes ADD COLUMN disks TEXT;
