//! One stored environment, read from the database into what core's
//! [`Environment`] is built from: its row, its release, the plugins it can
//! enable (the versions it pins, the newest compatible version of the
//! others), the tags created on its release and on it, and its nodes. Core
//! answers every question about it.

use mosaic_core::environment::{Base, Environment, Foundation, Spec};
use mosaic_core::plugin::{Package, Pins, newest_compatible, pinned_or_newest};
use mosaic_core::release::Release;
use mosaic_core::role_layer::RoleLayer;
use mosaic_core::tag::TagsMetadata;

use std::collections::HashMap;
use std::sync::Arc;

use crate::db::{
    Db, DbError, EnvironmentRows, Installed, Snapshot, StoredCluster, StoredPlugin, TagOwner,
};
use mosaic_core::tag::NodeTags;

#[derive(Debug, Clone)]
pub struct Stored {
    pub row: StoredCluster,
    /// Its release and the plugins it can enable: shared by the
    /// environments of the release that pin the same versions while the
    /// installed plugins stay.
    pub base: Arc<ReleaseBase>,
    pub release_tags: TagsMetadata,
    /// The release's changes of roles (its own are in `spec.roles`).
    pub release_roles: RoleLayer,
    pub spec: Spec,
}

/// A release, the plugins its environments can enable (the versions they
/// pin, the newest compatible version of the others, in registry order)
/// and what core works out from them alone.
#[derive(Debug)]
pub struct ReleaseBase {
    pub release: Release,
    pub plugins: Vec<Package>,
    pub foundation: Foundation,
}

impl ReleaseBase {
    /// Release `id` among `installed` with the plugin versions `pins` names,
    /// or `None` when the release is not installed.
    pub fn new(
        installed: &[StoredPlugin],
        id: i64,
        pins: &Pins,
    ) -> Result<Option<ReleaseBase>, DbError> {
        let Some(release) = find_release(installed, id) else {
            return Ok(None);
        };
        let plugins = pinned_plugins(installed, release, pins);
        let foundation = Foundation::new(release, &plugins)
            .map_err(|e| DbError::Corrupt(format!("release {id}: {e}")))?;
        Ok(Some(ReleaseBase {
            release: release.clone(),
            plugins,
            foundation,
        }))
    }

    /// The same, made once per generation of the installed plugins for
    /// each release and set of pinned versions.
    pub fn shared(
        installed: &Installed,
        id: i64,
        pins: &Pins,
    ) -> Result<Option<Arc<ReleaseBase>>, DbError> {
        let made = installed.memo(&base_key(installed, id, pins), || {
            ReleaseBase::new(installed, id, pins)
                .map(|b| b.map(Arc::new))
                .map_err(|e| e.to_string())
        });
        match made.as_ref() {
            Ok(base) => Ok(base.clone()),
            Err(e) => Err(DbError::Corrupt(e.clone())),
        }
    }
}

/// What tells bases apart within one generation: the release id, then the
/// ids of the installed plugins `pins` names, sorted (a pin of a version
/// not installed counts as no pin, as [`pinned_or_newest`] does).
fn base_key(installed: &[StoredPlugin], id: i64, pins: &Pins) -> Vec<i64> {
    let mut pinned: Vec<i64> = installed
        .iter()
        .filter(|p| pins.get(&p.package.name) == Some(&p.package.version))
        .map(|p| p.id)
        .collect();
    pinned.sort_unstable();
    std::iter::once(id).chain(pinned).collect()
}

/// The release with `id` among the installed plugins.
pub fn find_release(installed: &[StoredPlugin], id: i64) -> Option<&Release> {
    installed
        .iter()
        .flat_map(StoredPlugin::releases)
        .find(|(rid, _)| *rid == id)
        .map(|(_, r)| r)
}

/// The plugins a new environment on `release` can enable: the newest
/// compatible ones, by name.
pub fn plugins_for(installed: &[StoredPlugin], release: &Release) -> Vec<Package> {
    newest_compatible(release, installed.iter().map(|p| &p.package))
        .into_iter()
        .cloned()
        .collect()
}

