//! Changes of roles made on releases and environments (SEMANTICS §5.1):
//! one row per role and owner, the change as JSON, with the version
//! `If-Match` compares.
//!
//! **A row outlives its change.** Undoing a change (or deleting a role
//! created there) keeps the row with `change` set to JSON `null` and its
//! version moved on, so that the role made again later goes on counting
//! from there: a version is never given twice to one role of one owner,
//! and an `If-Match` taken before a delete never matches what comes after
//! (issue 43).

use mosaic_core::name::RoleName;
use mosaic_core::role_layer::{RoleChange, RoleLayer};
use mosaic_core::tag::{NodeTags, TagsMetadata};
use std::collections::HashMap;

use sqlx::{AnyConnection, Row};

use super::cluster_row::{COLUMNS as CLUSTER_COLUMNS, StoredCluster, TABLES, stored};
use super::node_row::{COLUMNS, node, write_node};
use super::{Db, DbError, TagOwner};

/// A row: its owner, its role, and its change (none: undone).
type RoleRow = (TagOwner, RoleName, Option<RoleChange>);

fn read(row: &sqlx::any::AnyRow) -> Result<RoleRow, DbError> {
    let owner = TagOwner::of_row(row, "role_changes")?;
    let name = RoleName::new(row.try_get::<String, _>("name")?)
        .map_err(|e| DbError::Corrupt(format!("role_changes.name: {e}")))?;
    let change = serde_json::from_str(&row.try_get::<String, _>("change")?)
        .map_err(|e| DbError::Corrupt(format!("role_changes.change of '{name}': {e}")))?;
    Ok((owner, name, change))
}

/// Every owner's changes of roles (the undone left out).
pub(super) async fn all_in(
    conn: &mut AnyConnection,
) -> Result<Vec<(TagOwner, RoleName, RoleChange)>, DbError> {
    let rows =
        sqlx::query("SELECT owner_kind, owner_id, name, change FROM role_changes ORDER BY name")
            .fetch_all(&mut *conn)
            .await?;
    let mut all = Vec::new();
    for row in &rows {
        if let (owner, name, Some(change)) = read(row)? {
            all.push((owner, name, change));
        }
    }
    Ok(all)
}

/// The version of each role's row (none: 0), the undone ones included.
pub type RoleVersions = HashMap<RoleName, i64>;

pub(super) async fn layer_in(
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
        if let Some(change) = change {
            layer.0.insert(name, change);
        }
    }
    Ok((layer, versions))
}

/// One environment as a change that reaches it reads it, inside the
/// change's transaction after taking its row and its nodes' rows.
#[derive(Debug, Clone)]
pub struct EnvironmentRows {
    pub row: StoredCluster,
    /// Its nodes, in id order.
    pub nodes: Vec<NodeTags>,
    /// The tags created on it.
    pub tags: TagsMetadata,
    /// Its own changes of roles.
    pub roles: RoleLayer,
}

/// What a change of roles sees, read inside its transaction.
#[derive(Debug, Clone)]
pub struct RolesSeen {
    /// The owner's changes as stored now.
    pub layer: RoleLayer,
    /// The environments the change reaches: the environment itself, or
    /// every environment on the release; rows taken.
    pub environments: Vec<EnvironmentRows>,
    /// The tags created on the release concerned (the owner, or the
    /// environment's release).
    pub release_tags: TagsMetadata,
    /// That release's changes of roles (the owner's layer for a release).
    pub release_roles: RoleLayer,
}

impl Db {
    /// The changes of roles made on `owner`.
    pub async fn role_layer(&self, owner: TagOwner) -> Result<RoleLayer, DbError> {
        let mut conn = self.pool.acquire().await?;
        Ok(layer_in(&mut conn, owner).await?.0)
    }

