//! Nodes of environments, with their roles and tag changes.

use mosaic_core::environment::RoleCounts;
use mosaic_core::hardware::{HardwareSource, HardwareStamp};
use mosaic_core::name::{ErrorType, NodeStatus, RoleName};
use mosaic_core::tag::NodeTags;
use serde::Serialize;
use serde::de::DeserializeOwned;
use sqlx::any::AnyRow;
use sqlx::{Any, Row, Transaction};

use super::networks::after_node_change;
use super::{Db, DbError};
use mosaic_core::environment::{AddressRow, Addressing};
use mosaic_core::network::NetworkConfiguration;

/// A stored node: its environment, and what tag derivation reads (its
/// name included).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredNode {
    pub cluster_id: i64,
    pub spec: NodeTags,
}

fn list<T: DeserializeOwned>(row: &AnyRow, column: &str) -> Result<Vec<T>, DbError> {
    let text: String = row.try_get(column)?;
    serde_json::from_str(&text).map_err(|e| DbError::Corrupt(format!("nodes.{column}: {e}")))
}

fn json<T: Serialize>(list: &[T]) -> String {
    serde_json::to_string(list).expect("names serialize")
}

pub(super) fn node(row: &AnyRow) -> Result<StoredNode, DbError> {
    let status: String = row.try_get("status")?;
    Ok(StoredNode {
        cluster_id: row.try_get("cluster_id")?,
        spec: NodeTags {
            id: row.try_get("id")?,
            name: Some(row.try_get("name")?),
            status: NodeStatus::parse(&status)
                .map_err(|e| DbError::Corrupt(format!("nodes.status: {e}")))?,
            error_type: row
                .try_get::<Option<String>, _>("error_type")?
                .map(|t| ErrorType::parse(&t))
                .transpose()
                .map_err(|e| DbError::Corrupt(format!("nodes.error_type: {e}")))?,
            roles: list(row, "roles")?,
            pending_roles: list(row, "pending_roles")?,
            tags_added: list(row, "tags_added")?,
            tags_removed: list(row, "tags_removed")?,
            primary_tags: list(row, "primary_tags")?,
            tags_assigned: list(row, "tags_assigned")?,
            pending_deletion: row.try_get::<i64, _>("pending_deletion")? != 0,
            version: row.try_get("version")?,
            node_group: row.try_get("group_name")?,
            interfaces: row
                .try_get::<Option<String>, _>("interfaces")?
                .map(|t| serde_json::from_str(&t))
                .transpose()
                .map_err(|e| DbError::Corrupt(format!("nodes.interfaces: {e}")))?,
            addresses: Default::default(),
            disks: row
                .try_get::<Option<String>, _>("disks")?
                .map(|t| serde_json::from_str(&t))
                .transpose()
                .map_err(|e| DbError::Corrupt(format!("nodes.disks: {e}")))?,
            found: stamp(row)?,
        },
    })
}

/// Where and when a node's hardware was found, as stored on its row.
fn stamp(row: &AnyRow) -> Result<Option<HardwareStamp>, DbError> {
    let Some(source) = row.try_get::<Option<String>, _>("hardware_source")? else {
        return Ok(None);
    };
    let corrupt = |e: serde_json::Error| DbError::Corrupt(format!("nodes.hardware_source: {e}"));
    let source: HardwareSource =
        serde_json::from_value(serde_json::Value::String(source)).map_err(corrupt)?;
    let switches = match row.try_get::<Option<String>, _>("switches")? {
        Some(text) => serde_json::from_str(&text)
            .map_err(|e| DbError::Corrupt(format!("nodes.switches: {e}")))?,
        None => Vec::new(),
    };
    Ok(Some(HardwareStamp {
        source,
        found_at: row
            .try_get::<Option<String>, _>("hardware_found_at")?
            .unwrap_or_default(),
        switches,
    }))
}

/// The stamp's columns as stored: source, found at, switches.
fn stamp_columns(spec: &NodeTags) -> (Option<String>, Option<String>, Option<String>) {
    let Some(found) = &spec.found else {
        return (None, None, None);
    };
    let source = serde_json::to_value(found.source)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned));
    (
        source,
        Some(found.found_at.clone()),
        Some(json(&found.switches)),
    )
}

