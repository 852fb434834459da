//! Nodes of environments, with their roles and tag changes: added,
//! listed, changed one at a time or many at once, deleted; each change
//! takes its environment's row first. Their row is `node_row`'s.

use mosaic_core::environment::RoleCounts;
use mosaic_core::name::RoleName;
use mosaic_core::tag::NodeTags;
use sqlx::{Any, Transaction};

use super::networks::after_node_change;
use super::node_row::{
    COLUMNS, LISTED_COLUMNS, StoredNode, insert_node_in, list, node, write_node,
};
use super::{Db, DbError};
use mosaic_core::environment::{AddressRow, Addressing};
use mosaic_core::network::NetworkConfiguration;

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
