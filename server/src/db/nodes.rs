//! Nodes of environments, with their roles and tag changes.

use mosaic_core::name::NodeStatus;
use mosaic_core::tag::NodeTags;
use serde::Serialize;
use serde::de::DeserializeOwned;
use sqlx::any::AnyRow;
use sqlx::{Any, Row, Transaction};

use super::{Db, DbError};

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
            roles: list(row, "roles")?,
            pending_roles: list(row, "pending_roles")?,
            tags_added: list(row, "tags_added")?,
            tags_removed: list(row, "tags_removed")?,
            primary_tags: list(row, "primary_tags")?,
            tags_assigned: list(row, "tags_assigned")?,
            pending_deletion: row.try_get::<i64, _>("pending_deletion")? != 0,
            version: row.try_get("version")?,
        },
    })
}

pub(super) const COLUMNS: &str = "id, cluster_id, name, status, roles, pending_roles, tags_added, tags_removed, primary_tags, tags_assigned, pending_deletion, version";

impl Db {
    pub async fn insert_node(
        &self,
        cluster_id: i64,
        spec: &NodeTags,
    ) -> Result<StoredNode, DbError> {
        let mut tx = self.pool.begin().await?;
        let stored = insert_node_in(&mut tx, cluster_id, spec).await?;
        tx.commit().await?;
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
        if_version: Option<i64>,
        change: impl FnOnce(&StoredNode) -> Result<NodeTags, E>,
    ) -> Result<StoredNode, E> {
        let mut tx = self.pool.begin().await.map_err(DbError::from)?;
        // Locks first: PostgreSQL's row lock, SQLite's write lock.
        let locked = sqlx::query("UPDATE nodes SET version = version WHERE id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await
            .map_err(DbError::from)?
            .rows_affected();
        if locked == 0 {
            return Err(DbError::NotFound(format!("node {id} does not exist")).into());
        }
        let row = sqlx::query(&format!("SELECT {COLUMNS} FROM nodes WHERE id = $1"))
            .bind(id)
            .fetch_one(&mut *tx)
            .await
            .map_err(DbError::from)?;
        let stored = node(&row)?;
        if let Some(expected) = if_version.filter(|v| *v != stored.spec.version) {
            return Err(DbError::Stale(format!(
                "node {id} changed since version {expected} (it is at version {}); reload it",
                stored.spec.version
            ))
            .into());
        }
        let mut next = change(&stored)?;
        next.id = id;
        next.version = stored.spec.version + 1;
        write_node(&mut tx, &next).await?;
        tx.commit().await.map_err(DbError::from)?;
        Ok(StoredNode {
            cluster_id: stored.cluster_id,
            spec: next,
        })
    }
}

impl Db {
    /// Deletes node `id`; `false` when there is no such node.
    pub async fn delete_node(&self, id: i64) -> Result<bool, DbError> {
        let deleted = sqlx::query("DELETE FROM nodes WHERE id = $1")
            .bind(id)
            .execute(&self.pool)
            .await?
            .rows_affected();
        Ok(deleted == 1)
    }

    /// Changes several nodes of environment `cluster_id` at once: `change`
    /// sees every node of the environment as stored now and returns the
    /// nodes to store, all of them or (by failing) none. Bulk changes of
    /// one environment take turns on its row, then take its nodes' rows; a
    /// single node's change takes only that node's row and waits for
    /// nothing else, so no two changes wait for each other in a cycle.
    pub async fn change_nodes<E: From<DbError>>(
        &self,
        cluster_id: i64,
        change: impl FnOnce(Vec<NodeTags>) -> Result<Vec<NodeTags>, E>,
    ) -> Result<Vec<NodeTags>, E> {
        let mut tx = self.pool.begin().await.map_err(DbError::from)?;
        let locked =
            sqlx::query("UPDATE clusters SET settings_version = settings_version WHERE id = $1")
                .bind(cluster_id)
                .execute(&mut *tx)
                .await
                .map_err(DbError::from)?
                .rows_affected();
        if locked == 0 {
            return Err(
                DbError::NotFound(format!("environment {cluster_id} does not exist")).into(),
            );
        }
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
        let nodes: Vec<NodeTags> = rows
            .iter()
            .map(|r| node(r).map(|n| n.spec))
            .collect::<Result<_, _>>()?;
        let versions: std::collections::HashMap<i64, i64> =
            nodes.iter().map(|n| (n.id, n.version)).collect();
        let mut changed = change(nodes)?;
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
        tx.commit().await.map_err(DbError::from)?;
        Ok(changed)
    }
}

/// Stores `spec` (its version included) for node `spec.id`.
pub(super) async fn write_node(
    conn: &mut sqlx::AnyConnection,
    spec: &NodeTags,
) -> Result<(), DbError> {
    sqlx::query(
        "UPDATE nodes SET status = $1, roles = $2, pending_roles = $3, tags_added = $4, \
         tags_removed = $5, primary_tags = $6, pending_deletion = $7, version = $8, \
         tags_assigned = $10 WHERE id = $9",
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
        "INSERT INTO nodes (cluster_id, name, status, roles, pending_roles, tags_added, tags_removed, primary_tags, pending_deletion, tags_assigned) \
         VALUES ($1, '', $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id",
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
    .fetch_one(&mut **tx)
    .await?
    .try_get(0)?;
    let name = spec.name.clone().unwrap_or_else(|| format!("node-{id}"));
    sqlx::query("UPDATE nodes SET name = $1 WHERE id = $2")
        .bind(&name)
        .bind(id)
        .execute(&mut **tx)
        .await?;
    Ok(StoredNode {
        cluster_id,
        spec: NodeTags {
            id,
            name: Some(name),
            version: 1,
            ..spec.clone()
        },
    })
}
