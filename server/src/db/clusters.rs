//! Environments (clusters): what is stored of each — release, components,
//! mode, the operator's settings changes with their version (saved alone,
//! or with the networks when the save moves addresses) — and its own tags
//! and nodes. Their row is `cluster_row`'s.

use mosaic_core::api::Cluster;
use mosaic_core::component::ComponentName;
use mosaic_core::name::Mode;
use mosaic_core::plugin::Pins;
use mosaic_core::settings::Edits;
use mosaic_core::tag::NodeTags;
use std::collections::BTreeMap;

use mosaic_core::environment::AddressRow;
use mosaic_core::network::{HolderKey, NetworkConfiguration, NodeGroup};
use sqlx::Row;

use super::TagOwner;
use super::cluster_row::{COLUMNS, StoredCluster, TABLES, stored};
use super::networks::{Checked, lock_checked};
use super::{Db, DbError, RolesSeen};
use mosaic_core::environment::ReleaseChanges;
use mosaic_core::role_layer::RoleLayer;
use mosaic_core::tag::{TagMeta, TagsMetadata};

/// A new environment's networks: its node groups and node ids as its spec
/// numbers them (the database gives them theirs), its configuration and
/// its addresses.
#[derive(Debug, Clone, Copy)]
pub struct NewNetworks<'a> {
    pub groups: &'a [NodeGroup],
    pub config: &'a NetworkConfiguration,
    pub rows: &'a [AddressRow],
}

pub struct InsertCluster<'a> {
    pub name: &'a str,
    pub release_id: i64,
    pub components: &'a [ComponentName],
    pub mode: Mode,
    pub settings: &'a Edits,
    pub pins: &'a Pins,
}

/// Stores an environment's node groups: the id each group had (as its
/// file numbered it) and the id it has now.
async fn insert_groups_in(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    cluster_id: i64,
    groups: &[NodeGroup],
) -> Result<BTreeMap<i64, i64>, DbError> {
    let mut group_ids = BTreeMap::new();
    for group in groups {
        let new_id: i64 = sqlx::query_scalar(
            "INSERT INTO node_groups (cluster_id, name) VALUES ($1, $2) RETURNING id",
        )
        .bind(cluster_id)
        .bind(&group.name)
        .fetch_one(&mut **tx)
        .await?;
        group_ids.insert(group.id, new_id);
    }
    Ok(group_ids)
}

impl Db {
    pub async fn insert_cluster(
        &self,
        new: InsertCluster<'_>,
        networks: NewNetworks<'_>,
    ) -> Result<Cluster, DbError> {
        self.insert_cluster_with(new, &[], &[], RoleLayer::none(), networks)
            .await
    }

