//! An environment as a file (docs/environment-file.md): its release, the
//! extension plugins enabled in it, settings, its own tags and tasks, and
//! its nodes with their roles and tag changes — and the deployment plan of
//! it (SEMANTICS §5, §6).

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::plugin::Package;
use crate::release::Release;
use crate::tag::{self, NodeTags, TagsMetadata};
use crate::task::{Definitions, Plan, PlanError, PlanErrorKind, PlanNode, plan};

/// The environment file, as written (paths not yet read).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnvironmentFile {
    /// A release plugin directory or archive; none: the bundled release.
    #[serde(default)]
    pub release: Option<String>,
    /// Which release of that plugin, when it ships several.
    #[serde(default)]
    pub release_name: Option<String>,
    /// Extension plugins enabled in the environment.
    #[serde(default)]
    pub plugins: Vec<String>,
    #[serde(default = "ha_compact")]
    pub mode: String,
    #[serde(default)]
    pub settings: Value,
    #[serde(default)]
    pub tags_metadata: Value,
    #[serde(default)]
    pub deployment_tasks: Vec<Value>,
    #[serde(default)]
    pub nodes: Vec<NodeTags>,
}

fn ha_compact() -> String {
    "ha_compact".to_owned()
}

/// The role → tags map of a `roles_metadata` value (a role without `tags`
/// brings its own name).
pub fn role_tags(roles_metadata: &Value) -> BTreeMap<String, Vec<String>> {
    roles_metadata
        .as_object()
        .map(|roles| {
            roles
                .iter()
                .map(|(role, meta)| {
                    let tags = match meta.get("tags").and_then(Value::as_array) {
                        Some(list) => list
                            .iter()
                            .filter_map(Value::as_str)
                            .map(str::to_owned)
                            .collect(),
                        None => vec![role.clone()],
                    };
                    (role.clone(), tags)
                })
                .collect()
        })
        .unwrap_or_default()
}

fn error(kind: PlanErrorKind, message: String) -> PlanError {
    PlanError::new(kind, message)
}

/// The tasks of graph `graph` of `release` (`default` also accepts Fuel 9's
/// `deployment_tasks`).
pub fn graph_tasks<'a>(release: &'a Release, graph: &str) -> Option<&'a [Value]> {
    if let Some(g) = release.graphs.iter().rev().find(|g| g.kind == graph) {
        return Some(&g.tasks);
    }
    match (&release.deployment_tasks, graph) {
        (Value::Array(tasks), "default") => Some(tasks),
        _ => None,
    }
}

