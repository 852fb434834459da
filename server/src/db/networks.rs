//! Networks (SEMANTICS §11): each environment's node groups, its network
//! configuration with its version, and every address given (`ip_addrs`,
//! one row per address, unique within a network name of an environment).
//! Core decides who gets which address; this module reads what is given
//! and writes what core decided — the whole environment's addresses after
//! a change of the whole environment, or one node's (and the VIPs' when
//! they move) inside that node's change, from two indexed reads per
//! network whatever the environment's size.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::net::Ipv4Addr;

use mosaic_core::environment::{AddressNeed, AddressRow, Addressing};
use mosaic_core::name::NetworkName;
use mosaic_core::network::{
    HolderKey, NetworkConfiguration, Next, NodeGroup, VipAddress, lowest_free, next_address, span,
};
use mosaic_core::tag::NodeTags;
use sqlx::{AnyConnection, Row};

use super::{Db, DbError};

/// An environment's networks as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredNetworks {
    pub groups: Vec<NodeGroup>,
    /// None for an environment stored before networks were read (the
    /// server builds it when it starts).
    pub config: Option<NetworkConfiguration>,
    pub version: i64,
}

fn corrupt(what: &str) -> impl Fn(serde_json::Error) -> DbError + '_ {
    move |e| DbError::Corrupt(format!("{what}: {e}"))
}

fn ip_of(value: i64) -> Result<Ipv4Addr, DbError> {
    u32::try_from(value)
        .map(Ipv4Addr::from)
        .map_err(|_| DbError::Corrupt(format!("ip_addrs.address: {value} is no IPv4 address")))
}

/// A row's `network`.
fn network_of(row: &sqlx::any::AnyRow) -> Result<NetworkName, DbError> {
    NetworkName::new(row.try_get::<String, _>("network")?)
        .map_err(|e| DbError::Corrupt(format!("ip_addrs.network: {e}")))
}

/// Environment `cluster_id`'s node groups, in id order.
pub(super) async fn groups_in(
    conn: &mut AnyConnection,
    cluster_id: i64,
) -> Result<Vec<NodeGroup>, DbError> {
    let rows = sqlx::query("SELECT id, name FROM node_groups WHERE cluster_id = $1 ORDER BY id")
        .bind(cluster_id)
        .fetch_all(&mut *conn)
        .await?;
    rows.iter()
        .map(|r| {
            Ok(NodeGroup {
                id: r.try_get("id")?,
                name: r.try_get("name")?,
            })
        })
        .collect()
}

/// `config` (as its environment's row has it, at `version`) with the
/// environment's node groups and the VIPs' addresses.
pub(super) async fn groups_and_vips_in(
    conn: &mut AnyConnection,
    cluster_id: i64,
    mut config: Option<NetworkConfiguration>,
    version: i64,
) -> Result<StoredNetworks, DbError> {
    let groups = groups_in(conn, cluster_id).await?;
    if let Some(config) = &mut config {
        config.vips = vips_in(conn, cluster_id).await?;
    }
    Ok(StoredNetworks {
        groups,
        config,
        version,
    })
}

async fn vips_in(
    conn: &mut AnyConnection,
    cluster_id: i64,
) -> Result<BTreeMap<String, VipAddress>, DbError> {
    let rows = sqlx::query(
        "SELECT vip, group_id, address FROM ip_addrs WHERE cluster_id = $1 AND vip IS NOT NULL",
    )
    .bind(cluster_id)
    .fetch_all(&mut *conn)
    .await?;
    rows.iter()
        .map(|r| {
            Ok((
                r.try_get::<String, _>("vip")?,
                VipAddress {
                    group_id: r.try_get("group_id")?,
                    ipaddr: ip_of(r.try_get("address")?)?,
                },
            ))
        })
        .collect()
}

/// Every node's addresses in environment `cluster_id`: node → network →
/// address.
pub(super) async fn node_addresses_in(
    conn: &mut AnyConnection,
    cluster_id: i64,
) -> Result<HashMap<i64, BTreeMap<NetworkName, Ipv4Addr>>, DbError> {
    let rows = sqlx::query(
        "SELECT node_id, network, address FROM ip_addrs WHERE cluster_id = $1 AND node_id IS NOT NULL",
    )
    .bind(cluster_id)
    .fetch_all(&mut *conn)
    .await?;
    let mut out: HashMap<i64, BTreeMap<NetworkName, Ipv4Addr>> = HashMap::new();
    for r in &rows {
        out.entry(r.try_get("node_id")?)
            .or_default()
            .insert(network_of(r)?, ip_of(r.try_get("address")?)?);
    }
    Ok(out)
}

