//! One stored environment, read from the database into what core's
//! [`Environment`] is built from: its row, its release, the plugins it can
//! enable (the newest compatible ones), the tags created on its release and
//! on it, and its nodes. Core answers every question about it.

use mosaic_core::environment::{Base, Environment, Foundation, Spec};
use mosaic_core::plugin::{Package, newest_compatible};
use mosaic_core::release::Release;
use mosaic_core::role_layer::RoleLayer;
use mosaic_core::tag::TagsMetadata;

use std::sync::Arc;

use crate::db::{
    Db, DbError, Installed, Snapshot, StoredCluster, StoredNode, StoredPlugin, TagOwner,
};

#[derive(Debug, Clone)]
pub struct Stored {
    pub row: StoredCluster,
    /// Its release and the plugins it can enable: shared by the
    /// environments of the release while the installed plugins stay.
    pub base: Arc<ReleaseBase>,
    pub release_tags: TagsMetadata,
    /// The release's changes of roles (its own are in `spec.roles`).
    pub release_roles: RoleLayer,
    pub spec: Spec,
}

/// A release, the plugins its environments can enable (the newest
/// compatible ones, in registry order) and what core works out from them
/// alone.
#[derive(Debug)]
pub struct ReleaseBase {
    pub release: Release,
    pub plugins: Vec<Package>,
    pub foundation: Foundation,
}

impl ReleaseBase {
    /// Release `id` among `installed`, or `None` when it is not installed.
    pub fn new(installed: &[StoredPlugin], id: i64) -> Result<Option<ReleaseBase>, DbError> {
        let Some(release) = find_release(installed, id) else {
            return Ok(None);
        };
        let plugins = plugins_for(installed, release);
        let foundation = Foundation::new(release, &plugins)
            .map_err(|e| DbError::Corrupt(format!("release {id}: {e}")))?;
        Ok(Some(ReleaseBase {
            release: release.clone(),
            plugins,
            foundation,
        }))
    }

    /// The same, made once per generation of the installed plugins.
    pub fn shared(installed: &Installed, id: i64) -> Result<Option<Arc<ReleaseBase>>, DbError> {
        let made = installed.memo(id, || {
            ReleaseBase::new(installed, id)
                .map(|b| b.map(Arc::new))
                .map_err(|e| e.to_string())
        });
        match made.as_ref() {
            Ok(base) => Ok(base.clone()),
            Err(e) => Err(DbError::Corrupt(e.clone())),
        }
    }
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
        let base = ReleaseBase::shared(&installed, row.cluster.release_id)?
            .ok_or_else(|| not_installed(&row))?;
        let nodes = db.nodes(id).await?;
        let tags = db.user_tags(TagOwner::Cluster(id)).await?;
        let release = TagOwner::Release(row.cluster.release_id);
        let release_tags = db.user_tags(release).await?;
        let roles = (
            db.role_layer(TagOwner::Cluster(id)).await?,
            db.role_layer(release).await?,
        );
        Ok(Some(Stored::from_parts(
            row,
            base,
            nodes,
            (tags, release_tags),
            roles,
        )))
    }

    /// The environment of `row` as `snapshot` has it.
    pub fn from_snapshot(snapshot: &Snapshot, row: &StoredCluster) -> Result<Stored, DbError> {
        let id = row.cluster.id;
        let (tags, roles) = owned_by(snapshot, id, row.cluster.release_id);
        let base = ReleaseBase::new(&snapshot.plugins, row.cluster.release_id)?
            .ok_or_else(|| not_installed(row))?;
        Ok(Stored::from_parts(
            row.clone(),
            Arc::new(base),
            snapshot.nodes_of(id).cloned().collect(),
            tags,
            roles,
        ))
    }

    /// Every environment on release `release_id` as `snapshot` has them,
    /// sharing one base.
    pub fn all_on_release(snapshot: &Snapshot, release_id: i64) -> Result<Vec<Stored>, DbError> {
        let Some(base) = ReleaseBase::new(&snapshot.plugins, release_id)? else {
            return Ok(Vec::new());
        };
        let base = Arc::new(base);
        Ok(snapshot
            .clusters
            .iter()
            .filter(|row| row.cluster.release_id == release_id)
            .map(|row| {
                let id = row.cluster.id;
                let (tags, roles) = owned_by(snapshot, id, release_id);
                Stored::from_parts(
                    row.clone(),
                    base.clone(),
                    snapshot.nodes_of(id).cloned().collect(),
                    tags,
                    roles,
                )
            })
            .collect())
    }

    fn from_parts(
        row: StoredCluster,
        base: Arc<ReleaseBase>,
        nodes: Vec<StoredNode>,
        (tags_metadata, release_tags): (TagsMetadata, TagsMetadata),
        (roles, release_roles): (RoleLayer, RoleLayer),
    ) -> Stored {
        let cluster = &row.cluster;
        let spec = Spec {
            name: cluster.name.clone(),
            mode: cluster.mode,
            components: Some(cluster.components.clone()),
            edits: row.settings.clone(),
            tags_metadata,
            deployment_tasks: Vec::new(),
            nodes: nodes.into_iter().map(|n| n.spec).collect(),
            roles,
        };
        Stored {
            base,
            release_tags,
            release_roles,
            row,
            spec,
        }
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
        Ok(Environment::on(
            Base {
                release: &self.base.release,
                plugins: &self.base.plugins,
                release_tags: &self.release_tags,
                release_roles: &self.release_roles,
            },
            &self.base.foundation,
            spec,
        ))
    }
}

