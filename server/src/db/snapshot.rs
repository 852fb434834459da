//! Everything environments are made of, read on one connection (inside a
//! transaction: one consistent view), for decisions that must not race
//! with changes — whether a plugin is still in use when it is uninstalled.

use mosaic_core::name::{RoleName, TagName};
use mosaic_core::network::NodeGroup;
use mosaic_core::role_layer::{RoleChange, RoleLayer};
use mosaic_core::tag::{TagMeta, TagsMetadata};
use sqlx::{AnyConnection, Row};

use super::plugin_row::plugins_in;
use super::{DbError, StoredCluster, StoredNode, StoredPlugin, TagOwner};

#[derive(Debug, Clone)]
pub struct Snapshot {
    pub plugins: Vec<StoredPlugin>,
    pub clusters: Vec<StoredCluster>,
    pub nodes: Vec<StoredNode>,
    tags: Vec<(TagOwner, TagName, TagMeta)>,
    role_changes: Vec<(TagOwner, RoleName, RoleChange)>,
    /// Every environment's node groups: (environment, group).
    groups: Vec<(i64, NodeGroup)>,
}

impl Snapshot {
    /// The nodes of environment `cluster`, in id order.
    pub fn nodes_of(&self, cluster: i64) -> impl Iterator<Item = &StoredNode> {
        self.nodes.iter().filter(move |n| n.cluster_id == cluster)
    }

    /// Environment `cluster`'s node groups, in id order.
    pub fn groups_of(&self, cluster: i64) -> Vec<NodeGroup> {
        self.groups
            .iter()
            .filter(|(c, _)| *c == cluster)
            .map(|(_, g)| g.clone())
            .collect()
    }

    /// The tags created on `owner`, in creation order.
    pub fn tags_of(&self, owner: TagOwner) -> TagsMetadata {
        self.tags
            .iter()
            .filter(|(o, _, _)| *o == owner)
            .map(|(_, name, meta)| (name.clone(), *meta))
            .collect()
    }

    /// The changes of roles made on `owner`.
    pub fn roles_of(&self, owner: TagOwner) -> RoleLayer {
        RoleLayer(
            self.role_changes
                .iter()
                .filter(|(o, _, _)| *o == owner)
                .map(|(_, name, change)| (name.clone(), change.clone()))
                .collect(),
        )
    }
}

pub(super) async fn snapshot_in(conn: &mut AnyConnection) -> Result<Snapshot, DbError> {
    let plugins = plugins_in(conn).await?;
    let clusters = sqlx::query(&format!(
        "SELECT {} FROM {} ORDER BY c.id",
        super::cluster_row::COLUMNS,
        super::cluster_row::TABLES
    ))
    .fetch_all(&mut *conn)
    .await?
    .iter()
    .map(super::cluster_row::stored)
    .collect::<Result<_, _>>()?;
    let nodes = sqlx::query(&format!(
        "SELECT {} FROM nodes ORDER BY id",
        super::node_row::COLUMNS
    ))
    .fetch_all(&mut *conn)
    .await?
    .iter()
    .map(super::node_row::node)
    .collect::<Result<_, _>>()?;
    let tags = sqlx::query(
        "SELECT owner_kind, owner_id, name, has_primary, instances FROM tags ORDER BY id",
    )
    .fetch_all(&mut *conn)
    .await?
    .iter()
    .map(|row| {
        let owner = TagOwner::of_row(row, "tags")?;
        let name = TagName::new(row.try_get::<String, _>("name")?)
            .map_err(|e| DbError::Corrupt(format!("tags.name: {e}")))?;
        Ok((owner, name, super::tags::meta(row)?))
    })
    .collect::<Result<_, DbError>>()?;
    let role_changes = super::roles::all_in(conn).await?;
    let groups = sqlx::query("SELECT id, cluster_id, name FROM node_groups ORDER BY id")
        .fetch_all(&mut *conn)
        .await?
        .iter()
        .map(|r| {
            Ok((
                r.try_get("cluster_id")?,
                NodeGroup {
                    id: r.try_get("id")?,
                    name: r.try_get("name")?,
                },
            ))
        })
        .collect::<Result<_, DbError>>()?;
    Ok(Snapshot {
        plugins,
        clusters,
        nodes,
        tags,
        role_changes,
        groups,
    })
}