    /// Stores an environment with its own tags, its nodes and its changes
    /// of roles, together or not at all (an import).
    pub async fn insert_cluster_with(
        &self,
        new: InsertCluster<'_>,
        tags: &[(String, TagMeta)],
        nodes: &[NodeTags],
        roles: &RoleLayer,
        networks: NewNetworks<'_>,
    ) -> Result<Cluster, DbError> {
        let components =
            serde_json::to_string(new.components).map_err(|e| DbError::Corrupt(e.to_string()))?;
        let settings =
            serde_json::to_string(new.settings).map_err(|e| DbError::Corrupt(e.to_string()))?;
        let pins = serde_json::to_string(new.pins).map_err(|e| DbError::Corrupt(e.to_string()))?;
        // Writes first (a read first would make concurrent SQLite writers
        // deadlock); the unique name decides between concurrent creations.
        let mut tx = self.pool.begin().await?;
        let id: i64 = sqlx::query(
            "INSERT INTO clusters (name, release_id, components, mode, settings, plugins) \
             VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
        )
        .bind(new.name)
        .bind(new.release_id)
        .bind(components)
        .bind(new.mode.as_str())
        .bind(settings)
        .bind(pins)
        .fetch_one(&mut *tx)
        .await
        .map_err(|e| {
            super::accounts::unique(
                e,
                format!("an environment named '{}' already exists", new.name),
            )
        })?
        .try_get(0)?;
        for (name, meta) in tags {
            sqlx::query(
                "INSERT INTO tags (owner_kind, owner_id, name, has_primary, instances) \
                 VALUES ('cluster', $1, $2, $3, $4)",
            )
            .bind(id)
            .bind(name)
            .bind(i64::from(meta.has_primary))
            .bind(meta.instances.map(i64::from))
            .execute(&mut *tx)
            .await?;
        }
        let owner = TagOwner::Cluster(id);
        super::roles::write_layer(&mut tx, owner, RoleLayer::none(), roles, Default::default())
            .await?;
        let group_ids = insert_groups_in(&mut tx, id, networks.groups).await?;
        let mut node_ids = BTreeMap::new();
        for node in nodes {
            let stored = super::node_row::insert_node_in(&mut tx, id, node).await?;
            node_ids.insert(node.id, stored.spec.id);
        }
        // The file's numbers of groups and nodes become the database's.
        let rows: Vec<AddressRow> = networks
            .rows
            .iter()
            .map(|row| AddressRow {
                holder: match &row.holder {
                    HolderKey::Node(n) => HolderKey::Node(node_ids.get(n).copied().unwrap_or(*n)),
                    vip => vip.clone(),
                },
                group: group_ids.get(&row.group).copied().unwrap_or(row.group),
                ..row.clone()
            })
            .collect();
        let config = networks.config.with_group_ids(&group_ids);
        super::networks::store_in(&mut tx, id, &config, &rows).await?;
        let row = sqlx::query(&format!("SELECT {COLUMNS} FROM {TABLES} WHERE c.id = $1"))
            .bind(id)
            .fetch_one(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(stored(&row)?.cluster)
    }

    pub async fn clusters(&self) -> Result<Vec<StoredCluster>, DbError> {
        let rows = sqlx::query(&format!("SELECT {COLUMNS} FROM {TABLES} ORDER BY c.id"))
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(stored).collect()
    }

    pub async fn cluster(&self, id: i64) -> Result<Option<StoredCluster>, DbError> {
        let row = sqlx::query(&format!("SELECT {COLUMNS} FROM {TABLES} WHERE c.id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(stored).transpose()
    }

    /// Deletes environment `id` with its nodes and its own tags, in one
    /// transaction; `false` when there is no such environment.
    pub async fn delete_cluster(&self, id: i64) -> Result<bool, DbError> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("DELETE FROM tags WHERE owner_kind = 'cluster' AND owner_id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM role_changes WHERE owner_kind = 'cluster' AND owner_id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM nodes WHERE cluster_id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        let deleted = sqlx::query("DELETE FROM clusters WHERE id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        tx.commit().await?;
        Ok(deleted == 1)
    }

    /// Stores new settings changes if the version is still `expected` and,
    /// with `seen`, the environment's nodes are still those (ids and
    /// versions, in id order: a save that switches a plugin off was
    /// checked against them) — its row taken first, as node changes take
    /// it, so no node can take the plugin's role between the check and the
    /// store. Returns the new version, or `None` when another change came
    /// first.
    pub async fn update_settings(
        &self,
        id: i64,
        (settings, pins): (&Edits, &Pins),
        expected: i64,
        seen: Option<&[(i64, i64)]>,
    ) -> Result<Option<i64>, DbError> {
        let mut tx = self.pool.begin().await?;
        if !write_settings(&mut tx, id, (settings, pins), expected).await? {
            return Ok(None);
        }
        if let Some(seen) = seen
            && !nodes_still(&mut tx, id, seen).await?
        {
            return Ok(None);
        }
        tx.commit().await?;
        Ok(Some(expected + 1))
    }

    /// A settings save that moves addresses (the public network given to
    /// every node, or no longer): the settings at version `expected`
    /// (`None` when they moved on), the networks and every address over
    /// the nodes `checked` names (`Moved` otherwise), in one transaction.
    pub async fn update_settings_and_networks(
        &self,
        id: i64,
        (settings, pins, expected): (&Edits, &Pins, i64),
        checked: &Checked,
        config: &NetworkConfiguration,
        rows: &[AddressRow],
    ) -> Result<Option<i64>, DbError> {
        let mut tx = self.pool.begin().await?;
        if !write_settings(&mut tx, id, (settings, pins), expected).await? {
            return Ok(None);
        }
        lock_checked(&mut tx, id, checked).await?;
        super::networks::store_in(&mut tx, id, config, rows).await?;
        tx.commit().await?;
        Ok(Some(expected + 1))
    }

    /// Pins environment `id` to `pins` when it pins nothing yet (a row
    /// stored before versions were pinned); `false` when it already did.
    pub async fn pin(&self, id: i64, pins: &Pins) -> Result<bool, DbError> {
        let pins = serde_json::to_string(pins).map_err(|e| DbError::Corrupt(e.to_string()))?;
        let changed =
            sqlx::query("UPDATE clusters SET plugins = $1 WHERE id = $2 AND plugins IS NULL")
                .bind(pins)
                .bind(id)
                .execute(&self.pool)
                .await?
                .rows_affected();
        Ok(changed == 1)
    }

    /// Stores a selection — its release record, components, the settings
    /// changes it keeps and the versions it pins (a components change) —
    /// if the settings version is still `expected` and the environment's
    /// nodes are still `seen` (ids and versions: the nodes the change was
    /// checked against); returns the new version, or `None` when another
    /// change came first. The environment's row is taken first, as node
    /// changes take it, so no node can take a role between the check and
    /// the store.
    pub async fn store_selection(
        &self,
        id: i64,
        selection: Selection<'_>,
        expected: i64,
        seen: &[(i64, i64)],
    ) -> Result<Option<i64>, DbError> {
        let networks = selection.networks;
        let mut tx = self.pool.begin().await?;
        if !write_selection(&mut tx, id, &selection, expected, seen).await? {
            return Ok(None);
        }
        let (config, rows) = networks;
        super::networks::store_in(&mut tx, id, config, rows).await?;
        tx.commit().await?;
        Ok(Some(expected + 1))
    }

    /// Stores an upgrade in one transaction: its selection as
    /// [`Self::store_selection`] does; the changes of the release it
    /// carries onto the new release record (`carry`: none when that record
    /// has them already; `None` returned when the record's changes are no
    /// longer those they were worked out over); and the nodes whose
    /// instance tags `assign` works out from what it sees (the
    /// environment, or every environment on the new record when changes
    /// were carried onto it), rows taken.
    pub async fn store_upgrade<E: From<DbError>>(
        &self,
        (id, selection, expected, seen): (i64, Selection<'_>, i64, &[(i64, i64)]),
        carry: Option<Carry<'_>>,
        assign: impl FnOnce(RolesSeen) -> Result<Vec<NodeTags>, E>,
    ) -> Result<Option<i64>, E> {
        let mut tx = self.pool.begin().await.map_err(DbError::from)?;
        if !write_selection(&mut tx, id, &selection, expected, seen).await? {
            return Ok(None);
        }
        let (config, rows) = selection.networks;
        super::networks::store_in(&mut tx, id, config, rows).await?;
        let release = TagOwner::Release(selection.release_id);
        let (layer, versions) = super::roles::layer_in(&mut tx, release).await?;
        let tags = super::tags::user_tags_in(&mut tx, release).await?;
        let environments = match &carry {
            Some(carry) => {
                if layer != carry.before.roles || tags != carry.before.tags {
                    return Ok(None);
                }
                let after = &carry.after;
                super::roles::write_layer(&mut tx, release, &layer, &after.roles, versions).await?;
                let created: TagsMetadata = (after.tags.iter())
                    .filter(|(name, _)| !tags.contains_key(*name))
                    .map(|(name, meta)| (name.clone(), *meta))
                    .collect();
                super::tags::insert_tags_in(&mut tx, release, &created).await?;
                super::roles::environments_on_release(&mut tx, selection.release_id).await?
            }
            None => vec![super::roles::environment_rows(&mut tx, id).await?],
        };
        let (release_tags, release_roles) = match carry {
            Some(carry) => (carry.after.tags.clone(), carry.after.roles.clone()),
            None => (tags, layer),
        };
        let nodes = assign(RolesSeen {
            layer: release_roles.clone(),
            environments,
            release_tags,
            release_roles,
        })?;
        super::roles::write_nodes(&mut tx, &nodes).await?;
        tx.commit().await.map_err(DbError::from)?;
        Ok(Some(expected + 1))
    }
}

/// The changes of a release an upgrade carries onto its new release
/// record: what that record had when they were worked out, and what it has
/// after.
#[derive(Debug, Clone, Copy)]
pub struct Carry<'a> {
    pub before: &'a ReleaseChanges,
    pub after: &'a ReleaseChanges,
}

/// Writes environment `id`'s settings and pins inside `tx` if its settings
/// version is still `expected` (its row taken); `false` (nothing written)
/// otherwise.
async fn write_settings(
    tx: &mut sqlx::AnyConnection,
    id: i64,
    (settings, pins): (&Edits, &Pins),
    expected: i64,
) -> Result<bool, DbError> {
    let corrupt = |e: serde_json::Error| DbError::Corrupt(e.to_string());
    let text = serde_json::to_string(settings).map_err(corrupt)?;
    let pins = serde_json::to_string(pins).map_err(corrupt)?;
    let changed = sqlx::query(
        "UPDATE clusters SET settings = $1, plugins = $2, \
         settings_version = settings_version + 1 WHERE id = $3 AND settings_version = $4",
    )
    .bind(text)
    .bind(pins)
    .bind(id)
    .bind(expected)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    Ok(changed == 1)
}

/// Writes environment `id`'s `selection` inside `tx` if its settings
/// version is still `expected` (its row taken) and its nodes still `seen`;
/// `false` (nothing written) otherwise.
async fn write_selection(
    tx: &mut sqlx::AnyConnection,
    id: i64,
    selection: &Selection<'_>,
    expected: i64,
    seen: &[(i64, i64)],
) -> Result<bool, DbError> {
    let corrupt = |e: serde_json::Error| DbError::Corrupt(e.to_string());
    let components = serde_json::to_string(selection.components).map_err(corrupt)?;
    let settings = serde_json::to_string(selection.settings).map_err(corrupt)?;
    let pins = serde_json::to_string(selection.pins).map_err(corrupt)?;
    let changed = sqlx::query(
        "UPDATE clusters SET release_id = $1, components = $2, settings = $3, plugins = $4, \
         settings_version = settings_version + 1 WHERE id = $5 AND settings_version = $6",
    )
    .bind(selection.release_id)
    .bind(components)
    .bind(settings)
    .bind(pins)
    .bind(id)
    .bind(expected)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    Ok(changed == 1 && nodes_still(tx, id, seen).await?)
}

/// Whether environment `id`'s nodes are still `seen` (ids and versions, in
/// id order), read inside `tx` after its row was taken.
async fn nodes_still(
    tx: &mut sqlx::AnyConnection,
    id: i64,
    seen: &[(i64, i64)],
) -> Result<bool, DbError> {
    let nodes: Vec<(i64, i64)> =
        sqlx::query_as("SELECT id, version FROM nodes WHERE cluster_id = $1 ORDER BY id")
            .bind(id)
            .fetch_all(&mut *tx)
            .await?;
    Ok(nodes == seen)
}

/// An environment's selection as a components change or an upgrade leaves
/// it.
pub struct Selection<'a> {
    pub release_id: i64,
    pub components: &'a [ComponentName],
    pub settings: &'a Edits,
    pub pins: &'a Pins,
    /// The networks it rebuilds, and every address.
    pub networks: (&'a NetworkConfiguration, &'a [AddressRow]),
}
