//! Releases, as release plugins ship them: one `is_release: true` record of a
//! plugin's `metadata.yaml` with its `*_path` files loaded, under the names a
//! release is stored with (SEMANTICS §7.2). [`crate::plugin`] builds them.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::component::{Component, ComponentType, DEFAULT_REQUIRED_TYPES};

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
    /// Role name → role metadata, in file order.
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub roles_metadata: Value,
    /// Tag → `{has_primary}`.
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub tags_metadata: Value,
    /// `{volumes: [...], volumes_roles_mapping: {...}}`.
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub volumes_metadata: Value,
    /// Environment settings and their defaults (`{editable: {...}}`).
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub attributes_metadata: Value,
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub networks_metadata: Value,
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub network_roles_metadata: Value,
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub vmware_attributes_metadata: Value,
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub node_attributes_metadata: Value,
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub nic_attributes_metadata: Value,
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub bond_attributes_metadata: Value,
    /// Fuel 9's single deployment graph (`deployment_tasks_path`).
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub deployment_tasks: Value,
    /// Graphs by type (`default`, `provisioning`, `deletion`, …).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub graphs: Vec<Graph>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deployment_scripts_path: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repository_path: Option<String>,
}

/// One deployment graph of a release.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Graph {
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default)]
    pub tasks: Vec<Value>,
}

impl Release {
    /// The names of the release's roles, in file order.
    pub fn role_names(&self) -> Vec<String> {
        keys(&self.roles_metadata)
    }

    /// The ids of the volumes the release defines.
    pub fn volume_ids(&self) -> Vec<String> {
        volume_ids(&self.volumes_metadata)
    }
}

/// The keys of a map value (a `roles_metadata`), in order.
pub fn keys(map: &Value) -> Vec<String> {
    map.as_object()
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default()
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
