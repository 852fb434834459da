//! Changes of roles made on releases and environments (SEMANTICS §5.1):
//! one row per role and owner, the change as JSON.

use mosaic_core::name::RoleName;
use mosaic_core::role_layer::{RoleChange, RoleLayer};
use mosaic_core::tag::NodeTags;
use std::collections::HashMap;

use sqlx::{AnyConnection, Row};

use super::nodes::{COLUMNS, node, write_node};
use super::{Db, DbError, TagOwner};

fn read(row: &sqlx::any::AnyRow) -> Result<(TagOwner, RoleName, RoleChange), DbError> {
    let owner = TagOwner::of_row(row, "role_changes")?;
    let name = RoleName::new(row.try_get::<String, _>("name")?)
        .map_err(|e| DbError::Corrupt(format!("role_changes.name: {e}")))?;
    let change = serde_json::from_str(&row.try_get::<String, _>("change")?)
        .map_err(|e| DbError::Corrupt(format!("role_changes.change of '{name}': {e}")))?;
    Ok((owner, name, change))
}

/// Every owner's changes of roles.
pub(super) async fn all_in(
    conn: &mut AnyConnection,
) -> Result<Vec<(TagOwner, RoleName, RoleChange)>, DbError> {
    sqlx::query("SELECT owner_kind, owner_id, name, change FROM role_changes ORDER BY name")
        .fetch_all(&mut *conn)
        .await?
        .iter()
        .map(read)
        .collect()
}

/// The version of each role's row (none: 0).
pub type RoleVersions = HashMap<RoleName, i64>;

async fn layer_in(
    conn: &mut AnyConnection,
    owner: TagOwner,
) -> Result<(RoleLayer, RoleVersions), DbError> {
    let (kind, id) = owner.parts();
    let rows = sqlx::query(
        "SELECT owner_kind, owner_id, name, change, version FROM role_changes \
         WHERE owner_kind = $1 AND owner_id = $2",
    )
    .bind(kind)
    .bind(id)
    .fetch_all(&mut *conn)
    .await?;
    let mut layer = RoleLayer::default();
    let mut versions = RoleVersions::new();
    for row in &rows {
        let (_, name, change) = read(row)?;
        versions.insert(name.clone(), row.try_get("version")?);
        layer.0.insert(name, change);
    }
    Ok((layer, versions))
}

impl Db {
    /// The changes of roles made on `owner`.
    pub async fn role_layer(&self, owner: TagOwner) -> Result<RoleLayer, DbError> {
        let mut conn = self.pool.acquire().await?;
        Ok(layer_in(&mut conn, owner).await?.0)
    }

    /// Changes `owner`'s roles with `change`, which sees its changes and
    /// (for an environment) its nodes as stored now, and returns the
    /// changes to store and the nodes that change with them: one
    /// transaction. Only the roles whose change differs are written, so
    /// edits of different roles never undo each other; a role that is new
    /// here and was created meanwhile is a conflict. With `expected` (a
    /// role and the version of its row seen, from `If-Match`), refused
    /// (`Stale`) when that row moved on. Returns the rows' versions after.
    pub async fn change_roles<E: From<DbError>>(
        &self,
        owner: TagOwner,
        expected: Option<(&str, i64)>,
        change: impl FnOnce(&RoleLayer, Vec<NodeTags>) -> Result<(RoleLayer, Vec<NodeTags>), E>,
    ) -> Result<RoleVersions, E> {
        let mut tx = self.pool.begin().await.map_err(DbError::from)?;
        // The owner's row first: changes of one owner's roles take turns
        // (on SQLite a transaction that read first could not write once
        // another had committed).
        let nodes = match owner {
            TagOwner::Cluster(id) => cluster_nodes(&mut tx, id).await?,
            TagOwner::Release(id) => {
                lock_release(&mut tx, id).await?;
                Vec::new()
            }
        };
        let (before, mut role_versions) = layer_in(&mut tx, owner).await?;
        if let Some((name, seen)) = expected {
            let now = version_of(&role_versions, name);
            if now != seen {
                return Err(DbError::Stale(format!(
                    "role '{name}' changed here since version {seen} (it is at version {now}); \
                     reload it"
                ))
                .into());
            }
        }
        let versions: HashMap<i64, i64> = nodes.iter().map(|n| (n.id, n.version)).collect();
        let (after, mut changed) = change(&before, nodes)?;
        write_layer(&mut tx, owner, &before, &after).await?;
        for (name, change) in &before.0 {
            if after.0.get(name) != Some(change) {
                let next = role_versions.get(name).copied().unwrap_or(0) + 1;
                role_versions.insert(name.clone(), next);
            }
        }
        for name in after.0.keys().filter(|n| !before.0.contains_key(*n)) {
            role_versions.insert(name.clone(), 1);
        }
        role_versions.retain(|name, _| after.0.contains_key(name));
        for next in &mut changed {
            next.version = versions.get(&next.id).copied().unwrap_or(0) + 1;
            write_node(&mut tx, next).await?;
        }
        tx.commit().await.map_err(DbError::from)?;
        Ok(role_versions)
    }
}

