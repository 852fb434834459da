//! Nodes' hardware as found (SEMANTICS §13): each node's in a row of its
//! own, which only a node's hardware page and an import read (the node
//! table reads the stamp on the node's row); an import stored whole or
//! not at all.

use mosaic_core::api::Hardware;
use mosaic_core::environment::Addressing;
use mosaic_core::node_import::{Existing, ImportPlan, Outcome};
use mosaic_core::tag::NodeTags;
use sqlx::{AnyConnection, Row};

use super::networks::after_node_change;
use super::node_row::{COLUMNS, insert_node_in, node, write_node};
use super::nodes::lock_environment;
use super::{Db, DbError, StoredNode};

fn corrupt(e: serde_json::Error) -> DbError {
    DbError::Corrupt(format!("node_hardware.hardware: {e}"))
}

/// Stores `hardware` as node `id`'s.
async fn put(conn: &mut AnyConnection, id: i64, hardware: &Hardware) -> Result<(), DbError> {
    let text = serde_json::to_string(hardware).expect("hardware serializes");
    sqlx::query(
        "INSERT INTO node_hardware (node_id, hardware) VALUES ($1, $2) \
         ON CONFLICT (node_id) DO UPDATE SET hardware = excluded.hardware",
    )
    .bind(id)
    .bind(text)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Environment `cluster_id`'s nodes with their hardware, in id order.
async fn existing_in(conn: &mut AnyConnection, cluster_id: i64) -> Result<Vec<Existing>, DbError> {
    let rows = sqlx::query(&format!(
        "SELECT {COLUMNS}, (SELECT h.hardware FROM node_hardware h WHERE h.node_id = nodes.id) \
         AS hardware FROM nodes WHERE cluster_id = $1 ORDER BY id"
    ))
    .bind(cluster_id)
    .fetch_all(&mut *conn)
    .await?;
    rows.iter()
        .map(|row| {
            let hardware = row
                .try_get::<Option<String>, _>("hardware")?
                .map(|t| serde_json::from_str(&t))
                .transpose()
                .map_err(corrupt)?;
            Ok(Existing {
                node: node(row)?.spec,
                hardware,
            })
        })
        .collect()
}

impl Db {
    /// Node `id`'s hardware, when it has any.
    pub async fn node_hardware(&self, id: i64) -> Result<Option<Hardware>, DbError> {
        let text: Option<String> =
            sqlx::query_scalar("SELECT hardware FROM node_hardware WHERE node_id = $1")
                .bind(id)
                .fetch_optional(&self.pool)
                .await?;
        text.map(|t| serde_json::from_str(&t))
            .transpose()
            .map_err(corrupt)
    }

    /// Imports found hardware into environment `cluster_id`: `plan` sees
    /// its nodes with their hardware as stored now (the environment's row
    /// taken, its settings still at version `checked.0`) and says what
    /// each host becomes. A dry run (not `store`) reads the nodes as
    /// they are, taking nothing. Stored only when the plan has no
    /// problem: new nodes inserted with their addresses, updated ones
    /// written, all in one transaction. Returns the plan.
    pub async fn import_hardware(
        &self,
        cluster_id: i64,
        checked: (i64, &Addressing),
        store: bool,
        plan: impl FnOnce(&[Existing]) -> ImportPlan,
    ) -> Result<ImportPlan, DbError> {
        if !store {
            let mut conn = self.pool.acquire().await?;
            return Ok(plan(&existing_in(&mut conn, cluster_id).await?));
        }
        let (checked_at, addressing) = checked;
        let mut tx = self.pool.begin().await?;
        lock_environment(&mut tx, cluster_id, Some(checked_at)).await?;
        sqlx::query("UPDATE nodes SET version = version WHERE cluster_id = $1")
            .bind(cluster_id)
            .execute(&mut *tx)
            .await?;
        let existing = existing_in(&mut tx, cluster_id).await?;
        let mut plan = plan(&existing);
        if !plan.problems.is_empty() {
            return Ok(plan);
        }
        for p in &mut plan.planned {
            match p.outcome {
                Outcome::Create => {
                    let stored = insert_node_in(&mut tx, cluster_id, &p.node).await?;
                    after_node_change(&mut tx, cluster_id, addressing, None, Some(&stored.spec))
                        .await?;
                    put(&mut tx, stored.spec.id, &p.hardware).await?;
                    p.node = stored.spec;
                }
                Outcome::Update(_) => {
                    p.node.version += 1;
                    write_node(&mut tx, &p.node).await?;
                    put(&mut tx, p.node.id, &p.hardware).await?;
                }
                Outcome::Unchanged => {}
            }
        }
        tx.commit().await?;
        Ok(plan)
    }

    /// Declares node `id`'s hardware: `change` sees the node and its
    /// hardware as stored now (the row locked) and returns both to store.
    /// With `if_version`, refused (`Stale`) when the node moved on.
    pub async fn declare_hardware<E: From<DbError>>(
        &self,
        id: i64,
        if_version: Option<&super::Seen>,
        change: impl FnOnce(&StoredNode, Option<Hardware>) -> Result<(NodeTags, Hardware), E>,
    ) -> Result<(StoredNode, Hardware), E> {
        let mut tx = self.pool.begin().await.map_err(DbError::from)?;
        let stored = super::nodes::locked_node(&mut tx, id, if_version).await?;
        let text: Option<String> =
            sqlx::query_scalar("SELECT hardware FROM node_hardware WHERE node_id = $1")
                .bind(id)
                .fetch_optional(&mut *tx)
                .await
                .map_err(DbError::from)?;
        let before = text
            .map(|t| serde_json::from_str(&t))
            .transpose()
            .map_err(corrupt)?;
        let (mut next, hardware) = change(&stored, before)?;
        next.id = id;
        next.version = stored.spec.version + 1;
        write_node(&mut tx, &next).await?;
        put(&mut tx, id, &hardware).await?;
        tx.commit().await.map_err(DbError::from)?;
        let stored = StoredNode {
            cluster_id: stored.cluster_id,
            spec: next,
        };
        Ok((stored, hardware))
    }
}
