//! One environment (SEMANTICS §4–§6, §9), built from plain data — its
//! release, the plugins it can enable, and what is stored of it — and
//! answering everything asked of it: its registry and selection, its
//! settings (defaults, binds, plugins switched on, edits), which plugins
//! are enabled, which roles are offered and whether a node may take them,
//! its tags, and its deployment plan. The server, the CLI and the app ask
//! this; none of them decides these things itself.

mod bound;
mod bulk;
mod carry;
mod checks;
mod components;
pub mod disks;
mod file;
mod graphs;
mod hardware;
mod instances;
mod maximums;
mod network_context;
mod networks;
mod plan;
mod roles;
mod tab;
mod tags;
mod upgrade;

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

pub use bound::Bound;
pub use bulk::{
    BulkAction, BulkInput, BulkNodes, BulkRefusal, LISTED_PROBLEMS, MAX_BULK_NODES, NodeProblem,
};
pub use carry::{
    Carried, CarriedChange, ChangeKind, NotCarried, NotCarriedReason, ReleaseCarry, ReleaseChanges,
    Target, carry,
};
pub use checks::{Check, CheckSeverity, UNFOLDED_WARNINGS, headline};
pub use components::{
    Consequences, PluginSwitches, RoleInUse, RoleLoss, SettingChange, SettingChanges, TaskChange,
    node_name,
};
pub use file::{EnvironmentFile, PluginEntry};
pub use graphs::{GraphSource, GraphSummary};
pub use instances::assign_instances;
pub use maximums::{MaximumExceeded, RoleCounts};
pub use network_context::{
    AddressNeed, Addressing, NetworkContext, PUBLIC_TO_ALL, PublicAddress, Vip,
};
pub use networks::{AddressRow, ReleaseNetworksError};
pub use roles::ReleaseRoles;
pub use tab::{EnvTab, lazy_module};
pub use tags::{
    NamedTags, NodeView, TagProblem, TagRefusal, carriers, check_tag_deletion, count_carriers,
    not_own, release_tag_views,
};
pub use upgrade::{ComponentChanges, RoleChanges, Upgrade, UpgradeConsequences, UpgradeRefusal};

use crate::component::{
    BindModel, ComponentName, DuplicateComponent, Registry, Source, Violation,
    complete_with_defaults, validate_selection,
};
use crate::expr::JsonModels;
use crate::name::{Mode, PluginName, RoleName};
use crate::plugin::{Package, Pins};
use crate::release::Release;
use crate::role::{NodeError, Restricted, Role, restrictions_of};
use crate::role_layer::{RoleLayer, RoleOrigin, RoleView, effective_roles};
use crate::settings::{Context, Edits, Evaluation, PluginGroup, Problem, Settings};
use crate::tag::{NodeTags, TagsMetadata};
use crate::task::TaskDef;
use crate::wizard::{Layout, defaults};

/// What is stored of an environment (and what its file says, its paths
/// read).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Spec {
    pub name: String,
    pub mode: Mode,
    /// The wizard's selection; `None`: the release's defaults.
    pub components: Option<Vec<ComponentName>>,
    /// The operator's settings changes.
    pub edits: Edits,
    /// Its own tags.
    pub tags_metadata: TagsMetadata,
    /// Its own task definitions (highest priority).
    pub deployment_tasks: Vec<TaskDef>,
    pub nodes: Vec<NodeTags>,
    /// Its own changes of roles: tag sets replaced, roles created
    /// (SEMANTICS §5.1).
    pub roles: RoleLayer,
    /// Its node groups (racks); none: `default` alone (SEMANTICS §11.1).
    pub node_groups: Vec<crate::network::NodeGroup>,
    /// Its network configuration; none: the release's defaults.
    pub network: Option<crate::network::NetworkConfiguration>,
}

/// What an environment is built on.
#[derive(Debug, Clone, Copy)]
pub struct Base<'a> {
    pub release: &'a Release,
    /// The extension plugins it can enable, in registry order: on the
    /// server the versions it pins and the newest compatible version of the
    /// others ([`crate::plugin::pinned_or_newest`]), in a file the ones it
    /// lists.
    pub plugins: &'a [Package],
    /// Tags created on the release (through the API).
    pub release_tags: &'a TagsMetadata,
    /// The release's changes of roles (through the API; none in a file).
    pub release_roles: &'a RoleLayer,
}

/// An environment that cannot be put together at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EnvironmentError {
    #[error(transparent)]
    Registry(#[from] DuplicateComponent),
}

