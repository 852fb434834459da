//! Changing an environment's components later (SEMANTICS §9.1): the new
//! selection validated as a new environment's is, the spec it gives, and
//! every consequence of the change — settings, plugins, roles that become
//! unavailable under nodes, and the tasks that start or stop running.
//!
//! **Decision.** Settings are stored as edits over the base (defaults, the
//! selection's binds, the plugins its components need). A change keeps the
//! edits except those of settings bound by the old or the new selection: a
//! `settings:` bind's attribute or group switch, and the switch of every
//! plugin one of whose components either selection holds. Those are decided
//! by the new selection alone, so the binds are applied again over the
//! defaults, the plugins of newly chosen components are switched on, those
//! whose components were all deselected are switched off, and a plugin
//! switched on by hand (none of its components chosen before or after)
//! stays on. With no edits of unbound settings, changing to a selection
//! gives the settings that creating the environment with it gives.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Environment, Spec};
use crate::component::{BindModel, ComponentName, Registry, Violation, validate_selection};
use crate::name::{PluginName, RoleName, TaskId};
use crate::plugin::Package;
use crate::role::Role;
use crate::settings::{Edits, Settings, bind_key};
use crate::tag::NodeTags;
use crate::task::Plan;

/// What changing an environment's components would do (the answer of
/// `PUT /api/v1/clusters/{id}/components?dry_run=true`, SEMANTICS §9.1).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Consequences {
    /// Every setting whose value changes, in the settings' order.
    pub settings: Vec<SettingChange>,
    pub plugins: PluginSwitches,
    /// The roles that become unavailable, each with the nodes holding it.
    pub roles: Vec<RoleLoss>,
    /// The `default` plan's changes, nodes with the same change together.
    pub tasks: Vec<TaskChange>,
    /// The networks the change adds and removes (a segmentation moved,
    /// Ironic added or removed; SEMANTICS §11.1).
    #[serde(default)]
    pub networks: crate::network::Rebuilt,
}

impl Consequences {
    /// Whether the change would be refused: a node holds a role that
    /// becomes unavailable.
    pub fn refused(&self) -> bool {
        self.roles.iter().any(|r| !r.nodes.is_empty())
    }
}

/// A setting that changes: `group.attr` (`group.enabled` for the switch of
/// a group that is no plugin's), its value before and after.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SettingChange {
    pub path: String,
    pub before: serde_json::Value,
    pub after: serde_json::Value,
}

/// The plugins a change switches on and off, in registry order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PluginSwitches {
    pub enabled: Vec<PluginName>,
    pub disabled: Vec<PluginName>,
}

/// A role that becomes unavailable, and the nodes holding it (by name, or
/// `node-<id>`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RoleLoss {
    pub role: RoleName,
    pub nodes: Vec<String>,
}

/// The tasks that start (`added`) and stop (`removed`) running on `nodes`
/// (node ids, or `"master"`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TaskChange {
    #[cfg_attr(feature = "openapi", schema(schema_with = crate::schema::node_ids))]
    pub nodes: Vec<serde_json::Value>,
    pub added: Vec<TaskId>,
    pub removed: Vec<TaskId>,
}

/// A plan's node id (a number, or `"master"`) as people read it: `3`,
/// `master`.
pub fn node_name(id: &serde_json::Value) -> String {
    id.as_str().map_or_else(|| id.to_string(), str::to_owned)
}

impl TaskChange {
    /// The nodes as people read them (`3`, `master`).
    pub fn node_names(&self) -> Vec<String> {
        self.nodes.iter().map(node_name).collect()
    }

    /// What changes, as the preview and the CLI say it: `start a, b; stop c`.
    pub fn summary(&self) -> String {
        let list = |ts: &[TaskId]| {
            ts.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut parts = Vec::new();
        if !self.added.is_empty() {
            parts.push(format!("start {}", list(&self.added)));
        }
        if !self.removed.is_empty() {
            parts.push(format!("stop {}", list(&self.removed)));
        }
        parts.join("; ")
    }
}

/// A node holding a role a components change would make unavailable
/// (409 `components_in_use`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RoleInUse {
    pub node: i64,
    /// The node's name, or `node-<id>`.
    pub name: String,
    pub role: RoleName,
    pub message: String,
}

/// The graph type whose plan a change's tasks compare.
pub(super) const GRAPH: &str = "default";

/// Whether one of `plugin`'s components is selected in `selected`.
pub(super) fn plugin_chosen(plugin: &Package, registry: &Registry, selected: &[bool]) -> bool {
    plugin.components_metadata.iter().any(|c| {
        registry
            .position(c.name.as_str())
            .is_some_and(|i| selected[i])
    })
}