/// The plugins an environment on `release` pinning `pins` is made of, by
/// name.
pub fn pinned_plugins(installed: &[StoredPlugin], release: &Release, pins: &Pins) -> Vec<Package> {
    pinned_or_newest(release, installed.iter().map(|p| &p.package), pins)
        .into_iter()
        .cloned()
        .collect()
}

impl Stored {
    /// Environment `id`, or `None` when there is none.
    pub async fn load(db: &Db, id: i64) -> Result<Option<Stored>, DbError> {
        Stored::load_with(db, id, true).await
    }

    /// Environment `id` without its nodes (`spec.nodes` empty): everything
    /// a single node's change is checked against, read in time independent
    /// of how many nodes the environment has (issue 34).
    pub async fn head(db: &Db, id: i64) -> Result<Option<Stored>, DbError> {
        Stored::load_with(db, id, false).await
    }

    /// Environment `id` with its nodes and every address they have: what
    /// a change of the whole environment's addresses starts from.
    pub async fn load_with_addresses(db: &Db, id: i64) -> Result<Option<Stored>, DbError> {
        let Some(mut stored) = Stored::load_with(db, id, true).await? else {
            return Ok(None);
        };
        let mut addresses = db.node_addresses(id).await?;
        for node in &mut stored.spec.nodes {
            node.addresses = addresses.remove(&node.id).unwrap_or_default();
        }
        Ok(Some(stored))
    }

    async fn load_with(db: &Db, id: i64, with_nodes: bool) -> Result<Option<Stored>, DbError> {
        let Some(row) = db.cluster(id).await? else {
            return Ok(None);
        };
        let installed = db.plugins().await?;
        let base = ReleaseBase::shared(&installed, row.cluster.release_id, &row.pinned())?
            .ok_or_else(|| not_installed(&row))?;
        let nodes = match with_nodes {
            true => db.nodes(id).await?.into_iter().map(|n| n.spec).collect(),
            false => Vec::new(),
        };
        let networks = db
            .groups_and_vips(id, row.networks.clone(), row.networks_version)
            .await?;
        let tags = db.user_tags(TagOwner::Cluster(id)).await?;
        let release = TagOwner::Release(row.cluster.release_id);
        let release_tags = db.user_tags(release).await?;
        let roles = (
            db.role_layer(TagOwner::Cluster(id)).await?,
            db.role_layer(release).await?,
        );
        let mut stored = Stored::from_parts(row, base, nodes, (tags, release_tags), roles);
        stored.spec.node_groups = networks.groups;
        stored.spec.network = networks.config;
        Ok(Some(stored))
    }

    /// The environment of `row` as `snapshot` has it.
    pub fn from_snapshot(snapshot: &Snapshot, row: &StoredCluster) -> Result<Stored, DbError> {
        let id = row.cluster.id;
        let (tags, roles) = owned_by(snapshot, id, row.cluster.release_id);
        let base = ReleaseBase::new(&snapshot.plugins, row.cluster.release_id, &row.pinned())?
            .ok_or_else(|| not_installed(row))?;
        let mut stored = Stored::from_parts(
            row.clone(),
            Arc::new(base),
            snapshot.nodes_of(id).map(|n| n.spec.clone()).collect(),
            tags,
            roles,
        );
        stored.spec.node_groups = snapshot.groups_of(id);
        Ok(stored)
    }

    /// The environment as a change's transaction read it, on `installed`
    /// (its release and the versions it pins), with the tags and the
    /// changes of roles of its release given.
    pub fn from_rows(
        installed: &Installed,
        rows: EnvironmentRows,
        release_tags: TagsMetadata,
        release_roles: RoleLayer,
    ) -> Result<Stored, DbError> {
        let base = ReleaseBase::shared(installed, rows.row.cluster.release_id, &rows.row.pinned())?
            .ok_or_else(|| not_installed(&rows.row))?;
        Ok(Stored::from_parts(
            rows.row,
            base,
            rows.nodes,
            (rows.tags, release_tags),
            (rows.roles, release_roles),
        ))
    }