/// A node's columns, its layout read as `$disks` says.
macro_rules! node_columns {
    ($disks:literal) => {
        concat!(
            "id, cluster_id, name, status, error_type, roles, pending_roles, tags_added, tags_removed, \
             primary_tags, tags_assigned, pending_deletion, version, interfaces, hardware_source, \
             hardware_found_at, switches, ",
            $disks,
            ", (SELECT g.name FROM node_groups g WHERE g.id = nodes.group_id) AS group_name"
        )
    };
}

/// Every column of a node: what every path that reads a node to write it
/// back reads, so that none loses what it does not change.
pub(super) const COLUMNS: &str = node_columns!("disks");

/// A node's columns but its layout (read as none): what the node list
/// shows, which carries no layout and should not parse ten thousand of
/// them. A node read so is never written back.
const LISTED_COLUMNS: &str = node_columns!("CAST(NULL AS TEXT) AS disks");

/// `interfaces` as stored (NULL: none declared).
fn interfaces_json(spec: &NodeTags) -> Option<String> {
    spec.interfaces
        .as_ref()
        .map(|i| serde_json::to_string(i).expect("interfaces serialize"))
}

/// `disks` as stored (NULL: no disk known).
fn disks_json(spec: &NodeTags) -> Option<String> {
    spec.disks
        .as_ref()
        .map(|d| serde_json::to_string(d).expect("layouts serialize"))
}

/// The node group a node is stored in: its group's name, `default` when it
/// names none.
fn group_name(spec: &NodeTags) -> &str {
    spec.node_group
        .as_deref()
        .unwrap_or(mosaic_core::network::DEFAULT_GROUP)
}

/// Takes environment `cluster_id`'s row for the rest of `tx` (PostgreSQL's
/// row lock, SQLite's write lock): every change of its nodes' roles takes it
/// first, so changes that each keep a role within its maximum cannot pass
/// it together, on one server or across replicas. `checked_at`: the
/// settings version the change was checked against (which roles exist and
/// may be given depends on the settings and components); `Moved` when they
/// have changed since, for the caller to check again.
pub(super) async fn lock_environment(
    conn: &mut sqlx::AnyConnection,
    cluster_id: i64,
    checked_at: Option<i64>,
) -> Result<(), DbError> {
    let version: Option<i64> = sqlx::query_scalar(
        "UPDATE clusters SET settings_version = settings_version WHERE id = $1 \
         RETURNING settings_version",
    )
    .bind(cluster_id)
    .fetch_optional(&mut *conn)
    .await?;
    match version {
        None => Err(DbError::NotFound(format!(
            "environment {cluster_id} does not exist"
        ))),
        Some(now) if checked_at.is_some_and(|v| v != now) => Err(moved(cluster_id)),
        Some(_) => Ok(()),
    }
}

fn moved(cluster_id: i64) -> DbError {
    DbError::Moved(format!(
        "the settings or components of environment {cluster_id} changed while the change was checked; try again"
    ))
}

/// How many of environment `cluster_id`'s nodes hold each role, as stored
/// now inside the transaction (nodes pending deletion left out).
async fn role_counts(
    conn: &mut sqlx::AnyConnection,
    cluster_id: i64,
) -> Result<RoleCounts, DbError> {
    let rows = sqlx::query(
        "SELECT roles, pending_roles FROM nodes WHERE cluster_id = $1 AND pending_deletion = 0",
    )
    .bind(cluster_id)
    .fetch_all(&mut *conn)
    .await?;
    let mut counts = RoleCounts::default();
    for row in &rows {
        let roles: Vec<RoleName> = list(row, "roles")?;
        let pending: Vec<RoleName> = list(row, "pending_roles")?;
        counts.add_holder(roles.iter().chain(&pending));
    }
    Ok(counts)
}