impl Environment<'_> {
    /// What is stored of this environment with `components` as its
    /// selection (in registry order), its edits of settings bound by the
    /// old or new selection dropped; or every violation of the selection,
    /// as `POST /api/v1/clusters` finds them.
    pub fn with_components(&self, components: &[String]) -> Result<Spec, Vec<Violation>> {
        let registry = self.registry();
        let violations =
            validate_selection(registry, &self.release.required_component_types, components);
        if !violations.is_empty() {
            return Err(violations);
        }
        let chosen: Vec<bool> = (0..registry.len())
            .map(|i| {
                components
                    .iter()
                    .any(|c| registry.get(i).name.as_str() == c)
            })
            .collect();
        let names: Vec<ComponentName> = (0..registry.len())
            .filter(|&i| chosen[i])
            .map(|i| registry.get(i).name.clone())
            .collect();
        let bound = self.decided_by_either(&chosen);
        Ok(Spec {
            components: Some(names),
            edits: without(&self.spec.edits, &bound),
            ..self.spec.clone()
        })
    }

    /// The edits (`(group, attr)`, `(group, "enabled")`) decided by this
    /// selection or by `chosen`.
    fn decided_by_either(&self, chosen: &[bool]) -> BTreeSet<(String, String)> {
        let registry = self.registry();
        let either: Vec<bool> = (0..registry.len())
            .map(|i| self.selected[i] || chosen[i])
            .collect();
        let binds = (0..registry.len())
            .filter(|&i| either[i])
            .flat_map(|i| &registry.get(i).bind)
            .filter(|b| b.model == BindModel::Settings)
            .filter_map(|b| bind_key(b.path()))
            .map(|(group, attr)| (group.to_owned(), attr.to_owned()));
        let switches = self
            .plugins
            .iter()
            .filter(|p| plugin_chosen(p, registry, &either))
            .map(|p| (p.name.to_string(), "enabled".to_owned()));
        binds.chain(switches).collect()
    }

    /// Everything changing from this environment to `after` (the same
    /// environment with other components) does.
    pub fn consequences(&self, after: &Environment<'_>) -> Consequences {
        Consequences {
            settings: settings_diff(self, after).changed,
            plugins: self.plugin_switches(after),
            roles: self
                .roles_lost(after)
                .into_iter()
                .map(|(role, nodes)| RoleLoss {
                    role: role.id.clone(),
                    nodes: nodes.iter().map(|n| n.display_name()).collect(),
                })
                .collect(),
            tasks: task_changes(&self.plan(GRAPH), &after.plan(GRAPH)),
            networks: after.networks_rebuilt(),
        }
    }

    /// The networks this environment's configuration gains and loses
    /// against what is stored (what a components change or an upgrade
    /// rebuilds).
    pub fn networks_rebuilt(&self) -> crate::network::Rebuilt {
        self.network_configuration()
            .map(|(_, rebuilt)| rebuilt)
            .unwrap_or_default()
    }

    /// Each node holding a role that `after` makes unavailable, with the
    /// role and why: what refuses the change (`components_in_use`).
    pub fn components_in_use(&self, after: &Environment<'_>) -> Vec<RoleInUse> {
        let mut in_use = Vec::new();
        for (role, nodes) in self.roles_lost(after) {
            let why = after.unavailable_reason(role);
            for node in nodes {
                let name = node.display_name();
                in_use.push(RoleInUse {
                    node: node.id,
                    message: format!(
                        "node '{name}' holds the role '{}', which would become unavailable: {why}",
                        role.id
                    ),
                    name,
                    role: role.id.clone(),
                });
            }
        }
        in_use
    }

    /// Why role `role` is not available here.
    fn unavailable_reason(&self, role: &Role) -> String {
        let at = self.roles().iter().position(|r| r.id == role.id);
        match at.map(|i| &self.restricted[i]) {
            Some(Ok(r)) => r
                .message
                .clone()
                .unwrap_or_else(|| role.unavailable_message()),
            Some(Err(e)) => format!("a restriction cannot be evaluated: {}", e.message),
            None => role.unavailable_message(),
        }
    }

    /// The roles available here and not in `after`, each with the nodes
    /// holding it (deployed or pending), in the roles' order.
    pub(super) fn roles_lost(&self, after: &Environment<'_>) -> Vec<(&Role, Vec<&NodeTags>)> {
        self.roles()
            .iter()
            .filter(|r| self.role_available(&r.id) && !after.role_available(&r.id))
            .map(|role| {
                let nodes = self
                    .spec
                    .nodes
                    .iter()
                    .filter(|n| n.all_roles().any(|r| *r == role.id))
                    .collect();
                (role, nodes)
            })
            .collect()
    }

    fn plugin_switches(&self, after: &Environment<'_>) -> PluginSwitches {
        let mut switches = PluginSwitches::default();
        for ((name, was), (_, is)) in self.plugin_states().into_iter().zip(after.plugin_states()) {
            match (was, is) {
                (false, true) => switches.enabled.push(name.clone()),
                (true, false) => switches.disabled.push(name.clone()),
                _ => {}
            }
        }
        switches
    }
}

