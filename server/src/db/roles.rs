//! Changes of roles made on releases and environments (SEMANTICS §5.1):
//! one row per role and owner, the change as JSON.

use mosaic_core::name::RoleName;
use mosaic_core::role_layer::{RoleChange, RoleLayer};
use mosaic_core::tag::NodeTags;
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

async fn layer_in(conn: &mut AnyConnection, owner: TagOwner) -> Result<RoleLayer, DbError> {
    let (kind, id) = owner.parts();
    let rows = sqlx::query(
        "SELECT owner_kind, owner_id, name, change FROM role_changes \
         WHERE owner_kind = $1 AND owner_id = $2",
    )
    .bind(kind)
    .bind(id)
    .fetch_all(&mut *conn)
    .await?;
    let changes = rows.iter().map(read).collect::<Result<Vec<_>, _>>()?;
    Ok(RoleLayer(
        changes.into_iter().map(|(_, n, c)| (n, c)).collect(),
    ))
}

impl Db {
    /// The changes of roles made on `owner`.
    pub async fn role_layer(&self, owner: TagOwner) -> Result<RoleLayer, DbError> {
        let mut conn = self.pool.acquire().await?;
        layer_in(&mut conn, owner).await
    }

    /// Changes `owner`'s roles with `change`, which sees its changes and
    /// (for an environment) its nodes as stored now, and returns the
    /// changes to store and the nodes that change with them: one
    /// transaction. Only the roles whose change differs are written, so
    /// edits of different roles never undo each other; a role that is new
    /// here and was created meanwhile is a conflict.
    pub async fn change_roles<E: From<DbError>>(
        &self,
        owner: TagOwner,
        change: impl FnOnce(&RoleLayer, Vec<NodeTags>) -> Result<(RoleLayer, Vec<NodeTags>), E>,
    ) -> Result<RoleLayer, E> {
        let mut tx = self.pool.begin().await.map_err(DbError::from)?;
        let nodes = match owner {
            TagOwner::Cluster(id) => cluster_nodes(&mut tx, id).await?,
            TagOwner::Release(_) => Vec::new(),
        };
        let before = layer_in(&mut tx, owner).await?;
        let versions: std::collections::HashMap<i64, i64> =
            nodes.iter().map(|n| (n.id, n.version)).collect();
        let (after, mut changed) = change(&before, nodes)?;
        write_layer(&mut tx, owner, &before, &after).await?;
        for next in &mut changed {
            next.version = versions.get(&next.id).copied().unwrap_or(0) + 1;
            write_node(&mut tx, next).await?;
        }
        tx.commit().await.map_err(DbError::from)?;
        Ok(after)
    }
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
                "UPDATE role_changes SET change = $4 \
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