/// Node `node_id`'s addresses.
pub(super) async fn addresses_of_in(
    conn: &mut AnyConnection,
    node_id: i64,
) -> Result<BTreeMap<NetworkName, Ipv4Addr>, DbError> {
    let rows = sqlx::query("SELECT network, address FROM ip_addrs WHERE node_id = $1")
        .bind(node_id)
        .fetch_all(&mut *conn)
        .await?;
    rows.iter()
        .map(|r| Ok((network_of(r)?, ip_of(r.try_get("address")?)?)))
        .collect()
}

impl Db {
    /// The node groups and VIPs of the environment whose row (read
    /// already) holds `config` at `version`.
    pub async fn groups_and_vips(
        &self,
        cluster_id: i64,
        config: Option<NetworkConfiguration>,
        version: i64,
    ) -> Result<StoredNetworks, DbError> {
        let mut conn = self.pool.acquire().await?;
        groups_and_vips_in(&mut conn, cluster_id, config, version).await
    }

    /// Every node's addresses in environment `cluster_id`.
    pub async fn node_addresses(
        &self,
        cluster_id: i64,
    ) -> Result<HashMap<i64, BTreeMap<NetworkName, Ipv4Addr>>, DbError> {
        let mut conn = self.pool.acquire().await?;
        node_addresses_in(&mut conn, cluster_id).await
    }

    /// Node `node_id`'s addresses.
    pub async fn addresses_of(
        &self,
        node_id: i64,
    ) -> Result<BTreeMap<NetworkName, Ipv4Addr>, DbError> {
        let mut conn = self.pool.acquire().await?;
        addresses_of_in(&mut conn, node_id).await
    }

    /// How many addresses are given on each network (node group, name).
    pub async fn address_counts(
        &self,
        cluster_id: i64,
    ) -> Result<BTreeMap<(i64, NetworkName), u64>, DbError> {
        let rows = sqlx::query(
            "SELECT group_id, network, COUNT(*) AS n FROM ip_addrs WHERE cluster_id = $1 GROUP BY group_id, network",
        )
        .bind(cluster_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let n: i64 = r.try_get("n")?;
                Ok(((r.try_get("group_id")?, network_of(r)?), n.max(0) as u64))
            })
            .collect()
    }
}

/// What a change of the whole environment's networks was checked against:
/// the configuration's version (`If-Match`, when the request gave one) and
/// the nodes (ids and versions) its addresses were decided for.
#[derive(Debug, Clone, Default)]
pub struct Checked {
    pub version: Option<super::Seen>,
    pub nodes: Vec<(i64, i64)>,
}

/// Takes environment `cluster_id`'s row, refuses a stale `If-Match`
/// (`Stale`) and nodes that moved since they were read (`Moved`, to check
/// again).
pub(super) async fn lock_checked(
    conn: &mut AnyConnection,
    cluster_id: i64,
    checked: &Checked,
) -> Result<i64, DbError> {
    let version: Option<i64> = sqlx::query_scalar(
        "UPDATE clusters SET networks_version = networks_version WHERE id = $1 RETURNING networks_version",
    )
    .bind(cluster_id)
    .fetch_optional(&mut *conn)
    .await?;
    let version = version
        .ok_or_else(|| DbError::NotFound(format!("environment {cluster_id} does not exist")))?;
    if let Some(expected) = checked.version.as_ref().filter(|v| !v.allows(version)) {
        return Err(DbError::Stale(format!(
            "the network configuration of environment {cluster_id} changed since version {expected} (it is at version {version}); reload it"
        )));
    }
    let rows = sqlx::query("SELECT id, version FROM nodes WHERE cluster_id = $1 ORDER BY id")
        .bind(cluster_id)
        .fetch_all(&mut *conn)
        .await?;
    let now: Vec<(i64, i64)> = rows
        .iter()
        .map(|r| Ok((r.try_get("id")?, r.try_get("version")?)))
        .collect::<Result<_, DbError>>()?;
    if now != checked.nodes {
        return Err(DbError::Moved(format!(
            "the nodes of environment {cluster_id} changed while its networks were worked out; try again"
        )));
    }
    Ok(version)
}

