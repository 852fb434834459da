//! A node's row: its columns, read into a `StoredNode`, written back and
//! inserted. Every module that reads or writes nodes goes through these,
//! so that none loses what it does not change.

use mosaic_core::hardware::{HardwareSource, HardwareStamp};
use mosaic_core::name::{ErrorType, NodeStatus};
use mosaic_core::tag::NodeTags;
use serde::Serialize;
use serde::de::DeserializeOwned;
use sqlx::any::AnyRow;
use sqlx::{Any, Row, Transaction};

use super::DbError;

/// A stored node: its environment, and what tag derivation reads (its
/// name included).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredNode {
    pub cluster_id: i64,
    pub spec: NodeTags,
}

/// A JSON list column of a node's row.
pub(super) fn list<T: DeserializeOwned>(row: &AnyRow, column: &str) -> Result<Vec<T>, DbError> {
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
pub(super) const LISTED_COLUMNS: &str = node_columns!("CAST(NULL AS TEXT) AS disks");

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

/// A query with `spec` bound to `$1`…`$15`, in this order: `status`,
/// `roles`, `pending_roles`, `tags_added`, `tags_removed`, `primary_tags`,
/// `pending_deletion`, `tags_assigned`, `interfaces`, the node group's
/// name, `error_type`, `hardware_source`, `hardware_found_at`, `switches`,
/// `disks`. Written once for the update and the insert, so that neither
/// forgets a column.
fn bind_spec<'q>(
    query: sqlx::query::Query<'q, Any, sqlx::any::AnyArguments<'q>>,
    spec: &'q NodeTags,
) -> sqlx::query::Query<'q, Any, sqlx::any::AnyArguments<'q>> {
    let (source, found_at, switches) = stamp_columns(spec);
    query
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
        .bind(spec.error_type.map(ErrorType::as_str))
        .bind(source)
        .bind(found_at)
        .bind(switches)
        .bind(disks_json(spec))
}

/// Stores `spec` (its version included) for node `spec.id`.
pub(super) async fn write_node(
    conn: &mut sqlx::AnyConnection,
    spec: &NodeTags,
) -> Result<(), DbError> {
    let update = sqlx::query(
        "UPDATE nodes SET status = $1, roles = $2, pending_roles = $3, tags_added = $4, \
         tags_removed = $5, primary_tags = $6, pending_deletion = $7, tags_assigned = $8, \
         interfaces = $9, group_id = (SELECT g.id FROM node_groups g \
         WHERE g.cluster_id = nodes.cluster_id AND g.name = $10), error_type = $11, \
         hardware_source = $12, hardware_found_at = $13, switches = $14, disks = $15, \
         version = $16 WHERE id = $17",
    );
    bind_spec(update, spec)
        .bind(spec.version)
        .bind(spec.id)
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
    let insert = sqlx::query(
        "INSERT INTO nodes (status, roles, pending_roles, tags_added, tags_removed, \
         primary_tags, pending_deletion, tags_assigned, interfaces, group_id, error_type, \
         hardware_source, hardware_found_at, switches, disks, cluster_id, name) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, \
         (SELECT g.id FROM node_groups g WHERE g.cluster_id = $16 AND g.name = $10), \
         $11, $12, $13, $14, $15, $16, '') RETURNING id",
    );
    let id: i64 = bind_spec(insert, spec)
        .bind(cluster_id)
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
            node_group: Some(group_name(spec).to_owned()),
            ..spec.clone()
        },
    })
}