/// One environment, put together.
#[derive(Debug, Clone)]
pub struct Environment<'a> {
    pub release: &'a Release,
    pub plugins: &'a [Package],
    pub spec: &'a Spec,
    release_tags: &'a TagsMetadata,
    /// What the release and plugins alone decide (shared, or its own).
    foundation: Cow<'a, Foundation>,
    selected: Vec<bool>,
    /// Defaults the selection gained because its release now asks for a
    /// choice it does not make ([`complete_with_defaults`]).
    completed: Vec<usize>,
    /// Defaults, binds, and the plugins the components need: what edits
    /// are relative to.
    base: Settings,
    settings: Settings,
    edit_problems: Vec<Problem>,
    context: Context,
    models: JsonModels,
    /// Per plugin of `plugins`: whether it is switched on.
    enabled: Vec<bool>,
    /// The release's roles, then every plugin's (unavailable while its
    /// plugin is off), then those created on the release and here, with
    /// the release's and its own changes (SEMANTICS §5.1).
    roles: Vec<Role>,
    origins: Vec<RoleOrigin>,
    /// What the roles' restrictions say here.
    restricted: Vec<Result<Restricted, crate::expr::ExprError>>,
    release_roles: &'a RoleLayer,
    /// What its network rules read, worked out on first use
    /// ([`Environment::network_context`]).
    networks: std::sync::OnceLock<NetworkContext<'a>>,
}

/// What an environment's rules take from its release and plugins alone —
/// the component registry, the settings' defaults, the roles — worked out
/// once and shared by every environment on them.
#[derive(Debug, Clone)]
pub struct Foundation {
    registry: Registry,
    /// The release's groups, then each plugin's, at their defaults.
    settings: Settings,
    /// The release's roles, then each plugin's.
    roles: Vec<Role>,
}

impl Foundation {
    pub fn new(release: &Release, plugins: &[Package]) -> Result<Foundation, EnvironmentError> {
        let registry = registry(release, plugins)?;
        let groups: Vec<PluginGroup<'_>> = plugins
            .iter()
            .map(|p| PluginGroup {
                name: p.name.as_str(),
                title: &p.title,
                version: p.version.as_str(),
                attributes: &p.attributes_metadata.group,
            })
            .collect();
        let settings = Settings::defaults(&release.attributes_metadata.editable, &groups);
        let roles: Vec<Role> = release
            .roles_metadata
            .0
            .iter()
            .cloned()
            .chain(plugins.iter().flat_map(|p| {
                p.roles_metadata
                    .0
                    .iter()
                    .map(|r| r.clone().provided_by(&p.name))
            }))
            .collect();
        Ok(Foundation {
            registry,
            settings,
            roles,
        })
    }
}