    /// Every environment on release `release_id` as `snapshot` has them,
    /// those that pin the same versions sharing one base.
    pub fn all_on_release(snapshot: &Snapshot, release_id: i64) -> Result<Vec<Stored>, DbError> {
        let mut bases: HashMap<Vec<i64>, Arc<ReleaseBase>> = HashMap::new();
        let mut all = Vec::new();
        for row in snapshot
            .clusters
            .iter()
            .filter(|row| row.cluster.release_id == release_id)
        {
            let pins = row.pinned();
            let key = base_key(&snapshot.plugins, release_id, &pins);
            let base = match bases.get(&key) {
                Some(base) => base.clone(),
                None => {
                    let Some(base) = ReleaseBase::new(&snapshot.plugins, release_id, &pins)? else {
                        return Ok(Vec::new());
                    };
                    bases.entry(key).or_insert(Arc::new(base)).clone()
                }
            };
            let id = row.cluster.id;
            let (tags, roles) = owned_by(snapshot, id, release_id);
            let mut stored = Stored::from_parts(
                row.clone(),
                base,
                snapshot.nodes_of(id).map(|n| n.spec.clone()).collect(),
                tags,
                roles,
            );
            stored.spec.node_groups = snapshot.groups_of(id);
            all.push(stored);
        }
        Ok(all)
    }

    fn from_parts(
        row: StoredCluster,
        base: Arc<ReleaseBase>,
        nodes: Vec<NodeTags>,
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
            nodes,
            roles,
            node_groups: Vec::new(),
            network: row.networks.clone(),
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

    /// Its nodes' ids and versions, in id order: what a change of the
    /// environment checked against them stores over
    /// ([`crate::db::Db::store_selection`]).
    pub fn node_versions(&self) -> Vec<(i64, i64)> {
        let mut seen: Vec<(i64, i64)> = self.spec.nodes.iter().map(|n| (n.id, n.version)).collect();
        seen.sort_unstable();
        seen
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

/// Pins every environment stored before versions were pinned to what it
/// resolves to now (the newest compatible versions it has switched on):
/// from then on, installing a newer version changes none of them
/// (SEMANTICS §7.6). Run when the server starts; returns how many it pinned.
pub async fn pin_unpinned(db: &Db) -> Result<usize, DbError> {
    // Every start comes here: read the nodes only when a row needs it.
    if db.clusters().await?.iter().all(|r| r.pins.is_some()) {
        return Ok(0);
    }
    let snapshot = db.snapshot().await?;
    let mut pinned = 0;
    for row in snapshot.clusters.iter().filter(|r| r.pins.is_none()) {
        let pins = Stored::from_snapshot(&snapshot, row)?.environment()?.pins();
        if db.pin(row.cluster.id, &pins).await? {
            pinned += 1;
        }
    }
    Ok(pinned)
}

/// Gives every environment stored before networks were read its network
/// configuration — the release's defaults, node group `default` with
/// every node in it — and its addresses (SEMANTICS §11.1). Run when the
/// server starts; returns how many it built.
pub async fn build_networks(db: &Db) -> Result<usize, DbError> {
    let todo: Vec<i64> = db
        .clusters()
        .await?
        .iter()
        .filter(|r| r.networks.is_none())
        .map(|r| r.cluster.id)
        .collect();
    let mut built = 0;
    for id in todo {
        db.ensure_default_group(id).await?;
        let Some(stored) = Stored::load_with_addresses(db, id).await? else {
            continue;
        };
        let env = stored.environment()?;
        let (config, _) = env
            .network_configuration()
            .map_err(|e| DbError::Corrupt(format!("environment {id}: {e}")))?;
        let (rows, vips) = env.address_rows(&config);
        let config = mosaic_core::network::NetworkConfiguration { vips, ..config };
        let checked = crate::db::Checked {
            version: None,
            nodes: stored.node_versions(),
        };
        match db.store_networks(id, &checked, &config, &rows).await {
            Ok(()) => built += 1,
            // Another replica starting at the same time got there first.
            Err(DbError::Moved(_) | DbError::Conflict(_)) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(built)
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
