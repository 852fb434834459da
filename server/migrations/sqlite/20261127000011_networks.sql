-- Networks (SEMANTICS §11): each environment's node groups (racks); its
-- network configuration — networks by id, each node group's copy of every
-- network but the admin one, and Neutron's parameters — as JSON with a
-- version that every save moves on (what If-Match compares), NULL for an
-- environment stored before networks were read (the server builds it when
-- it starts); each node's node group and declared interfaces; and every
-- address given, to a node or to a VIP, unique within one network name of
-- an environment (node groups sharing a network share its addresses).
CREATE TABLE node_groups (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    cluster_id INTEGER NOT NULL REFERENCES clusters (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    UNIQUE (cluster_id, name)
);

ALTER TABLE clusters ADD COLUMN networks TEXT;
ALTER TABLE clusters ADD COLUMN networks_version INTEGER NOT NULL DEFAULT 1;

ALTER TABLE nodes ADD COLUMN group_id INTEGER REFERENCES node_groups (id);
-- `mosaic_core::network::NodeInterfaces` as JSON; NULL: none declared.
ALTER TABLE nodes ADD COLUMN interfaces TEXT;

CREATE TABLE ip_addrs (
    cluster_id INTEGER NOT NULL REFERENCES clusters (id) ON DELETE CASCADE,
    network TEXT NOT NULL,
    -- The address as a number (IPv4, 0 to 2^32 - 1).
    address INTEGER NOT NULL,
    group_id INTEGER NOT NULL REFERENCES node_groups (id) ON DELETE CASCADE,
    -- Exactly one of a node and a VIP holds it.
    node_id INTEGER REFERENCES nodes (id) ON DELETE CASCADE,
    vip TEXT,
    UNIQUE (cluster_id, network, address)
);

CREATE INDEX ip_addrs_node ON ip_addrs (node_id);
-- The VIPs of an environment, read with every change of one of its nodes:
-- found without going over its nodes' addresses.
CREATE INDEX ip_addrs_vips ON ip_addrs (cluster_id) WHERE vip IS NOT NULL;