impl<'a> Environment<'a> {
    pub fn new(base: Base<'a>, spec: &'a Spec) -> Result<Environment<'a>, EnvironmentError> {
        let foundation = Foundation::new(base.release, base.plugins)?;
        Ok(Environment::build(base, Cow::Owned(foundation), spec))
    }

    /// The environment on a `foundation` made from `base`'s release and
    /// plugins (and shared with other environments on them).
    pub fn on(base: Base<'a>, foundation: &'a Foundation, spec: &'a Spec) -> Environment<'a> {
        Environment::build(base, Cow::Borrowed(foundation), spec)
    }

    fn build(base: Base<'a>, foundation: Cow<'a, Foundation>, spec: &'a Spec) -> Environment<'a> {
        let release = base.release;
        let registry = &foundation.registry;
        let mut selected: Vec<bool> = match &spec.components {
            Some(names) => (0..registry.len())
                .map(|i| names.contains(&registry.get(i).name))
                .collect(),
            None => defaults(registry, &Layout::new(registry)),
        };
        let completed = complete_with_defaults(registry, &mut selected);
        let mut settings = foundation.settings.clone();
        let cluster_binds = apply_binds(&mut settings, registry, &selected);
        for plugin in base.plugins {
            if components::plugin_chosen(plugin, registry, &selected) {
                settings.set_enabled(plugin.name.as_str(), true);
            }
        }
        let base_settings = settings.clone();
        let edit_problems = settings.apply_edits(&spec.edits);
        let chosen: Vec<Value> = (0..registry.len())
            .filter(|&i| selected[i])
            .map(|i| Value::from(registry.get(i).name.to_string()))
            .collect();
        let context = context(release, spec, cluster_binds, chosen);
        let models = settings.models(&context);
        let enabled: Vec<bool> = base
            .plugins
            .iter()
            .map(|p| settings.enabled(p.name.as_str()) == Some(true))
            .collect();
        let edit_problems = without_off_plugins(edit_problems, base.plugins, &enabled);
        let (roles, origins) = effective_roles(&foundation.roles, base.release_roles, &spec.roles);
        let restricted = restrictions_of(&roles, &models);
        Environment {
            roles,
            origins,
            release_roles: base.release_roles,
            release,
            plugins: base.plugins,
            spec,
            completed,
            release_tags: base.release_tags,
            foundation,
            selected,
            base: base_settings,
            settings,
            edit_problems,
            context,
            models,
            enabled,
            restricted,
            networks: std::sync::OnceLock::new(),
        }
    }

    pub fn registry(&self) -> &Registry {
        &self.foundation.registry
    }

    /// The selected components' names, in registry order.
    pub fn selected_names(&self) -> Vec<ComponentName> {
        (0..self.foundation.registry.len())
            .filter(|&i| self.selected[i])
            .map(|i| self.foundation.registry.get(i).name.clone())
            .collect()
    }

    /// Every problem of the selection (SEMANTICS §2.3), unknown names
    /// included. A release that declares no components has nothing to
    /// select: only names it does not know are problems there.
    pub fn selection_violations(&self) -> Vec<Violation> {
        let names: Vec<String> = match &self.spec.components {
            Some(names) => names
                .iter()
                .map(ToString::to_string)
                .chain(
                    self.completed
                        .iter()
                        .map(|&i| self.foundation.registry.get(i).name.to_string()),
                )
                .collect(),
            None => self
                .selected_names()
                .iter()
                .map(ToString::to_string)
                .collect(),
        };
        if self.foundation.registry.is_empty() {
            return validate_selection(&self.foundation.registry, &[], &names);
        }
        validate_selection(
            &self.foundation.registry,
            &self.release.required_component_types,
            &names,
        )
    }

    /// The effective settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The models besides `settings` that restrictions read.
    pub fn context(&self) -> &Context {
        &self.context
    }

    /// Every model restrictions, limits and conditions read.
    pub fn models(&self) -> &JsonModels {
        &self.models
    }

    /// The settings' restriction states and problems, edits that name no
    /// setting included.
    pub fn evaluation(&self) -> Evaluation {
        let mut evaluation = self.settings.check(&self.context);
        let mut problems = self.edit_problems.clone();
        problems.append(&mut evaluation.problems);
        evaluation.problems = problems;
        evaluation
    }

    /// The operator's changes, relative to defaults, binds and the plugins
    /// the components need: what is stored.
    pub fn edits(&self) -> Edits {
        self.settings.edits_from(&self.base)
    }

    /// The plugins switched on, in registry order.
    pub fn enabled_plugins(&self) -> impl Iterator<Item = &'a Package> + '_ {
        self.plugins
            .iter()
            .zip(&self.enabled)
            .filter(|(_, on)| **on)
            .map(|(p, _)| p)
    }

    /// The versions it pins (SEMANTICS §7.6): each plugin switched on, in
    /// the version it is built with. A plugin switched off is not pinned:
    /// switched on again, it takes its newest compatible version then.
    pub fn pins(&self) -> Pins {
        self.enabled_plugins()
            .map(|p| (p.name.clone(), p.version.clone()))
            .collect()
    }

    /// Every plugin it can enable and whether it is on.
    pub fn plugin_states(&self) -> Vec<(&'a PluginName, bool)> {
        self.plugins
            .iter()
            .zip(&self.enabled)
            .map(|(p, on)| (&p.name, *on))
            .collect()
    }

    /// Every role known here: the release's, then each plugin's, then
    /// those created on the release and here; with the changes made to
    /// them (SEMANTICS §5.1).
    pub fn roles(&self) -> &[Role] {
        &self.roles
    }

    /// Where role `id`'s tags come from and whether it is a role of one's
    /// own (SEMANTICS §5.1).
    pub fn role_origin(&self, id: &RoleName) -> Option<&RoleOrigin> {
        self.roles
            .iter()
            .position(|r| &r.id == id)
            .and_then(|i| self.origins.get(i))
    }

    /// The roles offered to nodes: neither hidden nor of a plugin that is
    /// off, in order.
    pub fn offered_roles(&self) -> Vec<&Role> {
        self.roles
            .iter()
            .zip(&self.restricted)
            .filter(|(role, r)| !matches!(r, Ok(r) if r.hidden) && self.role_plugin_enabled(role))
            .map(|(role, _)| role)
            .collect()
    }

    fn role_plugin_enabled(&self, role: &Role) -> bool {
        match self.role_plugin(role) {
            None => true,
            Some(p) => self.enabled_plugins().any(|q| q.name == p.name),
        }
    }

    /// The problems of a node with `roles`: unknown roles, conflicts,
    /// restrictions (a plugin that is off included).
    pub fn role_errors(&self, roles: &[RoleName]) -> Vec<NodeError> {
        crate::role::node_errors(&self.roles, &self.restricted, roles)
    }

    /// Each node's role problems, in node order.
    pub fn node_role_errors(&self) -> Vec<(&NodeTags, Vec<NodeError>)> {
        self.spec
            .nodes
            .iter()
            .map(|n| {
                let roles: Vec<RoleName> = n.all_roles().cloned().collect();
                (n, self.role_errors(&roles))
            })
            .collect()
    }

    /// Whether the environment uses `package`: switched on here in that
    /// very version.
    pub fn uses(&self, package: &Package) -> bool {
        self.enabled_plugins()
            .any(|p| p.name == package.name && p.version == package.version)
    }

    /// What keeps `package` (an extension) from being uninstalled under
    /// this environment: it is switched on here, or nodes carry roles it
    /// provides (switched off or not, they would be left with roles nobody
    /// defines). `None`: nothing.
    pub fn plugin_use(&self, package: &Package) -> Option<PluginUse> {
        // Only the version the environment takes its roles from counts.
        let offered = self
            .plugins
            .iter()
            .any(|p| p.name == package.name && p.version == package.version);
        if !offered {
            return None;
        }
        let enabled = self.uses(package);
        let nodes: Vec<String> = self
            .spec
            .nodes
            .iter()
            .filter(|n| {
                n.all_roles()
                    .any(|r| package.roles_metadata.get(r.as_str()).is_some())
            })
            .map(NodeTags::display_name)
            .collect();
        (enabled || !nodes.is_empty()).then_some(PluginUse { enabled, nodes })
    }

    /// The roles offered to nodes as the API shows them, each with why it
    /// cannot be given now when it cannot.
    pub fn role_views(&self) -> Vec<RoleView> {
        (0..self.roles.len())
            .filter(|&i| {
                !matches!(&self.restricted[i], Ok(r) if r.hidden)
                    && self.role_plugin_enabled(&self.roles[i])
            })
            .map(|i| self.view_at(i))
            .collect()
    }

    /// Role `id` as the API shows it, offered or not (hidden, or of a
    /// plugin that is off): what a change of it answers.
    pub fn role_view(&self, id: &str) -> Option<RoleView> {
        let at = self.roles.iter().position(|r| r.id == id)?;
        Some(self.view_at(at))
    }

    fn view_at(&self, i: usize) -> RoleView {
        let (role, origin) = (&self.roles[i], &self.origins[i]);
        RoleView {
            id: role.id.clone(),
            name: role.name.clone(),
            description: role.description.clone(),
            tags: role.tags.clone(),
            unavailable: match &self.restricted[i] {
                Ok(r) if r.disabled => r.message.clone(),
                Ok(_) => None,
                Err(e) => Some(format!("a restriction cannot be evaluated: {}", e.message)),
            },
            plugin: self.role_plugin(role).map(|p| p.name.to_string()),
            tags_source: origin.tags_source,
            created: origin.created,
            nodes: self.holder_ids(role.id.as_str()).len(),
        }
    }

    /// Whether a node may take role `id` here: it exists, and its
    /// restrictions (a plugin that is off included) neither disable nor hide it.
    pub fn role_available(&self, id: &RoleName) -> bool {
        self.roles
            .iter()
            .zip(&self.restricted)
            .any(|(role, r)| &role.id == id && matches!(r, Ok(r) if !r.blocked()))
    }

    fn role_plugin(&self, role: &Role) -> Option<&'a Package> {
        self.plugins
            .iter()
            .find(|p| p.roles_metadata.get(role.id.as_str()).is_some())
    }

    /// Whether `after` switches off a plugin that is on here: then the
    /// change was checked against the nodes (none may hold its roles), and
    /// is stored only over those nodes.
    pub fn switches_off(&self, after: &Environment<'_>) -> bool {
        self.enabled_plugins()
            .any(|p| !after.enabled_plugins().any(|q| q.name == p.name))
    }

    /// The plugins `after` switches off while a node has one of their
    /// roles: each with the names of those nodes.
    pub fn plugins_still_in_use(&self, after: &Environment<'_>) -> Vec<(PluginName, Vec<String>)> {
        self.enabled_plugins()
            .filter(|p| !after.enabled_plugins().any(|q| q.name == p.name))
            .filter_map(|p| {
                let nodes: Vec<String> = self
                    .spec
                    .nodes
                    .iter()
                    .filter(|n| {
                        n.all_roles()
                            .any(|r| p.roles_metadata.get(r.as_str()).is_some())
                    })
                    .map(NodeTags::display_name)
                    .collect();
                (!nodes.is_empty()).then(|| (p.name.clone(), nodes))
            })
            .collect()
    }
}

