//! The environment file (docs/environment-file.md): what `mosaic plan` and
//! `mosaic settings check` read, and what the server exports and imports.
//! Converting it to a [`Spec`] and back is where "a listed plugin is
//! enabled" lives, so that export → import → export gives the same file.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Environment, Spec};
use crate::component::ComponentName;
use crate::name::{Mode, PluginName};
use crate::network::config::{DEFAULT_GROUP, NodeGroup};
use crate::network::file::FileNetworks;
use crate::role_layer::RoleLayer;
use crate::settings::Edits;
use crate::tag::{NodeTags, TagsMetadata, deserialize_tags_metadata};
use crate::task::{TaskDef, deserialize_tasks};

/// The environment file, as written (paths not yet read).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnvironmentFile {
    /// A release plugin directory or archive; none: the bundled release.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub release: Option<String>,
    /// Which release of that plugin, when it ships several.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub release_name: Option<String>,
    /// The `version` of that release record (on the server: the one the
    /// environment is on, SEMANTICS §7.6); absent: any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub release_version: Option<String>,
    /// Extension plugins enabled in the environment (paths for `mosaic
    /// plan`, names on the server, or names with the versions pinned).
    #[serde(default)]
    pub plugins: Vec<PluginEntry>,
    #[serde(default)]
    pub mode: Mode,
    /// The wizard's selection; absent: the release's defaults.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub components: Option<Vec<ComponentName>>,
    /// Settings values: `{group: {attr: value}}`, `{plugin: {enabled: bool}}`.
    #[serde(default)]
    pub settings: Edits,
    #[serde(
        default,
        deserialize_with = "deserialize_tags_metadata",
        skip_serializing_if = "TagsMetadata::is_empty"
    )]
    pub tags_metadata: TagsMetadata,
    #[serde(
        default,
        deserialize_with = "deserialize_tasks",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub deployment_tasks: Vec<TaskDef>,
    /// The environment's own changes of roles (SEMANTICS §5.1): a role's
    /// tags replaced (`{tags}`) or a role of its own (`{label, description,
    /// tags, conflicts, limits}`), by role name.
    #[serde(default, skip_serializing_if = "RoleLayer::is_empty")]
    pub roles: RoleLayer,
    /// Its networks (SEMANTICS §11): node groups, networks, parameters
    /// and VIPs; absent: the release's defaults, with the node groups its
    /// nodes name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub networks: Option<FileNetworks>,
    #[serde(default)]
    pub nodes: Vec<NodeTags>,
}

/// One of a file's `plugins`: a name (on the server the newest compatible
/// version; for `mosaic plan` a path), or a name with the version the
/// environment pins (what an export writes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum PluginEntry {
    Named(String),
    Pinned { name: String, version: String },
}

impl PluginEntry {
    /// The name (or path).
    pub fn name(&self) -> &str {
        match self {
            PluginEntry::Named(name) | PluginEntry::Pinned { name, .. } => name,
        }
    }

    /// The version pinned, if the entry names one.
    pub fn version(&self) -> Option<&str> {
        match self {
            PluginEntry::Named(_) => None,
            PluginEntry::Pinned { version, .. } => Some(version),
        }
    }
}

impl EnvironmentFile {
    /// The environment the file describes, `plugins` being the names of
    /// the plugins it lists (in its order): each is switched on unless the
    /// file's own settings say otherwise.
    pub fn spec(&self, name: &str, plugins: &[PluginName]) -> Spec {
        let mut edits = self.settings.clone();
        for plugin in plugins {
            let group = edits
                .entry(plugin.to_string())
                .or_insert_with(|| Value::Object(Default::default()));
            if let Some(group) = group.as_object_mut() {
                group.entry("enabled").or_insert(Value::Bool(true));
            }
        }
        let (node_groups, network) = match &self.networks {
            Some(networks) => (networks.groups(), Some(networks.configuration().0)),
            None => (self.named_groups(), None),
        };
        Spec {
            name: name.to_owned(),
            mode: self.mode,
            components: self.components.clone(),
            edits,
            tags_metadata: self.tags_metadata.clone(),
            deployment_tasks: self.deployment_tasks.clone(),
            nodes: self.nodes.clone(),
            roles: self.roles.clone(),
            node_groups,
            network,
        }
    }

    /// What cannot be read of its `networks:` (each with where).
    pub fn network_problems(&self) -> Vec<String> {
        self.networks
            .as_ref()
            .map(|n| n.configuration().1)
            .unwrap_or_default()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    /// Without `networks:`, the node groups its nodes name: `default`,
    /// then the others in the order nodes name them, numbered from 1.
    fn named_groups(&self) -> Vec<NodeGroup> {
        let mut names: Vec<&str> = vec![DEFAULT_GROUP];
        for name in self.nodes.iter().filter_map(|n| n.node_group.as_deref()) {
            if !names.contains(&name) {
                names.push(name);
            }
        }
        names
            .into_iter()
            .enumerate()
            .map(|(i, name)| NodeGroup {
                id: i as i64 + 1,
                name: name.to_owned(),
            })
            .collect()
    }
}

impl Environment<'_> {
    fn exported_tags(&self) -> crate::tag::TagsMetadata {
        let mut tags = self.spec.tags_metadata.clone();
        for (name, meta) in self.release_tags {
            let used = self.spec.nodes.iter().any(|n| {
                n.tags_added
                    .iter()
                    .any(|t| t == name || t.instance_of() == Some(name.as_str()))
            });
            if used && !tags.contains_key(name) {
                tags.insert(name.clone(), *meta);
            }
        }
        tags
    }

    /// The environment as a file: its release by name and version, the
    /// plugins switched on by name with the versions it pins, its components, the settings the operator changed (a
    /// plugin's switch only where listing it does not say it), its own tags
    /// and the tags created on the release that its nodes carry (so that
    /// the file imports where the release has no such tags), and its nodes
    /// numbered by position.
    pub fn export(&self) -> EnvironmentFile {
        let plugins: Vec<PluginEntry> = self
            .enabled_plugins()
            .map(|p| PluginEntry::Pinned {
                name: p.name.to_string(),
                version: p.version.to_string(),
            })
            .collect();
        let enabled: Vec<&PluginName> = self.enabled_plugins().map(|p| &p.name).collect();
        let mut settings = self.edits();
        for name in &enabled {
            if let Some(Value::Object(group)) = settings.get_mut(name.as_str()) {
                if group.get("enabled") == Some(&Value::Bool(true)) {
                    group.remove("enabled");
                }
                if group.is_empty() {
                    settings.remove(name.as_str());
                }
            }
        }
        let nodes = self
            .spec
            .nodes
            .iter()
            .enumerate()
            .map(|(i, node)| NodeTags {
                id: i as i64 + 1,
                node_group: node.node_group.clone().filter(|g| g != DEFAULT_GROUP),
                ..node.clone()
            })
            .collect();
        let networks = self
            .network_configuration()
            .ok()
            .map(|(config, _)| FileNetworks::from_configuration(&config, self.node_groups()));
        EnvironmentFile {
            release: None,
            release_name: Some(self.release.name.clone()),
            release_version: Some(self.release.version.clone()),
            plugins,
            mode: self.spec.mode,
            components: Some(self.selected_names()),
            settings,
            tags_metadata: self.exported_tags(),
            deployment_tasks: self.spec.deployment_tasks.clone(),
            roles: self.spec.roles.clone(),
            networks,
            nodes,
        }
    }
}