/// The tags and the changes of roles made on environment `id` and on its
/// release, as `snapshot` has them.
type Owned = ((TagsMetadata, TagsMetadata), (RoleLayer, RoleLayer));

fn owned_by(snapshot: &Snapshot, id: i64, release_id: i64) -> Owned {
    let (env, release) = (TagOwner::Cluster(id), TagOwner::Release(release_id));
    (
        (snapshot.tags_of(env), snapshot.tags_of(release)),
        (snapshot.roles_of(env), snapshot.roles_of(release)),
    )
}

fn not_installed(row: &StoredCluster) -> DbError {
    DbError::Corrupt(format!(
        "environment {}: its release {} is not installed",
        row.cluster.id, row.cluster.release_id
    ))
}

/// An environment that uses a plugin, and the nodes that carry its roles.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PluginUser {
    pub name: String,
    pub nodes: Vec<String>,
}

impl std::fmt::Display for PluginUser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "'{}'", self.name)?;
        match self.nodes.as_slice() {
            [] => Ok(()),
            [one] => write!(f, " (node {one} carries its roles)"),
            many => write!(f, " (nodes {} carry its roles)", many.join(", ")),
        }
    }
}

/// The environments that use `plugin` as `snapshot` has them: created from
/// one of its releases, with it switched on, or with nodes that carry its
/// roles.
pub fn plugin_users(
    snapshot: &Snapshot,
    plugin: &StoredPlugin,
) -> Result<Vec<PluginUser>, DbError> {
    let mut users = Vec::new();
    for row in &snapshot.clusters {
        let name = &row.cluster.name;
        if plugin.release_ids.contains(&row.cluster.release_id) {
            users.push(PluginUser {
                name: name.clone(),
                nodes: Vec::new(),
            });
            continue;
        }
        let extends = find_release(&snapshot.plugins, row.cluster.release_id)
            .is_some_and(|r| plugin.package.extends(r));
        if plugin.package.is_release_plugin() || !extends {
            continue;
        }
        let stored = Stored::from_snapshot(snapshot, row)?;
        if let Some(used) = stored.environment()?.plugin_use(&plugin.package) {
            users.push(PluginUser {
                name: name.clone(),
                nodes: used.nodes,
            });
        }
    }
    Ok(users)
}