/// Stores `config` (its version moved on when it changed) and makes the
/// stored addresses exactly `rows`: those that stay are not touched, the
/// others are removed before the new ones are added.
pub(super) async fn store_in(
    conn: &mut AnyConnection,
    cluster_id: i64,
    config: &NetworkConfiguration,
    rows: &[AddressRow],
) -> Result<(), DbError> {
    let stored = NetworkConfiguration {
        vips: BTreeMap::new(),
        ..config.clone()
    };
    let text = serde_json::to_string(&stored).map_err(corrupt("networks"))?;
    sqlx::query(
        "UPDATE clusters SET networks_version = networks_version + \
         (CASE WHEN networks IS NULL OR networks <> $1 THEN 1 ELSE 0 END), networks = $1 WHERE id = $2",
    )
    .bind(&text)
    .bind(cluster_id)
    .execute(&mut *conn)
    .await?;
    let current = sqlx::query(
        "SELECT network, address, group_id, node_id, vip FROM ip_addrs WHERE cluster_id = $1",
    )
    .bind(cluster_id)
    .fetch_all(&mut *conn)
    .await?;
    let mut have: BTreeSet<AddressRow> = BTreeSet::new();
    for r in &current {
        let holder = match (
            r.try_get::<Option<i64>, _>("node_id")?,
            r.try_get::<Option<String>, _>("vip")?,
        ) {
            (Some(node), _) => HolderKey::Node(node),
            (None, Some(vip)) => HolderKey::Vip(vip),
            (None, None) => continue,
        };
        have.insert(AddressRow {
            holder,
            network: network_of(r)?,
            group: r.try_get("group_id")?,
            ip: ip_of(r.try_get("address")?)?,
        });
    }
    let want: BTreeSet<AddressRow> = rows.iter().cloned().collect();
    for gone in have.difference(&want) {
        sqlx::query("DELETE FROM ip_addrs WHERE cluster_id = $1 AND network = $2 AND address = $3")
            .bind(cluster_id)
            .bind(gone.network.as_str())
            .bind(i64::from(u32::from(gone.ip)))
            .execute(&mut *conn)
            .await?;
    }
    for new in want.difference(&have) {
        insert_row(conn, cluster_id, new).await?;
    }
    Ok(())
}