impl Db {
    /// Inserts a node into environment `cluster_id`, after taking the
    /// environment's row: `check` sees how many of its nodes hold each role
    /// now (when `counted`; no counts otherwise) and may refuse (nothing is
    /// stored then).
    pub async fn insert_node<E: From<DbError>>(
        &self,
        cluster_id: i64,
        spec: &NodeTags,
        checked: (i64, &Addressing),
        counted: bool,
        check: impl FnOnce(&RoleCounts) -> Result<(), E>,
    ) -> Result<StoredNode, E> {
        let (checked_at, addressing) = checked;
        let mut tx = self.pool.begin().await.map_err(DbError::from)?;
        lock_environment(&mut tx, cluster_id, Some(checked_at)).await?;
        let counts = match counted {
            true => role_counts(&mut tx, cluster_id).await?,
            false => RoleCounts::default(),
        };
        check(&counts)?;
        let stored = insert_node_in(&mut tx, cluster_id, spec).await?;
        after_node_change(&mut tx, cluster_id, addressing, None, Some(&stored.spec)).await?;
        tx.commit().await.map_err(DbError::from)?;
        Ok(stored)
    }

    pub async fn nodes(&self, cluster_id: i64) -> Result<Vec<StoredNode>, DbError> {
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM nodes WHERE cluster_id = $1 ORDER BY id"
        ))
        .bind(cluster_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(node).collect()
    }

    /// Environment `cluster_id`'s nodes as the node list shows them:
    /// without their layouts (`disks` none), to be shown, never written.
    pub async fn listed_nodes(&self, cluster_id: i64) -> Result<Vec<StoredNode>, DbError> {
        let rows = sqlx::query(&format!(
            "SELECT {LISTED_COLUMNS} FROM nodes WHERE cluster_id = $1 ORDER BY id"
        ))
        .bind(cluster_id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(node).collect()
    }

    pub async fn node(&self, id: i64) -> Result<Option<StoredNode>, DbError> {
        let row = sqlx::query(&format!("SELECT {COLUMNS} FROM nodes WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(node).transpose()
    }

    /// Changes node `id` with `change`, which sees the node as stored now
    /// and returns what to store: concurrent changes of one node take turns
    /// (the row is locked before it is read), so none is lost. With
    /// `if_version`, refused (`Stale`) when the node moved on. Returns the
    /// node as stored after the change.
    pub async fn change_node<E: From<DbError>>(
        &self,
        id: i64,
        if_version: Option<&super::Seen>,
        change: impl FnOnce(&StoredNode) -> Result<NodeTags, E>,
    ) -> Result<StoredNode, E> {
        self.change_node_with(id, if_version, None, false, |node, _| change(node))
            .await
    }

    /// [`Self::change_node`] for a change that may give the node roles:
    /// when `counted`, `change` also sees how many of the environment's
    /// nodes hold each role now (this node included; no counts otherwise).
    pub async fn change_node_roles<E: From<DbError>>(
        &self,
        id: i64,
        if_version: Option<&super::Seen>,
        checked: (i64, &Addressing),
        counted: bool,
        change: impl FnOnce(&StoredNode, &RoleCounts) -> Result<NodeTags, E>,
    ) -> Result<StoredNode, E> {
        self.change_node_with(id, if_version, Some(checked), counted, change)
            .await
    }

    async fn change_node_with<E: From<DbError>>(
        &self,
        id: i64,
        if_version: Option<&super::Seen>,
        checked: Option<(i64, &Addressing)>,
        counted: bool,
        change: impl FnOnce(&StoredNode, &RoleCounts) -> Result<NodeTags, E>,
    ) -> Result<StoredNode, E> {
        let mut tx = self.pool.begin().await.map_err(DbError::from)?;
        let missing = || DbError::NotFound(format!("node {id} does not exist"));
        // Locks first, the environment's row before the node's (the order
        // bulk changes take them in): PostgreSQL's row locks, SQLite's
        // write lock. A write comes first: SQLite cannot turn a read
        // transaction into a write one once another has written.
        let locked: Option<(i64, i64)> = sqlx::query_as(
            "UPDATE clusters SET settings_version = settings_version \
             WHERE id = (SELECT cluster_id FROM nodes WHERE id = $1) RETURNING id, settings_version",
        )
        .bind(id)
        .fetch_optional(&mut *tx)
        .await
        .map_err(DbError::from)?;
        let (cluster_id, now) = locked.ok_or_else(missing)?;
        if checked.is_some_and(|(v, _)| v != now) {
            return Err(moved(cluster_id).into());
        }
        let stored = locked_node(&mut tx, id, if_version).await?;
        let counts = if counted {
            role_counts(&mut tx, cluster_id).await?
        } else {
            RoleCounts::default()
        };
        let mut next = change(&stored, &counts)?;
        next.id = id;
        next.version = stored.spec.version + 1;
        write_node(&mut tx, &next).await?;
        if let Some((_, addressing)) = checked {
            after_node_change(
                &mut tx,
                cluster_id,
                addressing,
                Some(&stored.spec),
                Some(&next),
            )
            .await?;
        }
        tx.commit().await.map_err(DbError::from)?;
        Ok(StoredNode {
            cluster_id: stored.cluster_id,
            spec: next,
        })
    }
}

impl Db {
    /// Deletes node `id` of environment `cluster_id` (its addresses go
    /// with it; the VIPs are placed again when it served one); `false` when
    /// there is no such node.
    pub async fn delete_node(
        &self,
        cluster_id: i64,
        id: i64,
        addressing: &Addressing,
    ) -> Result<bool, DbError> {
        let mut tx = self.pool.begin().await?;
        lock_environment(&mut tx, cluster_id, None).await?;
        let row = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM nodes WHERE id = $1 AND cluster_id = $2"
        ))
        .bind(id)
        .bind(cluster_id)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(before) = row.as_ref().map(node).transpose()? else {
            return Ok(false);
        };
        sqlx::query("DELETE FROM nodes WHERE id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        after_node_change(&mut tx, cluster_id, addressing, Some(&before.spec), None).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Changes several nodes of environment `cluster_id` at once: `change`
    /// sees every node of the environment as stored now and returns the
    /// nodes to store, all of them or (by failing) none. Changes of one
    /// environment's nodes take turns on its row, then take the nodes'
    /// rows (a single node's change its node's), so no two changes wait
    /// for each other in a cycle.
    pub async fn change_nodes<E: From<DbError>>(
        &self,
        cluster_id: i64,
        checked_at: i64,
        change: impl FnOnce(Vec<NodeTags>) -> Result<NodesChanged, E>,
    ) -> Result<Vec<NodeTags>, E> {
        let mut tx = self.pool.begin().await.map_err(DbError::from)?;
        lock_environment(&mut tx, cluster_id, Some(checked_at)).await?;
        // Then its nodes' rows (PostgreSQL; SQLite holds its write lock).
        sqlx::query("UPDATE nodes SET version = version WHERE cluster_id = $1")
            .bind(cluster_id)
            .execute(&mut *tx)
            .await
            .map_err(DbError::from)?;
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM nodes WHERE cluster_id = $1 ORDER BY id"
        ))
        .bind(cluster_id)
        .fetch_all(&mut *tx)
        .await
        .map_err(DbError::from)?;
        let mut nodes: Vec<NodeTags> = rows
            .iter()
            .map(|r| node(r).map(|n| n.spec))
            .collect::<Result<_, _>>()?;
        let mut addresses = super::networks::node_addresses_in(&mut tx, cluster_id).await?;
        for n in &mut nodes {
            n.addresses = addresses.remove(&n.id).unwrap_or_default();
        }
        let versions: std::collections::HashMap<i64, i64> =
            nodes.iter().map(|n| (n.id, n.version)).collect();
        let NodesChanged {
            nodes: mut changed,
            networks,
        } = change(nodes)?;
        for next in &mut changed {
            let Some(version) = versions.get(&next.id) else {
                return Err(DbError::NotFound(format!(
                    "node {} is not in environment {cluster_id}",
                    next.id
                ))
                .into());
            };
            next.version = version + 1;
            write_node(&mut tx, next).await?;
        }
        if let Some((config, rows)) = &networks {
            super::networks::store_in(&mut tx, cluster_id, config, rows).await?;
        }
        tx.commit().await.map_err(DbError::from)?;
        Ok(changed)
    }
}

