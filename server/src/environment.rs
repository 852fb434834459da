//! One environment with everything its tags, nodes and plan depend on:
//! its release, the plugins enabled in it, the tags created on the release
//! and on it, and its nodes.

use mosaic_core::api::{Cluster, NodeView, TagView};
use mosaic_core::environment::{EnvironmentFile, plan_environment, role_tags, tag_views};
use mosaic_core::expr::JsonModels;
use mosaic_core::plugin::Package;
use mosaic_core::release::Release;
use mosaic_core::role::{NodeError, NodeRoles, check_roles, parse_roles};
use mosaic_core::tag::{self, NodeTags, TagMeta, TagsMetadata};
use mosaic_core::task::Plan;
use serde_json::{Value, json};

use crate::db::{Db, DbError, StoredNode, StoredPlugin, TagOwner};

#[derive(Debug, Clone)]
pub struct Environment {
    pub cluster: Cluster,
    pub release: Release,
    /// Compatible extension plugins (newest versions) whose components the
    /// environment selected or whose roles its nodes have.
    pub plugins: Vec<Package>,
    /// The roles its nodes may take: the release's and those of every
    /// compatible extension plugin.
    pub roles_metadata: Value,
    pub release_tags: Vec<(String, bool)>,
    pub cluster_tags: Vec<(String, bool)>,
    pub nodes: Vec<StoredNode>,
}

impl Environment {
    pub async fn load(db: &Db, cluster_id: i64) -> Result<Option<Environment>, DbError> {
        let Some(cluster) = db.cluster(cluster_id).await? else {
            return Ok(None);
        };
        let stored = db.plugins().await?;
        let Some(release) = stored
            .iter()
            .flat_map(StoredPlugin::releases)
            .find(|(id, _)| *id == cluster.release_id)
            .map(|(_, r)| r.clone())
        else {
            return Err(DbError::Corrupt(format!(
                "environment {cluster_id}: its release {} is not installed",
                cluster.release_id
            )));
        };
        let nodes = db.nodes(cluster_id).await?;
        let mut plugins: Vec<Package> = Vec::new();
        for p in stored.iter().map(|p| &p.package) {
            if p.is_release_plugin() || !p.extends(&release) {
                continue;
            }
            let selected = p
                .components_metadata
                .iter()
                .any(|c| cluster.components.contains(&c.name.to_string()));
            let roles = p.role_names();
            let assigned = nodes.iter().any(|n| {
                n.spec
                    .roles
                    .iter()
                    .chain(&n.spec.pending_roles)
                    .any(|r| roles.contains(r))
            });
            if !(selected || assigned) {
                continue;
            }
            match plugins.iter_mut().find(|q| q.name == p.name) {
                Some(slot) if newer(&p.version, &slot.version) => *slot = p.clone(),
                Some(_) => {}
                None => plugins.push(p.clone()),
            }
        }
        let mut roles = release
            .roles_metadata
            .as_object()
            .cloned()
            .unwrap_or_default();
        for p in stored.iter().map(|p| &p.package) {
            if !p.is_release_plugin()
                && p.extends(&release)
                && let Some(theirs) = p.roles_metadata.as_object()
            {
                roles.extend(theirs.clone());
            }
        }
        Ok(Some(Environment {
            roles_metadata: Value::Object(roles),
            release_tags: db
                .user_tags(TagOwner::Release(release_id(&cluster)))
                .await?,
            cluster_tags: db.user_tags(TagOwner::Cluster(cluster_id)).await?,
            cluster,
            release,
            plugins,
            nodes,
        }))
    }

    pub fn tag_views(&self) -> Vec<TagView> {
        let plugins: Vec<&Package> = self.plugins.iter().collect();
        tag_views(
            &self.release,
            &plugins,
            &self.release_tags,
            Some(&self.cluster_tags),
        )
    }

    /// The tags metadata the environment sees (roles with a primary,
    /// release, plugins, tags created on the release, on the environment).
    pub fn tags_metadata(&self) -> TagsMetadata {
        self.tag_views()
            .into_iter()
            .map(|v| {
                (
                    v.name,
                    TagMeta {
                        has_primary: v.has_primary,
                    },
                )
            })
            .collect()
    }

