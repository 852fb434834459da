//! Releases, as release plugins ship them: one `is_release: true` record of a
//! plugin's `metadata.yaml` with its `*_path` files loaded, under the names a
//! release is stored with (SEMANTICS §7.2), read once into typed parts —
//! roles, tags, settings, task graphs. [`crate::plugin`] builds them.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::component::{Component, ComponentType, DEFAULT_REQUIRED_TYPES};
use crate::deployer::Deployers;
use crate::name::GraphType;
use crate::network::{NetworkRole, NetworksMetadata};
use crate::role::Roles;
use crate::settings::SettingsTree;
use crate::tag::{TagsMetadata, deserialize_tags_metadata};
use crate::task::{TaskDef, deserialize_tasks};

/// `null` (what releases stored before networks were read hold) as the
/// default.
pub(crate) fn null_as_default<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}

fn yes() -> bool {
    true
}

fn default_required_types() -> Vec<ComponentType> {
    DEFAULT_REQUIRED_TYPES.to_vec()
}

/// A release as stored and served.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Release {
    #[serde(default = "yes")]
    pub is_release: bool,
    pub name: String,
    pub version: String,
    pub operating_system: String,
    #[serde(default)]
    pub description: String,
    /// The component types a valid selection needs one of each (§2.3);
    /// the four wizard types unless the release says otherwise.
    #[serde(default = "default_required_types")]
    pub required_component_types: Vec<ComponentType>,
    #[serde(default, alias = "components")]
    pub components_metadata: Vec<Component>,
    /// The release's roles, in file order.
    #[serde(default, skip_serializing_if = "Roles::is_empty")]
    pub roles_metadata: Roles,
    /// Tag → `{has_primary}`.
    #[serde(
        default,
        skip_serializing_if = "TagsMetadata::is_empty",
        deserialize_with = "deserialize_tags_metadata"
    )]
    pub tags_metadata: TagsMetadata,
    /// `{volumes: [...], volumes_roles_mapping: {...}}`.
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub volumes_metadata: Value,
    /// Environment settings and their defaults (`{editable: {...}}`).
    #[serde(default, skip_serializing_if = "ReleaseAttributes::is_empty")]
    pub attributes_metadata: ReleaseAttributes,
    /// Its networks and their defaults (SEMANTICS §11.1).
    #[serde(
        default,
        skip_serializing_if = "NetworksMetadata::is_empty",
        deserialize_with = "null_as_default"
    )]
    pub networks_metadata: NetworksMetadata,
    /// The deployers the release is deployed with (SEMANTICS §12).
    #[serde(
        default,
        skip_serializing_if = "Deployers::is_empty",
        deserialize_with = "null_as_default"
    )]
    pub deployers_metadata: Deployers,
    /// Which network each service is on, and the VIPs they need.
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "null_as_default"
    )]
    pub network_roles_metadata: Vec<NetworkRole>,
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub vmware_attributes_metadata: Value,
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub node_attributes_metadata: Value,
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub nic_attributes_metadata: Value,
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub bond_attributes_metadata: Value,
    /// Fuel 9's single deployment graph (`deployment_tasks_path`).
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        deserialize_with = "deserialize_tasks"
    )]
    pub deployment_tasks: Vec<TaskDef>,
    /// Graphs by type (`default`, `provisioning`, `deletion`, …).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub graphs: Vec<Graph>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deployment_scripts_path: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repository_path: Option<String>,
}

/// How a release is named wherever it is shown — the wizard, the
/// environments, the plugins page, the command line's tables, messages —:
/// its name and its version, "OpenStack 2024.1 on Ubuntu 22.04
/// (2024.1-1.0)". Two installed releases never share both (an install
/// that would is refused), so two versions of one release read apart.
pub fn label(name: &str, version: &str) -> String {
    format!("{name} ({version})")
}

/// One graph record: of a release, or of an extension plugin.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Graph {
    #[serde(rename = "type")]
    pub kind: GraphType,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, deserialize_with = "deserialize_tasks")]
    pub tasks: Vec<TaskDef>,
}

/// A release's `attributes_metadata`: the settings groups (`editable`) and
/// what Fuel generates (`generated`, kept as declared).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ReleaseAttributes {
    pub editable: SettingsTree,
    pub generated: Value,
}

impl ReleaseAttributes {
    pub fn is_empty(&self) -> bool {
        self.editable.groups.is_empty() && self.generated.is_null()
    }

    pub fn from_json(value: &Value) -> Result<ReleaseAttributes, crate::restriction::FieldError> {
        Ok(ReleaseAttributes {
            editable: SettingsTree::from_json("editable", &value["editable"])?,
            generated: value["generated"].clone(),
        })
    }
}

impl Serialize for ReleaseAttributes {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = Map::new();
        map.insert("editable".to_owned(), self.editable.to_json());
        if !self.generated.is_null() {
            map.insert("generated".to_owned(), self.generated.clone());
        }
        map.serialize(s)
    }
}

impl<'de> Deserialize<'de> for ReleaseAttributes {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        ReleaseAttributes::from_json(&Value::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

impl Release {
    /// The ids of the volumes the release defines.
    pub fn volume_ids(&self) -> Vec<String> {
        volume_ids(&self.volumes_metadata)
    }

    /// The tasks of graph `graph` (`default` also accepts Fuel 9's
    /// `deployment_tasks`).
    pub fn graph(&self, graph: &str) -> Option<&[TaskDef]> {
        if let Some(g) = self.graph_record(graph) {
            return Some(&g.tasks);
        }
        (graph == GraphType::DEPLOYMENT && !self.deployment_tasks.is_empty())
            .then_some(&self.deployment_tasks[..])
    }

    /// The record of graph type `graph`: the last of that type.
    pub fn graph_record(&self, graph: &str) -> Option<&Graph> {
        self.graphs.iter().rev().find(|g| g.kind == graph)
    }

    /// The graph types the release defines (`default` for Fuel 9's
    /// `deployment_tasks` too).
    pub fn graph_types(&self) -> impl Iterator<Item = GraphType> + '_ {
        let fuel9 = (!self.deployment_tasks.is_empty()).then(GraphType::deployment);
        self.graphs.iter().map(|g| g.kind.clone()).chain(fuel9)
    }

    /// Where components, roles and volumes come from, in messages.
    pub fn source(&self) -> String {
        format!("release {} {}", self.name, self.version)
    }

    /// How it is named where it is shown ([`label`]).
    pub fn label(&self) -> String {
        label(&self.name, &self.version)
    }
}

/// The `id`s of a `{volumes: [...]}` value.
pub fn volume_ids(volumes_metadata: &Value) -> Vec<String> {
    volumes_metadata["volumes"]
        .as_array()
        .map(|list| {
            list.iter()
                .filter_map(|v| v["id"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}