/// `problems` of the stored edits without those in the groups of plugins
/// switched off: a plugin switched off is not pinned and appears in its
/// newest version, which may no longer have a setting the operator once
/// changed (SEMANTICS §7.6). Such an edit does nothing and the next save
/// drops it ([`Environment::edits`] keeps what the tree has); a save that
/// names such a setting itself is still refused
/// ([`Environment::save_problems`]).
fn without_off_plugins(
    problems: Vec<Problem>,
    plugins: &[Package],
    enabled: &[bool],
) -> Vec<Problem> {
    problems
        .into_iter()
        .filter(|problem| {
            let group = problem.path.split('.').next().unwrap_or_default();
            !plugins
                .iter()
                .zip(enabled)
                .any(|(p, on)| !on && p.name.as_str() == group)
        })
        .collect()
}

/// How an environment uses a plugin (see [`Environment::plugin_use`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PluginUse {
    pub enabled: bool,
    /// The nodes that carry roles the plugin provides.
    pub nodes: Vec<String>,
}

/// The component registry of `release` with `plugins` (SEMANTICS §2.2):
/// the release's components, then each plugin's, in the order given.
pub fn registry(release: &Release, plugins: &[Package]) -> Result<Registry, DuplicateComponent> {
    Registry::new(
        std::iter::once((
            Source(release.source()),
            release.components_metadata.clone(),
        ))
        .chain(
            plugins
                .iter()
                .map(|p| (Source(p.source()), p.components_metadata.clone())),
        ),
    )
}