async fn insert_row(
    conn: &mut AnyConnection,
    cluster_id: i64,
    row: &AddressRow,
) -> Result<(), DbError> {
    let (node, vip) = match &row.holder {
        HolderKey::Node(id) => (Some(*id), None),
        HolderKey::Vip(name) => (None, Some(name.clone())),
    };
    sqlx::query(
        "INSERT INTO ip_addrs (cluster_id, network, address, group_id, node_id, vip) VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(cluster_id)
    .bind(row.network.as_str())
    .bind(i64::from(u32::from(row.ip)))
    .bind(row.group)
    .bind(node)
    .bind(vip)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

impl Db {
    /// Stores a change of environment `cluster_id`'s whole networks: its
    /// configuration and every address, over what `checked` says it was
    /// worked out from (`Stale` or `Moved` otherwise; nothing stored).
    pub async fn store_networks(
        &self,
        cluster_id: i64,
        checked: &Checked,
        config: &NetworkConfiguration,
        rows: &[AddressRow],
    ) -> Result<(), DbError> {
        let mut tx = self.pool.begin().await?;
        lock_checked(&mut tx, cluster_id, checked).await?;
        store_in(&mut tx, cluster_id, config, rows).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Creates node group `name` in environment `cluster_id` and stores the
    /// networks `make` works out with it (given the new group's id), over
    /// what `checked` says; returns the group. `make` is async so that it
    /// may hand its work to another thread while the transaction waits.
    pub async fn create_group<E: From<DbError>>(
        &self,
        cluster_id: i64,
        name: &str,
        checked: &Checked,
        make: impl AsyncFnOnce(i64) -> Result<(NetworkConfiguration, Vec<AddressRow>), E>,
    ) -> Result<NodeGroup, E> {
        let mut tx = self.pool.begin().await.map_err(DbError::from)?;
        lock_checked(&mut tx, cluster_id, checked).await?;
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO node_groups (cluster_id, name) VALUES ($1, $2) RETURNING id",
        )
        .bind(cluster_id)
        .bind(name)
        .fetch_one(&mut *tx)
        .await
        .map_err(|e| match DbError::from(e) {
            DbError::Conflict(_) => {
                DbError::Conflict(format!("node group '{name}' exists already"))
            }
            other => other,
        })?;
        let (config, rows) = make(id).await?;
        store_in(&mut tx, cluster_id, &config, &rows).await?;
        tx.commit().await.map_err(DbError::from)?;
        Ok(NodeGroup {
            id,
            name: name.to_owned(),
        })
    }

    /// Gives environment `cluster_id` its node group `default` if it has
    /// none, and puts every node in no group into it (environments stored
    /// before node groups).
    pub async fn ensure_default_group(&self, cluster_id: i64) -> Result<(), DbError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO node_groups (cluster_id, name) SELECT $1, $2 \
             WHERE NOT EXISTS (SELECT 1 FROM node_groups WHERE cluster_id = $1 AND name = $2)",
        )
        .bind(cluster_id)
        .bind(mosaic_core::network::DEFAULT_GROUP)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "UPDATE nodes SET group_id = (SELECT id FROM node_groups WHERE cluster_id = $1 AND name = $2) \
             WHERE cluster_id = $1 AND group_id IS NULL",
        )
        .bind(cluster_id)
        .bind(mosaic_core::network::DEFAULT_GROUP)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The environment of node group `id`, or `None`.
    pub async fn group_cluster(&self, id: i64) -> Result<Option<(i64, String)>, DbError> {
        let row = sqlx::query("SELECT cluster_id, name FROM node_groups WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.map(|r| Ok((r.try_get("cluster_id")?, r.try_get("name")?)))
            .transpose()
    }

    /// Deletes node group `id` of environment `cluster_id` and stores
    /// `config` and `rows`, its networks and every address without it, over
    /// what `checked` says they were worked out from; refused (`InUse`)
    /// while nodes are in it.
    pub async fn delete_group(
        &self,
        cluster_id: i64,
        id: i64,
        checked: &Checked,
        (config, rows): (&NetworkConfiguration, &[AddressRow]),
    ) -> Result<(), DbError> {
        let mut tx = self.pool.begin().await?;
        lock_checked(&mut tx, cluster_id, checked).await?;
        let nodes: Vec<String> =
            sqlx::query_scalar("SELECT name FROM nodes WHERE group_id = $1 ORDER BY id LIMIT 11")
                .bind(id)
                .fetch_all(&mut *tx)
                .await?;
        if !nodes.is_empty() {
            let more = if nodes.len() > 10 { ", …" } else { "" };
            let listed: Vec<&str> = nodes.iter().take(10).map(String::as_str).collect();
            return Err(DbError::InUse(
                super::InUse::NodeGroup,
                format!(
                    "node group {id} still has nodes ({}{more}): move them to another node group first",
                    listed.join(", ")
                ),
            ));
        }
        sqlx::query("DELETE FROM ip_addrs WHERE group_id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        store_in(&mut tx, cluster_id, config, rows).await?;
        sqlx::query("DELETE FROM node_groups WHERE id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }
}

/// Gives node `node` (stored as `after`) the addresses `addressing` says it
/// needs, inside its change: addresses it has that are still wanted stay,
/// the others go, and each missing one is the address after the highest in
/// use in its pool (or the lowest free one once the pool's end is used).
/// A pool with nothing left gives none (the environment's checks say so).
pub(super) async fn sync_node(
    conn: &mut AnyConnection,
    cluster_id: i64,
    addressing: &Addressing,
    after: &NodeTags,
    new: bool,
) -> Result<(), DbError> {
    let needs = addressing.needs(after);
    // A node just inserted has no address yet.
    let current = match new {
        true => BTreeMap::new(),
        false => addresses_of_in(conn, after.id).await?,
    };
    for (network, ip) in &current {
        let keep = needs
            .iter()
            .any(|n| &n.network == network && n.pool.iter().any(|r| r.contains(*ip)));
        if !keep {
            sqlx::query("DELETE FROM ip_addrs WHERE node_id = $1 AND network = $2")
                .bind(after.id)
                .bind(network.as_str())
                .execute(&mut *conn)
                .await?;
        }
    }
    for need in needs.iter().filter(|n| {
        current
            .get(&n.network)
            .is_none_or(|ip| !n.pool.iter().any(|r| r.contains(*ip)))
    }) {
        if let Some(ip) = free_address(conn, cluster_id, need).await? {
            let row = AddressRow {
                holder: HolderKey::Node(after.id),
                network: need.network.clone(),
                group: need.group,
                ip,
            };
            insert_row(conn, cluster_id, &row).await?;
        }
    }
    Ok(())
}

/// The rule's next address for `need` (see `mosaic_core::network::address`).
async fn free_address(
    conn: &mut AnyConnection,
    cluster_id: i64,
    need: &AddressNeed,
) -> Result<Option<Ipv4Addr>, DbError> {
    let Some(span) = span(&need.pool) else {
        return Ok(None);
    };
    let bounds = (i64::from(span.first_u32()), i64::from(span.last_u32()));
    let highest: Option<i64> = sqlx::query_scalar(
        "SELECT MAX(address) FROM ip_addrs WHERE cluster_id = $1 AND network = $2 AND address BETWEEN $3 AND $4",
    )
    .bind(cluster_id)
    .bind(need.network.as_str())
    .bind(bounds.0)
    .bind(bounds.1)
    .fetch_one(&mut *conn)
    .await?;
    let highest = highest.map(ip_of).transpose()?;
    match next_address(&need.pool, highest) {
        Next::Address(ip) => Ok(Some(ip)),
        Next::Scan => {
            let used: Vec<i64> = sqlx::query_scalar(
                "SELECT address FROM ip_addrs WHERE cluster_id = $1 AND network = $2 AND address BETWEEN $3 AND $4",
            )
            .bind(cluster_id)
            .bind(need.network.as_str())
            .bind(bounds.0)
            .bind(bounds.1)
            .fetch_all(&mut *conn)
            .await?;
            let used: BTreeSet<u32> = used
                .into_iter()
                .filter_map(|a| u32::try_from(a).ok())
                .collect();
            Ok(lowest_free(&need.pool, &used))
        }
    }
}

/// Moves the VIPs whose node group `holders` (every node holding one of
/// the VIPs' roles, as stored now) decide differently, inside a node's
/// change; a VIP without an address gets one.
pub(super) async fn sync_vips(
    conn: &mut AnyConnection,
    cluster_id: i64,
    addressing: &Addressing,
    holders: &[NodeTags],
) -> Result<(), DbError> {
    let current = vips_in(conn, cluster_id).await?;
    for (vip, group) in addressing.vip_groups(holders, &current) {
        if current.get(&vip).is_some_and(|v| v.group_id == group) {
            continue;
        }
        sqlx::query("DELETE FROM ip_addrs WHERE cluster_id = $1 AND vip = $2")
            .bind(cluster_id)
            .bind(&vip)
            .execute(&mut *conn)
            .await?;
        let Some(need) = addressing.vip_need(&vip, group) else {
            continue;
        };
        if let Some(ip) = free_address(conn, cluster_id, &need).await? {
            let row = AddressRow {
                holder: HolderKey::Vip(vip.clone()),
                network: need.network.clone(),
                group,
                ip,
            };
            insert_row(conn, cluster_id, &row).await?;
        }
    }
    Ok(())
}

/// A node's addresses and the VIPs' after its change, inside the change:
/// `after` gets what it needs (none when it is deleted), and when the node
/// held or holds a role a VIP serves, the VIPs are placed again among the
/// nodes holding those roles as stored now.
pub(super) async fn after_node_change(
    conn: &mut AnyConnection,
    cluster_id: i64,
    addressing: &Addressing,
    before: Option<&NodeTags>,
    after: Option<&NodeTags>,
) -> Result<(), DbError> {
    if let Some(after) = after {
        sync_node(conn, cluster_id, addressing, after, before.is_none()).await?;
    }
    let roles = addressing.vip_roles();
    let serves = |n: Option<&NodeTags>| n.is_some_and(|n| n.all_roles().any(|r| roles.contains(r)));
    if serves(before) || serves(after) {
        let holders: Vec<NodeTags> =
            super::holders::nodes_holding_in(conn, cluster_id, (&roles, &[]), false)
                .await?
                .into_iter()
                .map(|n| n.spec)
                .collect();
        sync_vips(conn, cluster_id, addressing, &holders).await?;
    }
    Ok(())
}