/// What a change of many nodes stores: the nodes it changed and, when it
/// moves addresses, the environment's networks and every address.
#[derive(Debug, Clone)]
pub struct NodesChanged {
    pub nodes: Vec<NodeTags>,
    pub networks: Option<(NetworkConfiguration, Vec<AddressRow>)>,
}

/// Node `id` with its row locked (a write: SQLite's write lock,
/// PostgreSQL's row lock), as stored; refused (`Stale`) when `if_version`
/// names none of its version, `NotFound` when there is no such node.
pub(super) async fn locked_node(
    tx: &mut Transaction<'_, Any>,
    id: i64,
    if_version: Option<&super::Seen>,
) -> Result<StoredNode, DbError> {
    let locked = sqlx::query("UPDATE nodes SET version = version WHERE id = $1")
        .bind(id)
        .execute(&mut **tx)
        .await?
        .rows_affected();
    if locked == 0 {
        return Err(DbError::NotFound(format!("node {id} does not exist")));
    }
    let row = sqlx::query(&format!("SELECT {COLUMNS} FROM nodes WHERE id = $1"))
        .bind(id)
        .fetch_one(&mut **tx)
        .await?;
    let stored = node(&row)?;
    if let Some(expected) = if_version.filter(|v| !v.allows(stored.spec.version)) {
        return Err(DbError::Stale(format!(
            "node {id} changed since version {expected} (it is at version {}); reload it",
            stored.spec.version
        )));
    }
    Ok(stored)
}

