//! Moving an environment to a newer version of one of its plugins, or of
//! its release plugin (SEMANTICS §7.6): the spec it keeps on the new
//! versions, every consequence of the move, and what refuses it.
//!
//! **Decision.** Settings are stored as edits over the defaults, so a
//! setting the environment kept at its old default follows the new default
//! and an operator's own value is kept; edits of settings the new versions
//! no longer have are dropped (the preview lists those settings as
//! removed). The selection is kept as it is: a chosen component the new
//! versions do not declare refuses the upgrade, as does a role a node holds
//! that becomes unavailable, and, moving to a new release record, an
//! enabled plugin that is not compatible with it.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::carry::ReleaseCarry;
use super::components::{RoleLoss, SettingChanges, TaskChange, settings_diff};
use super::{Environment, Foundation, Spec};
use crate::component::ComponentName;
use crate::name::{PluginName, RoleName};
use crate::settings::{Edits, Settings};
use crate::text::{agree, plural, quoted};

/// Every consequence of an upgrade (SEMANTICS §7.6), its dry run's answer.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UpgradeConsequences {
    pub components: ComponentChanges,
    pub settings: SettingChanges,
    pub roles: RoleChanges,
    /// The `default` plan's changes, nodes with the same change together.
    pub tasks: Vec<TaskChange>,
    /// The networks the upgrade adds and removes.
    #[serde(default)]
    pub networks: crate::network::Rebuilt,
    /// What becomes of the changes made on the release (its created tags,
    /// its changes of roles).
    #[serde(default)]
    pub release_changes: ReleaseCarry,
}

/// The components the new versions declare that the old did not, and
/// those they no longer declare, in registry order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ComponentChanges {
    pub added: Vec<ComponentName>,
    pub removed: Vec<ComponentName>,
}

/// Roles that become available, and those that stop being, with the nodes
/// holding them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RoleChanges {
    pub added: Vec<RoleName>,
    pub removed: Vec<RoleLoss>,
}

/// Why an upgrade is refused (409 `upgrade_refused`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum UpgradeRefusal {
    /// A chosen component the new versions do not declare.
    Component { component: ComponentName },
    /// A role that becomes unavailable while nodes hold it.
    Role { role: RoleName, nodes: Vec<String> },
    /// An enabled plugin the new release record is not compatible with.
    Plugin {
        plugin: PluginName,
        version: String,
        release: String,
    },
}

impl std::fmt::Display for UpgradeRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UpgradeRefusal::Component { component } => write!(
                f,
                "the chosen component '{component}' would disappear; change the components first"
            ),
            UpgradeRefusal::Role { role, nodes } => write!(
                f,
                "the role '{role}' would disappear while node{} {} {} it; remove it from {} first",
                plural(nodes.len()),
                quoted(nodes),
                agree(nodes.len(), "holds", "hold"),
                agree(nodes.len(), "that node", "those nodes"),
            ),
            UpgradeRefusal::Plugin {
                plugin,
                version,
                release,
            } => write!(
                f,
                "the enabled plugin '{plugin}' {version} is not compatible with release {release}"
            ),
        }
    }
}

/// What an upgrade does, and why it cannot be made (nothing: it can).
#[derive(Debug, Clone, PartialEq)]
pub struct Upgrade {
    pub consequences: UpgradeConsequences,
    pub refusals: Vec<UpgradeRefusal>,
}

impl Environment<'_> {
    /// What is stored of this environment on `after` (the foundation of
    /// its release and plugins with one of them in a newer version): the
    /// same selection, the edits of settings `after` still has.
    pub fn upgraded_spec(&self, after: &Foundation) -> Spec {
        Spec {
            edits: still_there(&self.spec.edits, &after.settings),
            ..self.spec.clone()
        }
    }

    /// Every consequence of moving from this environment to `after` (built
    /// on the new versions with [`Environment::upgraded_spec`], and the
    /// release's changes as [`super::carry`] carried them: `release`), and
    /// what refuses it.
    pub fn upgrade(&self, after: &Environment<'_>, release: ReleaseCarry) -> Upgrade {
        let lost = self.roles_lost(after);
        let consequences = UpgradeConsequences {
            components: component_changes(self, after),
            settings: settings_diff(self, after),
            roles: RoleChanges {
                added: after
                    .roles()
                    .iter()
                    .filter(|r| after.role_available(&r.id) && !self.role_available(&r.id))
                    .map(|r| r.id.clone())
                    .collect(),
                removed: lost
                    .iter()
                    .map(|(role, nodes)| RoleLoss {
                        role: role.id.clone(),
                        nodes: nodes.iter().map(|n| n.display_name()).collect(),
                    })
                    .collect(),
            },
            tasks: super::components::task_changes(
                &self.plan(super::components::GRAPH),
                &after.plan(super::components::GRAPH),
            ),
            networks: after.networks_rebuilt(),
            release_changes: release,
        };
        let refusals = self.upgrade_refusals(after, &consequences);
        Upgrade {
            consequences,
            refusals,
        }
    }

    /// Chosen components that disappear, held roles that do, enabled
    /// plugins the new release record is not compatible with.
    fn upgrade_refusals(
        &self,
        after: &Environment<'_>,
        consequences: &UpgradeConsequences,
    ) -> Vec<UpgradeRefusal> {
        let chosen = self.selected_names();
        let components = consequences
            .components
            .removed
            .iter()
            .filter(|c| chosen.contains(c))
            .map(|c| UpgradeRefusal::Component {
                component: c.clone(),
            });
        let roles = consequences
            .roles
            .removed
            .iter()
            .filter(|r| !r.nodes.is_empty())
            .map(|r| UpgradeRefusal::Role {
                role: r.role.clone(),
                nodes: r.nodes.clone(),
            });
        let plugins = self
            .enabled_plugins()
            .filter(|p| !p.extends(after.release))
            .map(|p| UpgradeRefusal::Plugin {
                plugin: p.name.clone(),
                version: p.version.to_string(),
                release: after.release.label(),
            });
        components.chain(roles).chain(plugins).collect()
    }
}

/// The components `after`'s registry declares and `before`'s does not, and
/// those it no longer declares, each in its registry's order.
fn component_changes(before: &Environment<'_>, after: &Environment<'_>) -> ComponentChanges {
    let names = |env: &Environment<'_>| -> Vec<ComponentName> {
        let registry = env.registry();
        (0..registry.len())
            .map(|i| registry.get(i).name.clone())
            .collect()
    };
    let (old, new) = (names(before), names(after));
    ComponentChanges {
        added: new.iter().filter(|c| !old.contains(c)).cloned().collect(),
        removed: old.iter().filter(|c| !new.contains(c)).cloned().collect(),
    }
}

/// `edits` without the groups and attributes `settings` does not have.
fn still_there(edits: &Edits, settings: &Settings) -> Edits {
    let mut kept = Edits::new();
    for (name, changes) in edits {
        let (Some(group), Some(changes)) = (settings.tree.group(name), changes.as_object()) else {
            continue;
        };
        let rest: serde_json::Map<String, Value> = changes
            .iter()
            .filter(|(attr, _)| {
                group.attribute(attr).is_some() || (*attr == "enabled" && group.meta.switchable)
            })
            .map(|(attr, value)| (attr.clone(), value.clone()))
            .collect();
        if !rest.is_empty() {
            kept.insert(name.clone(), Value::Object(rest));
        }
    }
    kept
}
