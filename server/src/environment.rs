//! One stored environment, read from the database into what core's
//! [`Environment`] is built from: its row, its release, the plugins it can
//! enable (the newest compatible ones), the tags created on its release and
//! on it, and its nodes. Core answers every question about it.

use mosaic_core::environment::{Base, Environment, Spec};
use mosaic_core::plugin::{Package, newest_compatible};
use mosaic_core::release::Release;
use mosaic_core::tag::TagsMetadata;

use crate::db::{Db, DbError, StoredCluster, StoredPlugin, TagOwner};

#[derive(Debug, Clone)]
pub struct Stored {
    pub row: StoredCluster,
    pub release: Release,
    /// The plugins it can enable, in registry order.
    pub plugins: Vec<Package>,
    pub release_tags: TagsMetadata,
    pub spec: Spec,
}

/// The release with `id` among the installed plugins.
pub fn find_release(installed: &[StoredPlugin], id: i64) -> Option<&Release> {
    installed
        .iter()
        .flat_map(StoredPlugin::releases)
        .find(|(rid, _)| *rid == id)
        .map(|(_, r)| r)
}

/// The plugins an environment on `release` can enable: the newest
/// compatible ones, by name.
pub fn plugins_for(installed: &[StoredPlugin], release: &Release) -> Vec<Package> {
    newest_compatible(release, installed.iter().map(|p| &p.package))
        .into_iter()
        .cloned()
        .collect()
}

impl Stored {
    /// Environment `id`, or `None` when there is none.
    pub async fn load(db: &Db, id: i64) -> Result<Option<Stored>, DbError> {
        let Some(row) = db.cluster(id).await? else {
            return Ok(None);
        };
        let installed = db.plugins().await?;
        Stored::load_with(db, row, &installed).await.map(Some)
    }

    /// The environment of `row`, the installed plugins already read.
    pub async fn load_with(
        db: &Db,
        row: StoredCluster,
        installed: &[StoredPlugin],
    ) -> Result<Stored, DbError> {
        let cluster = &row.cluster;
        let release = find_release(installed, cluster.release_id)
            .ok_or_else(|| {
                DbError::Corrupt(format!(
                    "environment {}: its release {} is not installed",
                    cluster.id, cluster.release_id
                ))
            })?
            .clone();
        let nodes = db.nodes(cluster.id).await?;
        let spec = Spec {
            name: cluster.name.clone(),
            mode: cluster.mode,
            components: Some(cluster.components.clone()),
            edits: row.settings.clone(),
            tags_metadata: db.user_tags(TagOwner::Cluster(cluster.id)).await?,
            deployment_tasks: Vec::new(),
            nodes: nodes.into_iter().map(|n| n.spec).collect(),
        };
        Ok(Stored {
            plugins: plugins_for(installed, &release),
            release_tags: db.user_tags(TagOwner::Release(cluster.release_id)).await?,
            release,
            row,
            spec,
        })
    }

    pub fn id(&self) -> i64 {
        self.row.cluster.id
    }

    /// The environment as it is stored.
    pub fn environment(&self) -> Result<Environment<'_>, DbError> {
        self.with_spec(&self.spec)
    }

    /// The environment as it would be with `spec` (a change to check).
    pub fn with_spec<'a>(&'a self, spec: &'a Spec) -> Result<Environment<'a>, DbError> {
        Environment::new(
            Base {
                release: &self.release,
                plugins: &self.plugins,
                release_tags: &self.release_tags,
            },
            spec,
        )
        .map_err(|e| DbError::Corrupt(format!("environment {}: {e}", self.id())))
    }
}

/// The environments that use `plugin`: created from one of its releases,
/// or with it switched on.
pub async fn environments_using(db: &Db, plugin: &StoredPlugin) -> Result<Vec<String>, DbError> {
    let installed = db.plugins().await?;
    let mut users = Vec::new();
    for row in db.clusters().await? {
        let name = row.cluster.name.clone();
        if plugin.release_ids.contains(&row.cluster.release_id) {
            users.push(name);
            continue;
        }
        let extends = find_release(&installed, row.cluster.release_id)
            .is_some_and(|r| plugin.package.extends(r));
        if plugin.package.is_release_plugin() || !extends {
            continue;
        }
        let stored = Stored::load_with(db, row, &installed).await?;
        if stored.environment()?.uses(&plugin.package) {
            users.push(name);
        }
    }
    Ok(users)
}