    /// Changes `owner`'s roles with `change`, which sees its changes and
    /// the environments they reach as stored now ([`RolesSeen`]), and
    /// returns the changes to store and the nodes that change with them:
    /// one transaction. Only the roles whose change differs are written, so
    /// edits of different roles never undo each other; a role that is new
    /// here and was created meanwhile is a conflict. With `expected` (a
    /// role and the version of its row seen, from `If-Match`), refused
    /// (`Stale`) when that row moved on. Returns the rows' versions after
    /// (undone ones included). A `dry_run` goes all the way and rolls back.
    pub async fn change_roles<E: From<DbError>>(
        &self,
        owner: TagOwner,
        (expected, dry_run): (Option<(&str, &super::Seen)>, bool),
        change: impl FnOnce(RolesSeen) -> Result<(RoleLayer, Vec<NodeTags>), E>,
    ) -> Result<RoleVersions, E> {
        let mut tx = self.pool.begin().await.map_err(DbError::from)?;
        // The owner's row first: changes of one owner's roles take turns
        // (on SQLite a transaction that read first could not write once
        // another had committed).
        let environments = match owner {
            TagOwner::Cluster(id) => vec![environment_rows(&mut tx, id).await?],
            TagOwner::Release(id) => {
                lock_release(&mut tx, id).await?;
                environments_on_release(&mut tx, id).await?
            }
        };
        let (before, versions) = layer_in(&mut tx, owner).await?;
        if let Some((name, seen)) = expected {
            let now = version_of(&versions, name);
            if !seen.allows(now) {
                return Err(DbError::Stale(format!(
                    "role '{name}' changed here since version {seen} (it is at version {now}); \
                     reload it"
                ))
                .into());
            }
        }
        let release_id = match owner {
            TagOwner::Release(id) => id,
            TagOwner::Cluster(_) => environments[0].row.cluster.release_id,
        };
        let release = TagOwner::Release(release_id);
        let seen = RolesSeen {
            release_tags: super::tags::user_tags_in(&mut tx, release).await?,
            release_roles: match owner {
                TagOwner::Release(_) => before.clone(),
                TagOwner::Cluster(_) => layer_in(&mut tx, release).await?.0,
            },
            layer: before.clone(),
            environments,
        };
        let (after, changed) = change(seen)?;
        let versions = write_layer(&mut tx, owner, &before, &after, versions).await?;
        write_nodes(&mut tx, &changed).await?;
        if dry_run {
            tx.rollback().await.map_err(DbError::from)?;
        } else {
            tx.commit().await.map_err(DbError::from)?;
        }
        Ok(versions)
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

/// Environment `id` as a change reaching it reads it: its row taken first,
/// then its nodes' (as a bulk change of its nodes takes them).
pub(super) async fn environment_rows(
    conn: &mut AnyConnection,
    id: i64,
) -> Result<EnvironmentRows, DbError> {
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
    read_environment(conn, id).await
}

/// Every environment on release `release_id` as a change reaching them
/// reads them: their rows taken first, in id order, then their nodes'.
pub(super) async fn environments_on_release(
    conn: &mut AnyConnection,
    release_id: i64,
) -> Result<Vec<EnvironmentRows>, DbError> {
    let ids: Vec<i64> =
        sqlx::query_scalar("SELECT id FROM clusters WHERE release_id = $1 ORDER BY id")
            .bind(release_id)
            .fetch_all(&mut *conn)
            .await?;
    for id in &ids {
        sqlx::query("UPDATE clusters SET settings_version = settings_version WHERE id = $1")
            .bind(id)
            .execute(&mut *conn)
            .await?;
    }
    let mut all = Vec::new();
    for id in ids {
        all.push(read_environment(conn, id).await?);
    }
    // One moved onto the release between the list and the locks is
    // left out: it was checked against another release.
    all.retain(|e| e.row.cluster.release_id == release_id);
    Ok(all)
}

/// Environment `id`'s row, nodes (their rows taken), tags and changes of
/// roles, its row taken already.
async fn read_environment(conn: &mut AnyConnection, id: i64) -> Result<EnvironmentRows, DbError> {
    let row = sqlx::query(&format!(
        "SELECT {CLUSTER_COLUMNS} FROM {TABLES} WHERE c.id = $1"
    ))
    .bind(id)
    .fetch_one(&mut *conn)
    .await?;
    sqlx::query("UPDATE nodes SET version = version WHERE cluster_id = $1")
        .bind(id)
        .execute(&mut *conn)
        .await?;
    let nodes = sqlx::query(&format!(
        "SELECT {COLUMNS} FROM nodes WHERE cluster_id = $1 ORDER BY id"
    ))
    .bind(id)
    .fetch_all(&mut *conn)
    .await?
    .iter()
    .map(|r| node(r).map(|n| n.spec))
    .collect::<Result<_, _>>()?;
    let owner = TagOwner::Cluster(id);
    Ok(EnvironmentRows {
        row: stored(&row)?,
        nodes,
        tags: super::tags::user_tags_in(conn, owner).await?,
        roles: layer_in(conn, owner).await?.0,
    })
}

/// Stores `nodes` (read inside the transaction, their rows taken), each
/// at its version read plus one.
pub(super) async fn write_nodes(
    conn: &mut AnyConnection,
    nodes: &[NodeTags],
) -> Result<(), DbError> {
    for next in nodes {
        let next = NodeTags {
            version: next.version + 1,
            ..next.clone()
        };
        write_node(conn, &next).await?;
    }
    Ok(())
}

/// Writes `owner`'s changes from `before` to `after`: rows whose change
/// differs are updated, rows of changes gone are kept undone (`null`),
/// each moving its version on; `versions` are the rows' versions read with
/// `before`, undone ones included. Returns the versions after.
pub(super) async fn write_layer(
    conn: &mut AnyConnection,
    owner: TagOwner,
    before: &RoleLayer,
    after: &RoleLayer,
    mut versions: RoleVersions,
) -> Result<RoleVersions, DbError> {
    let (kind, id) = owner.parts();
    let gone = before.0.keys().filter(|n| !after.0.contains_key(*n));
    let changed = after
        .0
        .iter()
        .filter(|(name, change)| before.0.get(*name) != Some(*change))
        .map(|(name, change)| (name, Some(change)));
    for (name, change) in gone.map(|n| (n, None)).chain(changed) {
        let json = serde_json::to_string(&change).expect("a role change serializes");
        // A change made here before moves on (the last of two edits
        // stays); a role new here takes the row it had here undone, or a
        // new row — and is a conflict when it was created meanwhile.
        let sql = match (before.0.contains_key(name), versions.contains_key(name)) {
            (true, _) => {
                "UPDATE role_changes SET change = $4, version = version + 1 \
                 WHERE owner_kind = $1 AND owner_id = $2 AND name = $3 RETURNING version"
            }
            (false, true) => {
                "UPDATE role_changes SET change = $4, version = version + 1 \
                 WHERE owner_kind = $1 AND owner_id = $2 AND name = $3 AND change = 'null' \
                 RETURNING version"
            }
            (false, false) => {
                "INSERT INTO role_changes (owner_kind, owner_id, name, change, version) \
                 VALUES ($1, $2, $3, $4, 1) ON CONFLICT (owner_kind, owner_id, name) DO NOTHING \
                 RETURNING version"
            }
        };
        let written: Option<i64> = sqlx::query_scalar(sql)
            .bind(kind)
            .bind(id)
            .bind(name.as_str())
            .bind(json)
            .fetch_optional(&mut *conn)
            .await?;
        let Some(version) = written else {
            return Err(DbError::Conflict(format!(
                "role '{name}' was changed meanwhile; try again"
            )));
        };
        versions.insert(name.clone(), version);
    }
    Ok(versions)
}