/// The version of role `name`'s row among `versions` (none: 0).
pub fn version_of(versions: &RoleVersions, name: &str) -> i64 {
    versions
        .iter()
        .find(|(n, _)| n.as_str() == name)
        .map_or(0, |(_, v)| *v)
}

/// Takes release `id`'s row.
async fn lock_release(conn: &mut AnyConnection, id: i64) -> Result<(), DbError> {
    let locked = sqlx::query("UPDATE releases SET id = id WHERE id = $1")
        .bind(id)
        .execute(&mut *conn)
        .await?
        .rows_affected();
    if locked == 0 {
        return Err(DbError::NotFound(format!("release {id} does not exist")));
    }
    Ok(())
}

/// Environment `id`'s nodes, its row and theirs taken first (as a bulk
/// change of its nodes takes them).
async fn cluster_nodes(conn: &mut AnyConnection, id: i64) -> Result<Vec<NodeTags>, DbError> {
    let locked =
        sqlx::query("UPDATE clusters SET settings_version = settings_version WHERE id = $1")
            .bind(id)
            .execute(&mut *conn)
            .await?
            .rows_affected();
    if locked == 0 {
        return Err(DbError::NotFound(format!(
            "environment {id} does not exist"
        )));
    }
    sqlx::query("UPDATE nodes SET version = version WHERE cluster_id = $1")
        .bind(id)
        .execute(&mut *conn)
        .await?;
    sqlx::query(&format!(
        "SELECT {COLUMNS} FROM nodes WHERE cluster_id = $1 ORDER BY id"
    ))
    .bind(id)
    .fetch_all(&mut *conn)
    .await?
    .iter()
    .map(|r| node(r).map(|n| n.spec))
    .collect()
}

pub(super) async fn write_layer(
    conn: &mut AnyConnection,
    owner: TagOwner,
    before: &RoleLayer,
    after: &RoleLayer,
) -> Result<(), DbError> {
    let (kind, id) = owner.parts();
    for name in before.0.keys().filter(|n| !after.0.contains_key(*n)) {
        sqlx::query(
            "DELETE FROM role_changes WHERE owner_kind = $1 AND owner_id = $2 AND name = $3",
        )
        .bind(kind)
        .bind(id)
        .bind(name.as_str())
        .execute(&mut *conn)
        .await?;
    }
    for (name, change) in &after.0 {
        let json = serde_json::to_string(change).expect("a role change serializes");
        let sql = match before.0.get(name) {
            Some(old) if old == change => continue,
            Some(_) => {
                "UPDATE role_changes SET change = $4, version = version + 1 \
                 WHERE owner_kind = $1 AND owner_id = $2 AND name = $3"
            }
            None => {
                "INSERT INTO role_changes (owner_kind, owner_id, name, change) \
                 VALUES ($1, $2, $3, $4) ON CONFLICT (owner_kind, owner_id, name) DO NOTHING"
            }
        };
        let written = sqlx::query(sql)
            .bind(kind)
            .bind(id)
            .bind(name.as_str())
            .bind(json)
            .execute(&mut *conn)
            .await?
            .rows_affected();
        if written == 0 {
            return Err(DbError::Conflict(format!(
                "role '{name}' was changed meanwhile; try again"
            )));
        }
    }
    Ok(())
}