/// `edits` without the entries `bound` names (groups left empty dropped).
fn without(edits: &Edits, bound: &BTreeSet<(String, String)>) -> Edits {
    let mut kept = Edits::new();
    for (group, changes) in edits {
        let Some(changes) = changes.as_object() else {
            kept.insert(group.clone(), changes.clone());
            continue;
        };
        let rest: serde_json::Map<String, Value> = changes
            .iter()
            .filter(|(attr, _)| !bound.contains(&(group.clone(), (*attr).clone())))
            .map(|(attr, value)| (attr.clone(), value.clone()))
            .collect();
        if !rest.is_empty() {
            kept.insert(group.clone(), Value::Object(rest));
        }
    }
    kept
}

/// Each node's tasks that start and stop running from `before` to
/// `after`, nodes whose change is the same together (in node order).
pub(super) fn task_changes(before: &Plan, after: &Plan) -> Vec<TaskChange> {
    let tasks_of = |plan: &Plan, id: &Value| -> Vec<TaskId> {
        plan.nodes
            .iter()
            .find(|n| &n.id == id)
            .map(|n| n.tasks.clone())
            .unwrap_or_default()
    };
    let mut ids: Vec<&Value> = before.nodes.iter().map(|n| &n.id).collect();
    for node in &after.nodes {
        if !ids.contains(&&node.id) {
            ids.push(&node.id);
        }
    }
    let mut changes: Vec<TaskChange> = Vec::new();
    for id in ids {
        let (old, new) = (tasks_of(before, id), tasks_of(after, id));
        let added: Vec<TaskId> = new.iter().filter(|t| !old.contains(t)).cloned().collect();
        let removed: Vec<TaskId> = old.iter().filter(|t| !new.contains(t)).cloned().collect();
        if added.is_empty() && removed.is_empty() {
            continue;
        }
        match changes
            .iter_mut()
            .find(|c| c.added == added && c.removed == removed)
        {
            Some(same) => same.nodes.push(id.clone()),
            None => changes.push(TaskChange {
                nodes: vec![id.clone()],
                added,
                removed,
            }),
        }
    }
    changes
}

/// Settings (`group.attr`) that appear, that disappear, and whose values
/// change, in the settings' order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SettingChanges {
    pub added: Vec<String>,
    pub removed: Vec<String>,
    pub changed: Vec<SettingChange>,
}

/// The settings of `after` that `before` does not have, those it no longer
/// has (`group.attr`), and those whose values differ, matched by name: an
/// attribute's value, and the switch of a group that is no plugin's
/// (`group.enabled`; a plugin's is its switching on or off).
pub(super) fn settings_diff(before: &Environment<'_>, after: &Environment<'_>) -> SettingChanges {
    let mut diff = SettingChanges::default();
    let paths = |settings: &Settings, group: &str| -> Vec<String> {
        settings
            .tree
            .group(group)
            .map(|g| {
                g.attributes
                    .iter()
                    .map(|a| format!("{group}.{}", a.name))
                    .collect()
            })
            .unwrap_or_default()
    };
    for old in &before.settings.tree.groups {
        let Some(new) = after.settings.tree.group(&old.name) else {
            diff.removed.extend(paths(&before.settings, &old.name));
            continue;
        };
        let plugin = before.plugins.iter().any(|p| p.name.as_str() == old.name);
        if !plugin && old.meta.enabled != new.meta.enabled {
            diff.changed.push(SettingChange {
                path: format!("{}.enabled", old.name),
                before: old.meta.enabled.map_or(Value::Null, Value::Bool),
                after: new.meta.enabled.map_or(Value::Null, Value::Bool),
            });
        }
        for a in &old.attributes {
            let path = format!("{}.{}", old.name, a.name);
            match new.attribute(&a.name) {
                None => diff.removed.push(path),
                Some(b) if a.value != b.value => diff.changed.push(SettingChange {
                    path,
                    before: a.value.clone(),
                    after: b.value.clone(),
                }),
                Some(_) => {}
            }
        }
        let known: BTreeSet<&str> = old.attributes.iter().map(|a| a.name.as_str()).collect();
        diff.added.extend(
            new.attributes
                .iter()
                .filter(|b| !known.contains(b.name.as_str()))
                .map(|b| format!("{}.{}", new.name, b.name)),
        );
    }
    for new in &after.settings.tree.groups {
        if before.settings.tree.group(&new.name).is_none() {
            diff.added.extend(paths(&after.settings, &new.name));
        }
    }
    diff
}