/// Plans `environment` on `release` with the enabled `plugins` (loaded).
pub fn plan_environment(
    environment: &EnvironmentFile,
    release: &Release,
    plugins: &[Package],
    graph: &str,
) -> Plan {
    let mut errors = Vec::new();
    for plugin in plugins {
        if !plugin.extends(release) {
            let mut e = error(
                PlanErrorKind::IncompatiblePlugin,
                format!(
                    "{} is not compatible with release '{}' ({} {})",
                    plugin.source(),
                    release.name,
                    release.operating_system,
                    release.version
                ),
            );
            e.plugins = vec![plugin.name.clone()];
            errors.push(e);
        }
    }
    // Roles and tags the environment knows.
    let mut roles = role_tags(&release.roles_metadata);
    for plugin in plugins {
        roles.extend(role_tags(&plugin.roles_metadata));
    }
    // A role with `has_primary` makes its own tag one with a primary.
    let role_primaries: TagsMetadata = [&release.roles_metadata]
        .into_iter()
        .chain(plugins.iter().map(|p| &p.roles_metadata))
        .filter_map(Value::as_object)
        .flatten()
        .filter(|(_, meta)| meta.get("has_primary").and_then(Value::as_bool) == Some(true))
        .map(|(role, _)| (role.clone(), tag::TagMeta { has_primary: true }))
        .collect();
    let mut layers: Vec<TagsMetadata> = vec![role_primaries];
    let mut read_layer =
        |what: &str, value: &Value, errors: &mut Vec<PlanError>| match tag::tags_metadata(value) {
            Ok(layer) => layers.push(layer),
            Err(e) => errors.push(error(PlanErrorKind::BadTags, format!("{what}: {e}"))),
        };
    read_layer("the release's tags", &release.tags_metadata, &mut errors);
    for plugin in plugins {
        read_layer(
            &format!("{}'s tags", plugin.source()),
            &plugin.tags_metadata,
            &mut errors,
        );
    }
    read_layer(
        "the environment's tags_metadata",
        &environment.tags_metadata,
        &mut errors,
    );
    let meta = tag::merge_metadata(&layers);
    let role_tag_set: BTreeSet<String> = roles
        .values()
        .flatten()
        .cloned()
        .chain(roles.keys().cloned())
        .collect();
    for node in &environment.nodes {
        for role in node.roles.iter().chain(&node.pending_roles) {
            if !roles.contains_key(role) {
                let mut e = error(
                    PlanErrorKind::UnknownRole,
                    format!(
                        "node {}: role '{role}' is defined neither by the release nor by an enabled plugin",
                        node.id
                    ),
                );
                e.nodes = vec![node.id];
                errors.push(e);
            }
        }
        for added in &node.tags_added {
            if !tag::known_tag(added, &meta, &role_tag_set) {
                let mut e = error(
                    PlanErrorKind::UnknownTag,
                    format!(
                        "node {}: tag '{added}' is not known to the release, its plugins or the environment",
                        node.id
                    ),
                );
                e.nodes = vec![node.id];
                errors.push(e);
            }
        }
    }
    let ha = environment.mode == "ha_compact";
    let effective = tag::effective_tags(&environment.nodes, &roles, &meta, ha);
    let nodes: Vec<PlanNode> = environment
        .nodes
        .iter()
        .zip(effective)
        .filter(|(n, _)| !n.pending_deletion)
        .map(|(n, tags)| PlanNode { id: n.id, tags })
        .collect();
    let plugin_tasks: Vec<(String, Vec<Value>)> = plugins
        .iter()
        .map(|p| {
            let tasks = p.deployment_tasks.as_array().cloned().unwrap_or_default();
            (p.name.clone(), tasks)
        })
        .collect();
    let release_tasks = graph_tasks(release, graph).unwrap_or_default();
    if graph_tasks(release, graph).is_none() {
        errors.push(error(
            PlanErrorKind::UnknownGraph,
            format!(
                "release '{}' has no '{graph}' graph (it has: {})",
                release.name,
                release
                    .graphs
                    .iter()
                    .map(|g| g.kind.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
    let release_tags: Vec<String> = tag::tags_metadata(&release.tags_metadata)
        .unwrap_or_default()
        .into_keys()
        .chain(role_tags(&release.roles_metadata).into_values().flatten())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let mut result = plan(
        Definitions {
            release: release_tasks,
            plugins: &plugin_tasks,
            environment: &environment.deployment_tasks,
        },
        &nodes,
        &release_tags,
    );
    errors.append(&mut result.errors);
    result.errors = errors;
    result
}

/// The merged tag view of a release (`cluster` = `None`) or of an
/// environment on it: the release's tags metadata, tags named only by its
/// roles, then (environments) each enabled plugin's tags and roles, then
/// tags created through the API on the release, then on the environment.
/// A later layer updates `has_primary` of a name already listed.
pub fn tag_views(
    release: &Release,
    plugins: &[&Package],
    release_user: &[(String, bool)],
    cluster_user: Option<&[(String, bool)]>,
) -> Vec<crate::api::TagView> {
    let mut views: Vec<crate::api::TagView> = Vec::new();
    let mut role_named: BTreeSet<String> = BTreeSet::new();
    let put =
        |name: &str, has_primary: bool, source: &str, views: &mut Vec<crate::api::TagView>| {
            match views.iter_mut().find(|v| v.name == name) {
                Some(view) => {
                    view.has_primary = has_primary;
                    if source == "user" || source == "environment" {
                        view.source = source.to_owned();
                    }
                }
                None => views.push(crate::api::TagView {
                    name: name.to_owned(),
                    has_primary,
                    source: source.to_owned(),
                    deletable: false,
                }),
            }
        };
    let mut layer = |tags_metadata: &Value,
                     roles_metadata: &Value,
                     source: &str,
                     views: &mut Vec<crate::api::TagView>| {
        for (name, meta) in tag::tags_metadata(tags_metadata).unwrap_or_default() {
            put(&name, meta.has_primary, source, views);
        }
        for (role, tags) in role_tags(roles_metadata) {
            let primary = roles_metadata[&role]["has_primary"].as_bool() == Some(true);
            for t in tags.iter().chain(std::iter::once(&role)) {
                role_named.insert(t.clone());
                if !views.iter().any(|v| &v.name == t) {
                    let source = if source == "release" { "role" } else { source };
                    put(t, primary && t == &role, source, views);
                }
            }
        }
    };
    layer(
        &release.tags_metadata,
        &release.roles_metadata,
        "release",
        &mut views,
    );
    if cluster_user.is_some() {
        for plugin in plugins {
            layer(
                &plugin.tags_metadata,
                &plugin.roles_metadata,
                "plugin",
                &mut views,
            );
        }
    }
    for (name, has_primary) in release_user {
        put(name, *has_primary, "user", &mut views);
    }
    for (name, has_primary) in cluster_user.unwrap_or_default() {
        put(name, *has_primary, "environment", &mut views);
    }
    for view in &mut views {
        let own = match cluster_user {
            None => view.source == "user",
            Some(_) => view.source == "environment",
        };
        view.deletable = own && !role_named.contains(&view.name);
    }
    views
}