/// Applies the `bind`s of the selected components in registry order:
/// settings into `settings`; returns what `cluster:` binds set.
fn apply_binds(
    settings: &mut Settings,
    registry: &Registry,
    selected: &[bool],
) -> Map<String, Value> {
    let mut cluster = Map::new();
    for i in (0..registry.len()).filter(|&i| selected[i]) {
        for bind in &registry.get(i).bind {
            let path = bind.path();
            match bind.model {
                BindModel::Settings => {
                    settings.apply_bind(path, &bind.value);
                }
                BindModel::Cluster => {
                    cluster.insert(path.to_owned(), bind.value.clone());
                }
                BindModel::Other => {}
            }
        }
    }
    cluster
}

/// The models besides settings: the environment's own fields (Mosaic's
/// environments use Neutron unless a bind says otherwise) with the chosen
/// components' names (`cluster:components`, SEMANTICS §9.1), its release,
/// the feature groups (none), and the networking parameters the binds imply.
fn context(
    release: &Release,
    spec: &Spec,
    binds: Map<String, Value>,
    chosen: Vec<Value>,
) -> Context {
    let mut cluster = json!({
        "name": spec.name,
        "mode": spec.mode,
        "net_provider": "neutron",
        "components": chosen,
    });
    if let Value::Object(map) = &mut cluster {
        map.extend(binds);
    }
    // Every networking parameter the stored configuration has (SEMANTICS
    // §11.1); the segmentation is the components'.
    let mut networking = match spec
        .network
        .as_ref()
        .map(|n| n.networking_parameters.to_model())
    {
        Some(Value::Object(map)) => map,
        _ => release_parameters(release),
    };
    match cluster.get("net_segment_type") {
        Some(segmentation) => {
            networking.insert("segmentation_type".to_owned(), segmentation.clone());
        }
        None if spec.network.is_none() => {
            networking.remove("segmentation_type");
        }
        None => {}
    }
    Context {
        cluster,
        release: json!({
            "name": release.name,
            "version": release.version,
            "operating_system": release.operating_system,
        }),
        version: json!({"feature_groups": []}),
        networking_parameters: Value::Object(networking),
    }
}

/// The networking parameters a release gives environments before they
/// store their own (its `config` over Fuel's defaults), as the model.
fn release_parameters(release: &Release) -> Map<String, Value> {
    let config = &release.networks_metadata.neutron.config;
    match crate::network::NetworkingParameters::defaults(
        config,
        crate::network::Segmentation::Vlan,
        config.contains_key("baremetal_range"),
    ) {
        Ok(p) => match p.to_model() {
            Value::Object(map) => map,
            _ => Map::new(),
        },
        Err(_) => Map::new(),
    }
}

#[cfg(test)]
mod tests;