    /// The environment as an environment file, for planning.
    pub fn file(&self) -> EnvironmentFile {
        let user: serde_json::Map<String, Value> = self
            .release_tags
            .iter()
            .chain(&self.cluster_tags)
            .map(|(name, primary)| (name.clone(), json!({ "has_primary": primary })))
            .collect();
        EnvironmentFile {
            mode: self.cluster.mode.clone(),
            tags_metadata: Value::Object(user),
            nodes: self.nodes.iter().map(|n| n.spec.clone()).collect(),
            ..EnvironmentFile::default()
        }
    }

    pub fn plan(&self, graph: &str) -> Plan {
        plan_environment(&self.file(), &self.release, &self.plugins, graph)
    }

    /// Every node with its effective tags.
    pub fn node_views(&self) -> Vec<NodeView> {
        let roles = role_tags(&self.roles_metadata);
        let specs: Vec<NodeTags> = self.nodes.iter().map(|n| n.spec.clone()).collect();
        let effective = tag::effective_tags(
            &specs,
            &roles,
            &self.tags_metadata(),
            self.cluster.mode == "ha_compact",
        );
        self.nodes
            .iter()
            .zip(effective)
            .map(|(n, tags)| view(n, tags, tag::derived_tags(&n.spec, &roles)))
            .collect()
    }

    /// Whether `name` may be added to a node here.
    pub fn knows_tag(&self, name: &str) -> bool {
        let role_set = role_tags(&self.roles_metadata)
            .into_iter()
            .flat_map(|(role, tags)| tags.into_iter().chain(std::iter::once(role)))
            .collect();
        tag::known_tag(name, &self.tags_metadata(), &role_set)
    }

    /// The problems of giving a node `roles`: unknown roles, conflicts,
    /// restrictions (against the release's default settings).
    pub fn role_problems(&self, roles: &[String]) -> Result<Vec<String>, String> {
        let node = NodeRoles {
            id: json!(0),
            roles: roles.to_vec(),
            pending_deletion: false,
        };
        let problems = role_problems(
            &self.roles_metadata,
            &self.release,
            &self.cluster.mode,
            &[node],
        )?;
        Ok(problems.into_iter().map(|(_, e)| e.message).collect())
    }
}

/// Every role problem of `nodes` (conflicts, restrictions, unknown roles)
/// with the roles of `roles_metadata`, restrictions evaluated against the
/// release's default settings in `mode`.
pub fn role_problems(
    roles_metadata: &Value,
    release: &Release,
    mode: &str,
    nodes: &[NodeRoles],
) -> Result<Vec<(Value, NodeError)>, String> {
    let yaml = serde_yaml::to_value(roles_metadata).map_err(|e| e.to_string())?;
    let parsed = parse_roles(&yaml, None).map_err(|e| e.to_string())?;
    let models = JsonModels {
        settings: release.attributes_metadata["editable"].clone(),
        cluster: json!({ "mode": mode }),
        version: json!({"feature_groups": []}),
        ..JsonModels::default()
    };
    Ok(check_roles(&parsed, &models, nodes)
        .nodes
        .into_iter()
        .flat_map(|n| {
            let id = n.id;
            n.errors.into_iter().map(move |e| (id.clone(), e))
        })
        .collect())
}

fn release_id(cluster: &Cluster) -> i64 {
    cluster.release_id
}

fn newer(a: &str, b: &str) -> bool {
    let key = |v: &str| -> Vec<u64> {
        v.split(['.', '-'])
            .map(|p| p.parse().unwrap_or(0))
            .collect()
    };
    key(a) > key(b)
}

pub fn view(node: &StoredNode, tags: Vec<String>, role_tags: Vec<String>) -> NodeView {
    NodeView {
        id: node.spec.id,
        cluster_id: node.cluster_id,
        name: node.name.clone(),
        status: node.spec.status.clone(),
        roles: node.spec.roles.clone(),
        pending_roles: node.spec.pending_roles.clone(),
        tags,
        role_tags,
        tags_added: node.spec.tags_added.clone(),
        tags_removed: node.spec.tags_removed.clone(),
        primary_tags: node.spec.primary_tags.clone(),
        pending_deletion: node.spec.pending_deletion,
    }
}