/// Stores `spec` (its version included) for node `spec.id`.
pub(super) async fn write_node(
    conn: &mut sqlx::AnyConnection,
    spec: &NodeTags,
) -> Result<(), DbError> {
    let (source, found_at, switches) = stamp_columns(spec);
    sqlx::query(
        "UPDATE nodes SET status = $1, roles = $2, pending_roles = $3, tags_added = $4, \
         tags_removed = $5, primary_tags = $6, pending_deletion = $7, version = $8, \
         tags_assigned = $10, interfaces = $11, group_id = (SELECT g.id FROM node_groups g \
         WHERE g.cluster_id = nodes.cluster_id AND g.name = $12), error_type = $13, \
         hardware_source = $14, hardware_found_at = $15, switches = $16, disks = $17 WHERE id = $9",
    )
    .bind(spec.status.as_str())
    .bind(json(&spec.roles))
    .bind(json(&spec.pending_roles))
    .bind(json(&spec.tags_added))
    .bind(json(&spec.tags_removed))
    .bind(json(&spec.primary_tags))
    .bind(i64::from(spec.pending_deletion))
    .bind(spec.version)
    .bind(spec.id)
    .bind(json(&spec.tags_assigned))
    .bind(interfaces_json(spec))
    .bind(group_name(spec))
    .bind(spec.error_type.map(ErrorType::as_str))
    .bind(source)
    .bind(found_at)
    .bind(switches)
    .bind(disks_json(spec))
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Inserts a node inside `tx`; its name defaults to `node-<id>`.
pub(super) async fn insert_node_in(
    tx: &mut Transaction<'_, Any>,
    cluster_id: i64,
    spec: &NodeTags,
) -> Result<StoredNode, DbError> {
    let id: i64 = sqlx::query(
        "INSERT INTO nodes (cluster_id, name, status, roles, pending_roles, tags_added, tags_removed, primary_tags, pending_deletion, tags_assigned, interfaces, group_id) \
         VALUES ($1, '', $2, $3, $4, $5, $6, $7, $8, $9, $10, \
         (SELECT g.id FROM node_groups g WHERE g.cluster_id = $1 AND g.name = $11)) RETURNING id",
    )
    .bind(cluster_id)
    .bind(spec.status.as_str())
    .bind(json(&spec.roles))
    .bind(json(&spec.pending_roles))
    .bind(json(&spec.tags_added))
    .bind(json(&spec.tags_removed))
    .bind(json(&spec.primary_tags))
    .bind(i64::from(spec.pending_deletion))
    .bind(json(&spec.tags_assigned))
    .bind(interfaces_json(spec))
    .bind(group_name(spec))
    .fetch_one(&mut **tx)
    .await?
    .try_get(0)?;
    let name = spec.name.clone().unwrap_or_else(|| format!("node-{id}"));
    let (source, found_at, switches) = stamp_columns(spec);
    sqlx::query(
        "UPDATE nodes SET name = $1, hardware_source = $3, hardware_found_at = $4, \
         switches = $5, disks = $6 WHERE id = $2",
    )
    .bind(&name)
    .bind(id)
    .bind(source)
    .bind(found_at)
    .bind(switches)
    .bind(disks_json(spec))
    .execute(&mut **tx)
    .await?;
    Ok(StoredNode {
        cluster_id,
        spec: NodeTags {
            id,
            name: Some(name),
            version: 1,
            node_group: Some(group_name(spec).to_owned()),
            ..spec.clone()
        },
    })
}
